package server

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// seededEnv is a test organization with n seeded activities (pending of them
// waiting for consensus), alice requesting and bob approving.
func seededEnv(t testing.TB, n, pending int) *testEnv {
	t.Helper()
	e := newEnvWith(t, envOptions{threshold: 2})
	err := e.srv.SeedActivities(ctxT(t), e.org.ID, SeedSpec{Activities: n, Pending: pending,
		Requester: SeedMember{UserID: e.user("alice"), Key: e.keys["alice"]},
		Approver:  SeedMember{UserID: e.user("bob"), Key: e.keys["bob"]}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

type tracedQuery struct {
	query string
	args  []any
}

// traceReads records every statement the read pool runs from now on.
func traceReads(e *testEnv) func() []tracedQuery {
	var mu sync.Mutex
	var seen []tracedQuery
	e.srv.db.read.trace = func(q string, args []any) {
		mu.Lock()
		seen = append(seen, tracedQuery{q, append([]any{}, args...)})
		mu.Unlock()
	}
	return func() []tracedQuery {
		mu.Lock()
		defer mu.Unlock()
		return append([]tracedQuery{}, seen...)
	}
}

// tableScan matches a plan line reading a table (by its name or by the
// alias the statement gives it, "SCAN i") or an index of it from end to
// end: every table a query reads grows with the organization or the
// service, so a query's cost would grow with it. SQLite writes "SEARCH" for
// a read of an index range.
var tableScan = regexp.MustCompile(`^SCAN (\S+)`)

// scanOf is the table or alias a plan line reads whole, "" when it reads
// none (a constant row is no table).
func scanOf(line string) string {
	m := tableScan.FindStringSubmatch(line)
	if m == nil || m[1] == "CONSTANT" {
		return ""
	}
	return m[1]
}

// historyTable matches a statement reading a table with a row per activity,
// vote or evaluation: its rows must come in index order, never sorted.
var historyTable = regexp.MustCompile(`FROM (activities|votes|policy_evaluations|app_proofs)\b`)

// TestEveryListIsServedByAnIndex runs every list and lookup the console and
// the CLI send (every query operation: queryEveryOperation), records the SQL the service runs for them, and checks
// SQLite's plan for each: no scan of any table, named or aliased, and no sort of activities (an index delivers them in page order).
func TestEveryListIsServedByAnIndex(t *testing.T) {
	e := seededEnv(t, 60, 4)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	all, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil || len(all) < 40 {
		t.Fatalf("list: %d activities, %v", len(all), err)
	}
	reads := traceReads(e)
	mid := all[len(all)/2].ID
	for _, o := range []api.ListActivitiesOptions{
		{Limit: 100},
		{Statuses: []string{api.StatusConsensusNeeded}, Limit: 100},
		{Statuses: []string{api.StatusConsensusNeeded}, After: mid, Limit: 10},
		{Statuses: []string{api.StatusCompleted}, Before: mid, Limit: 10},
		{Types: []string{api.TypeCreateInvitations}, Limit: 100},
		{Types: []string{api.TypeCreateInvitations}, After: mid},
		{Statuses: []string{api.StatusFailed}, Types: []string{api.TypeDeleteTvcDeployment}, Limit: 100},
		{Statuses: []string{api.StatusFailed, api.StatusCompleted}, Limit: 100},
		{Statuses: []string{api.StatusFailed, api.StatusCompleted}, Types: []string{api.TypeCreateInvitations, api.TypeDeleteTvcDeployment}, After: mid},
		{After: mid, Limit: 5},
		{Before: mid, Limit: 5},
	} {
		if _, err := alice.ListActivities(ctx, o); err != nil {
			t.Fatalf("list %+v: %v", o, err)
		}
	}
	queryEveryOperation(t, e, mid)
	checked := map[string]bool{}
	for _, q := range reads() {
		if checked[q.query] {
			continue
		}
		checked[q.query] = true
		plan := explain(t, e, q)
		for _, line := range plan {
			if table := scanOf(line); table != "" {
				t.Errorf("full scan of %s (%q) in the plan of\n  %s\nplan: %q", table, line, q.query, plan)
			}
			if strings.Contains(line, "TEMP B-TREE") && historyTable.MatchString(q.query) {
				t.Errorf("history rows sorted (%q) instead of read in index order:\n  %s\nplan: %q", line, q.query, plan)
			}
			// A filter the index does not serve walks the organization's
			// whole history looking for matches (the cost this guards).
			for _, col := range []string{"status", "type"} {
				if strings.HasPrefix(line, "SEARCH activities") && strings.Contains(q.query, " "+col+" = ?") && !strings.Contains(line, col+"=?") {
					t.Errorf("filter on %s is not served by the index (%q):\n  %s", col, line, q.query)
				}
			}
		}
	}
	if len(checked) < 30 {
		t.Fatalf("only %d distinct statements traced; the trace missed the requests", len(checked))
	}
}

func explain(t *testing.T, e *testEnv, q tracedQuery) []string {
	t.Helper()
	rows, err := e.srv.db.readDB.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q.query, q.args...)
	if err != nil {
		t.Fatalf("explain %s: %v", q.query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, detail)
	}
	return out
}

// TestFilteredListsMatchTheWholeHistory pages through filtered lists (several
// statuses, several types, both) and compares each with the organization's
// whole history filtered by hand: the merged index ranges return exactly the
// matching activities, newest first, each once.
func TestFilteredListsMatchTheWholeHistory(t *testing.T) {
	e := seededEnv(t, 80, 6)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	var history []api.Activity // newest first
	for after := ""; ; {
		page, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 30, After: after})
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, page...)
		if len(page) < 30 {
			break
		}
		after = page[len(page)-1].ID
	}
	if len(history) != 80 {
		t.Fatalf("history has %d activities, seeded 80", len(history))
	}
	for _, f := range []struct{ statuses, types []string }{
		{[]string{api.StatusConsensusNeeded}, nil},
		{[]string{api.StatusFailed, api.StatusConsensusNeeded, api.StatusFailed}, nil},
		{nil, []string{api.TypeDeleteTvcDeployment, api.TypeCreateInvitations}},
		{[]string{api.StatusCompleted, api.StatusConsensusNeeded}, []string{api.TypeCreateInvitations}},
	} {
		var want []string
		for _, a := range history {
			if (f.statuses == nil || slices.Contains(f.statuses, a.Status)) && (f.types == nil || slices.Contains(f.types, a.Type)) {
				want = append(want, a.ID)
			}
		}
		if len(want) == 0 {
			t.Fatalf("filter %+v matches nothing in the seeded history", f)
		}
		var got []string
		for after := ""; ; {
			page, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: f.statuses, Types: f.types, Limit: 7, After: after})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range page {
				got = append(got, a.ID)
			}
			if len(page) < 7 {
				break
			}
			after = page[len(page)-1].ID
		}
		if !slices.Equal(got, want) {
			t.Errorf("filter %+v paged after: got %d activities, want %d\n got %v\nwant %v", f, len(got), len(want), got, want)
		}
		// The page before the oldest match holds the newest matches before it.
		if len(want) > 3 {
			prev, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: f.statuses, Types: f.types, Limit: 3, Before: want[3]})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, a := range prev {
				ids = append(ids, a.ID)
			}
			if !slices.Equal(ids, want[:3]) {
				t.Errorf("filter %+v before %s: got %v, want %v", f, want[3], ids, want[:3])
			}
		}
	}
}

