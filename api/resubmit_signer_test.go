package api_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Resubmit resends only its own client's (key's) request: the same bytes
// stamped by another member count as that member's approval, a vote bob
// never chose to cast. The same key in a new client may resend it.
func TestResubmitRefusesAnotherKeysRequest(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	g := demo.Gateway()
	g.FailSubmits.Store(true)
	_, err := demo.ClientAt(g.URL, "alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "signer-bound", UserIDs: []string{}})
	var unknown *api.OutcomeUnknownError
	if !errors.As(err, &unknown) {
		t.Fatalf("set-up: %v", err)
	}
	g.FailSubmits.Store(false)
	if act, err := demo.ClientAt(g.URL, "bob").Resubmit(ctx, unknown); err == nil {
		t.Errorf("bob's client resent alice's request (activity %s, now %s, %d votes): want it refused as another key's", act.ID, act.Status, len(act.Votes))
	}
	act, err := demo.ClientAt(g.URL, "alice").Resubmit(ctx, unknown)
	if err != nil {
		t.Fatalf("alice's own resend: %v", err)
	}
	if len(act.Votes) != 1 {
		t.Errorf("alice's resend: %d votes, want 1 (her own)", len(act.Votes))
	}
}
