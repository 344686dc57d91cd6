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

// bigTables grow with the organization's history; reading one of them whole,
// or sorting its rows, makes a request's cost grow with it.
var bigTableScan = regexp.MustCompile(`^SCAN (activities|votes|policy_evaluations|app_proofs|invitations|api_keys|users|authenticators)\b`)

// historyTable matches a statement reading a table with a row per activity,
// vote or evaluation: its rows must come in index order, never sorted.
var historyTable = regexp.MustCompile(`FROM (activities|votes|policy_evaluations|app_proofs)\b`)

// TestEveryListIsServedByAnIndex runs every list and lookup the console and
// the CLI send, records the SQL the service runs for them, and checks
// SQLite's plan for each: no scan of a table that grows with the organization
// and no sort of activities (an index delivers them in page order).
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
	if _, err := alice.GetActivity(ctx, mid); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.GetPolicyEvaluations(ctx, mid); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.ListAppProofs(ctx, mid); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.Whoami(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.ListUsers(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.ListPolicies(ctx); err != nil {
		t.Fatal(err)
	}

	checked := map[string]bool{}
	for _, q := range reads() {
		if checked[q.query] {
			continue
		}
		checked[q.query] = true
		plan := explain(t, e, q)
		for _, line := range plan {
			if bigTableScan.MatchString(line) {
				t.Errorf("full scan %q in the plan of\n  %s\nplan: %q", line, q.query, plan)
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
	if len(checked) < 10 {
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
