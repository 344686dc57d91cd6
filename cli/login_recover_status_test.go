package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// --recover run before the login was approved must not say the login made no
// API key: the service makes it on approval, and only the target key opens
// it, so a user who deleted the target key on that word would lose the login.
// Only a FAILED or REJECTED login made none.
func TestFinishOAuthSaysMadeNoKeyOnlyForFailedOrRejected(t *testing.T) {
	kept := errors.New("the target key stays")
	for _, status := range []string{api.StatusConsensusNeeded, api.StatusPending, api.StatusCreated, "ACTIVITY_STATUS_SOMETHING_NEW", api.StatusFailed, api.StatusRejected} {
		act := &api.Activity{ID: "act-1", Type: api.TypeOauth, Status: status}
		err := finishOAuth(context.Background(), proc{}, Profile{}, keys.Store{Dir: t.TempDir()}, "carol", nil, act, nil,
			func() { t.Errorf("%s: the target key was dropped", status) }, time.Now().Add(time.Hour), time.Hour,
			func(cause error) error { return errors.Join(kept, cause) })
		madeNone := status == api.StatusFailed || status == api.StatusRejected
		if said := err != nil && strings.Contains(err.Error(), "made no API key"); said != madeNone {
			t.Errorf("%s: says it made no API key: %v, want %v (%v)", status, said, madeNone, err)
		}
		if !madeNone && !errors.Is(err, kept) {
			t.Errorf("%s: the error does not keep the target key: %v", status, err)
		}
	}
}
