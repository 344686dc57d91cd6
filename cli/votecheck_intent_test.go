package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A reply carrying its own intentCheck (in any case) is refused, as one
// carrying voteChecks is: the service's verdict on its own intent must not
// pass for vigil's. An activity whose requester's vote is not shown gets
// an intentCheck that says the intent is NOT checked.
func TestActivityJSONIntentCheck(t *testing.T) {
	for _, k := range []string{"intentCheck", "IntentCheck"} {
		raw := `{"activity":{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","fingerprint":"sha256:00","votes":[]},"` + k + `":{"state":"checked"}}`
		if _, err := withVoteChecks([]byte(raw), func() ([]api.User, error) { return nil, nil }); err == nil || !strings.Contains(err.Error(), "intentCheck") {
			t.Errorf("a reply with its own %s: %v, want refused", k, err)
		}
	}
	raw := `{"activity":{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","fingerprint":"sha256:00","votes":[]}}`
	out, err := withVoteChecks([]byte(raw), func() ([]api.User, error) { return nil, nil })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"intentCheck":{"state":"`+api.IntentNotChecked+`"`) {
		t.Errorf("no requester's vote shown: %s, want intentCheck %q", out, api.IntentNotChecked)
	}
}
