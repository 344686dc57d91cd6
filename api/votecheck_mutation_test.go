package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// TestVoteCheckMutations: honest get_activity replies, rewritten at random
// (fixed seed) by a proxy, read by an exact client (and a sanitising one,
// and through list_activities, and with no user list read); no vote whose
// claim changed may read verified, no approval may vouch for an intent
// that no verified submission binds, and no intent may read checked but
// by a key the user list holds as the requester's. VIGIL_VOTE_MUTATIONS sets the count (for a longer run).
func TestVoteCheckMutations(t *testing.T) {
	w := fzSetup(t)
	var mu sync.Mutex
	var serve, serveList []byte
	proxy := w.demo.Rewriting(func(op string, request, reply []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case op == "query/"+api.QueryGetActivity && serve != nil:
			return serve
		case op == "query/"+api.QueryListActivities && serveList != nil:
			return serveList
		}
		return reply
	})
	n := 300
	if s := os.Getenv("VIGIL_VOTE_MUTATIONS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("VIGIL_VOTE_MUTATIONS: %v", err)
		}
	}
	for _, mode := range []string{"get exact", "get sanitising", "list exact", "get exact, no user list"} {
		exact, list := mode != "get sanitising", mode == "list exact"
		users := w.users
		if mode == "get exact, no user list" {
			users = nil // list_users failed: no intent may read checked
		}
		var opts []api.Option
		if exact {
			opts = append(opts, api.WithExactStrings())
		}
		client, err := api.NewClient(proxy, w.org, w.voters[0].key, opts...)
		if err != nil {
			t.Fatal(err)
		}
		read := func(a *fzAct, raw []byte) (*api.Activity, []api.VoteCheck, api.IntentCheck, func(int) string, error) {
			mu.Lock()
			serve = raw
			if list {
				// the mutated activity as the one activity of a list reply
				var top map[string]json.RawMessage
				if json.Unmarshal(raw, &top) != nil {
					mu.Unlock()
					return nil, nil, api.IntentCheck{}, nil, errors.New("no activity")
				}
				serveList = []byte(`{"activities":[` + string(top["activity"]) + `]}`)
			}
			mu.Unlock()
			var m *api.Activity
			var err error
			if list {
				var acts []api.Activity
				acts, err = client.ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 5})
				if err == nil && len(acts) == 1 {
					m = &acts[0]
				}
				if m == nil && err == nil {
					err = errors.New("not one activity")
				}
			} else {
				m, err = client.GetActivity(context.Background(), a.id)
			}
			if err != nil {
				return nil, nil, api.IntentCheck{}, nil, err
			}
			checks, intent := api.CheckActivityVotes(*m, users)
			plain := api.CheckVotes(*m)
			for i := range m.Votes {
				if c := api.CheckVote(*m, m.Votes[i]); c != plain[i] {
					t.Errorf("CheckVote and CheckVotes differ on vote %d: %+v vs %+v\n%s", i, c, plain[i], raw)
				}
			}
			return m, checks, intent, func(i int) string { return api.VoteKeyOwner(users, &m.Votes[i]).State }, nil
		}
		t.Logf("mode: %s", mode)
		runs := n
		if mode != "get exact" {
			runs = n / 3
		}
		byRule := fzRun(t, w, 195, runs, read)
		if holes := fzReport(t, byRule); holes > 0 {
			t.Errorf("%s: %d verified votes whose claim changed", mode, holes)
		}
	}
}
