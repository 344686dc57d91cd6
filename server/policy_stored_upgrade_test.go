package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// A deny stored by an earlier vigil, before submissions were refused for
// comparing a documented parameter with a literal of another kind, must stay
// readable after the upgrade: read as unreadable, it would hold every
// activity of the organization for the root quorum.
func TestDenyStoredBeforeLiteralChecksStillDecides(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	e.addPolicy("allow sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	e.addPolicy("allow tags", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", "")
	deny := e.addPolicy("deny tags", api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", "")
	// The refused clause sits in a loop over an empty list: every clause
	// is evaluated (the engine does not short-circuit), and otp_length, which
	// a user tag does not have, would make the deny an error on one.
	old := "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' || [].exists(x, activity.params.otp_length in ['6', '8'])"
	if _, err := policy.CompileSource(policy.Source{Condition: old}); err == nil {
		t.Fatalf("%q is accepted from a submission; the test needs a condition this vigil refuses to store", old)
	}
	// Written as the earlier vigil stored it.
	if err := e.srv.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE policies SET condition = ? WHERE id = ?`, old, deny)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	act, err := e.later("operator").CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusCompleted {
		t.Fatalf("a session, allowed and outside deny %s (%q), is %s: the stored deny was read as unreadable", deny, old, act.Status)
	}
	tag, err := e.later("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	if tag.Status != api.StatusFailed {
		t.Fatalf("a user tag, which deny %s (%q) matches, is %s, not denied", deny, old, tag.Status)
	}
}