// queryEveryOperation sends every query operation of the service (and the
// local alias list_mfa_policies) for e's organization, whose activity mid
// exists, each with records to read: a policy, an MFA policy, an on-ramp
// transaction, an activity with app proofs. carol's first request is among
// them, so that the lookup of a stamp's key is traced too.
func queryEveryOperation(t *testing.T, e *testEnv, mid string) {
	t.Helper()
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.clients["bob"]
	policyID := e.addPolicy("sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	mfa, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("bob"), MfaPolicyName: "tags",
		Condition:                     "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	mfa, err = bob.ApproveActivity(ctx, mfa.Fingerprint)
	if err != nil || mfa.Status != api.StatusCompleted {
		t.Fatalf("MFA policy: %v %+v", err, mfa)
	}
	mfaID := mfa.Result.CreateMfaPolicyResult.MfaPolicyID
	if err := e.srv.AddOnrampTransaction(ctx, e.org.ID, "onramp-1", "PENDING"); err != nil {
		t.Fatal(err)
	}
	proven, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "proven", UserIDs: []string{e.user("bob")}}, api.WithAppProofs())
	if err != nil {
		t.Fatal(err)
	}
	if proven, err = bob.ApproveActivity(ctx, proven.Fingerprint); err != nil || proven.Status != api.StatusCompleted {
		t.Fatalf("tag with app proofs: %v %+v", err, proven)
	}
	boot, err := alice.GetLatestBootProof(ctx, AppProofSigner)
	if err != nil {
		t.Fatal(err)
	}
	keyID := e.apiKeyID(e.user("bob"))

	ops := map[string]func() error{
		api.QueryGetAPIKey:            func() error { _, err := alice.GetAPIKey(ctx, keyID); return err },
		api.QueryGetLatestBootProof:   func() error { _, err := alice.GetLatestBootProof(ctx, AppProofSigner); return err },
		api.QueryGetBootProof:         func() error { _, err := alice.GetBootProof(ctx, boot.EphemeralPublicKeyHex); return err },
		api.QueryGetPolicyEvaluations: func() error { _, err := alice.GetPolicyEvaluations(ctx, mid); return err },
		api.QueryListAppProofs:        func() error { _, err := alice.ListAppProofs(ctx, proven.ID); return err },
		api.QueryGetOnrampTransactionStatus: func() error {
			_, err := alice.GetOnrampTransactionStatus(ctx, "onramp-1", false)
			return err
		},
		api.QueryListActivities:         func() error { _, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 10}); return err },
		api.QueryGetActivity:            func() error { _, err := alice.GetActivity(ctx, mid); return err },
		api.QueryListPolicies:           func() error { _, err := alice.ListPolicies(ctx); return err },
		api.QueryGetPolicy:              func() error { _, err := alice.GetPolicy(ctx, policyID); return err },
		api.QueryGetMfaPolicies:         func() error { _, err := alice.GetMfaPolicies(ctx, e.user("bob")); return err },
		api.QueryGetMfaPolicy:           func() error { _, err := alice.GetMfaPolicy(ctx, e.user("bob"), mfaID); return err },
		api.QueryGetMfaStatus:           func() error { _, err := alice.GetMfaStatus(ctx, proven.ID, e.user("bob")); return err },
		api.QueryWhoami:                 func() error { _, err := e.clients["carol"].Whoami(ctx); return err },
		api.QueryGetOrganizationConfigs: func() error { _, err := alice.GetOrganizationConfigs(ctx); return err },
		api.QueryListUsers:              func() error { _, err := alice.ListUsers(ctx); return err },
		api.QueryGetUser:                func() error { _, err := alice.GetUser(ctx, e.user("bob")); return err },
		api.QueryListMfaPolicies: func() error {
			_, err := alice.QueryRaw(ctx, api.QueryListMfaPolicies, api.ListUsersRequest{OrganizationID: e.org.ID})
			return err
		},
	}
	for _, op := range api.QueryOperations() {
		if ops[op] == nil {
			t.Fatalf("query operation %s is not sent: add it to queryEveryOperation", op)
		}
	}
	for op, send := range ops {
		if err := send(); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
}
