package screens

import (
	"errors"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A client that answers with neither an activity nor an error must not leave
// a screen holding a nil activity as if one had come (a nil dereference later).
func TestNeitherActivityNorErrorIsAnError(t *testing.T) {
	if a, err := activityOrError(nil, nil); a != nil || !errors.Is(err, errNoActivity) {
		t.Errorf("nil, nil gave %v, %v; want errNoActivity", a, err)
	}
	act := &api.Activity{ID: "x"}
	if a, err := activityOrError(act, nil); a != act || err != nil {
		t.Errorf("an activity gave %v, %v", a, err)
	}
	failed := errors.New("refused")
	if _, err := activityOrError(nil, failed); err != failed {
		t.Errorf("an error gave %v, want it as it was", err)
	}
}
