package server

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// get_mfa_status reads the activity, its votes and its proofs from one
// snapshot: a vote acknowledged while it reads (here bob's, completing the
// activity, just before the votes are read) is not shown with the row read
// before it (a pending activity with the vote that completed it). Audit 190.
func TestMfaStatusIsReadFromOneSnapshot(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	alice := e.clients["alice"]
	pol, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("bob"), MfaPolicyName: "API key for tags",
		Condition:                     "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(e.clients["carol"].ApproveActivity(ctx, pol.Fingerprint))
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("setup: %v", err)
	}
	var fired atomic.Bool
	t.Cleanup(func() { e.srv.db.read.faults.set(nil) })
	e.srv.db.read.faults.set(func(query string, args []any) error {
		if strings.Contains(query, "FROM votes v") && len(args) == 1 && args[0] == act.ID && fired.CompareAndSwap(false, true) {
			if a, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint); err != nil || a.Status != api.StatusCompleted {
				t.Errorf("bob's approval: %v", err)
			}
		}
		return nil
	})
	st, err := alice.GetMfaStatus(ctx, act.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !fired.Load() {
		t.Fatal("the hook did not run: the activity's votes were not read")
	}
	for _, s := range st {
		if s.UserID == e.user("bob") {
			t.Fatalf("get_mfa_status shows bob's vote, acknowledged after it read the activity pending: %+v", st)
		}
	}
}
