package server

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An organization's policies are capped in total, since list_policies
// answers them all at once and none can be deleted: a policy that does not
// fit is refused at submission, and one that waited for votes while others
// took the room FAILS when it would execute. Those that fit are kept, and
// list_policies still answers.
func TestPolicyTotalIsBoundedAtCreation(t *testing.T) {
	const budget = 10 << 10 // room for two of the policies below, not three
	e := newEnvWith(t, envOptions{threshold: 2, maxPolicyBytes: budget})
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.clients["bob"]
	policy := func(name string) api.CreatePolicyParams {
		return api.CreatePolicyParams{PolicyName: name, Effect: api.EffectAllow,
			Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Notes: strings.Repeat("n", api.MaxNotesLength)}
	}
	// All three are submitted while nothing is stored: each fits on its own.
	var pending []*api.Activity
	for _, name := range []string{"first", "second", "third"} {
		act, err := alice.CreatePolicy(ctx, policy(name))
		if err != nil {
			t.Fatalf("submit %s: %v", name, err)
		}
		if act.Status != api.StatusConsensusNeeded {
			t.Fatalf("%s is %s, want it waiting for bob", name, act.Status)
		}
		pending = append(pending, act)
	}
	for _, act := range pending[:2] {
		done, err := bob.ApproveActivity(ctx, act.Fingerprint)
		if err != nil || done.Status != api.StatusCompleted {
			t.Fatalf("approve %s: %v, status %s; want it COMPLETED", act.ID, err, done.Status)
		}
	}
	third, err := bob.ApproveActivity(ctx, pending[2].Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if third.Status != api.StatusFailed || third.Failure == nil ||
		!strings.Contains(third.Failure.Message, "10.0 KiB") || !strings.Contains(third.Failure.Message, "cannot be deleted") {
		t.Fatalf("the third policy, with no room left once the others were stored: status %s, failure %+v; want FAILED naming the 10 KiB limit and what to do",
			third.Status, third.Failure)
	}

	_, err = alice.CreatePolicy(ctx, policy("fourth"))
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || !hasErrorCode(apiErr, "POLICY_LIMIT") || !strings.Contains(apiErr.Error(), "10.0 KiB") ||
		!strings.Contains(apiErr.Error(), "shorten") {
		t.Fatalf("a policy that cannot fit: %v; want POLICY_LIMIT naming the 10 KiB limit and what to do", err)
	}
	// A short one still fits in what is left.
	short := api.CreatePolicyParams{PolicyName: "short", Effect: api.EffectAllow, Condition: "false"}
	act, err := alice.CreatePolicy(ctx, short)
	if err != nil {
		t.Fatalf("a short policy, which fits: %v", err)
	}
	if done, err := bob.ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approve the short policy: %v", err)
	}

	got, err := bob.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, p.PolicyName)
	}
	if strings.Join(names, ",") != "first,second,short" {
		t.Fatalf("stored policies: %v, want first, second and short", names)
	}
}

func hasErrorCode(e *api.Error, code string) bool {
	for _, d := range e.Details {
		if d.ErrorCode == code {
			return true
		}
	}
	return false
}

// Migration 16 counts the policies stored before it, as policyCharge would
// have counted them when they were created (multi-byte text counted in
// bytes), and its trigger counts those stored after it the same way.
func TestPolicyTotalCountsPoliciesStoredBeforeTheMigration(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "v15.db")+"?_pragma=foreign_keys(ON)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := migrateUpTo(ctx, db, 15); err != nil {
		t.Fatal(err)
	}
	insert := func(id string, p api.CreatePolicyParams) {
		t.Helper()
		if _, err := db.Exec(`INSERT INTO policies(id, org_id, name, effect, condition, consensus, time_expr, notes, seq, created_ns, updated_ns)
			VALUES (?, 'o', ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM policies WHERE org_id = 'o'), 1, 1)`,
			id, p.PolicyName, p.Effect, p.Condition, p.Consensus, p.Time, p.Notes); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'O', 1, '["u"]', 1)`); err != nil {
		t.Fatal(err)
	}
	before := api.CreatePolicyParams{PolicyName: "défense ✓", Effect: api.EffectDeny, Condition: "activity.type == 'é'",
		Consensus: "approvers.count() >= 1", Time: "time.now >= Timestamp('2020-01-01T00:00:00Z')", Notes: "ünïcode notes"}
	insert("p1", before)
	if err := migrateUpTo(ctx, db, len(migrations)); err != nil {
		t.Fatal(err)
	}
	after := api.CreatePolicyParams{PolicyName: "later", Effect: api.EffectAllow, Condition: "true", Notes: "ß"}
	insert("p2", after)
	var counted int64
	if err := db.QueryRow(`SELECT policy_bytes FROM organizations WHERE id = 'o'`).Scan(&counted); err != nil {
		t.Fatal(err)
	}
	if want := policyCharge(&before) + policyCharge(&after); counted != want {
		t.Fatalf("the organization's policies count %d bytes, want %d: the SQL and policyCharge disagree", counted, want)
	}
}
