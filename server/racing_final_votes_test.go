package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Two final votes race on an activity that has one approval (approve
// against approve, approve against reject): it settles exactly once (no
// user votes twice, one result, the tag created once), and right after each
// vote's reply get_activity shows at least the replied status, and
// list_activities filtered by it holds the activity while it has that
// status. From audit 209; run it with -race.
func TestRacingFinalVotesSettleOnceAndReadTheirWrites(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	roots := []string{"alice", "bob", "carol"}
	var bad atomic.Int64
	before, err := e.clients["alice"].GetUser(ctx, e.org.UserIDs["operator"])
	if err != nil {
		t.Fatal(err)
	}
	const iterations = 60
	for iter := range iterations {
		// alice proposes; bob and carol race approve vs reject / approve vs approve.
		act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: fmt.Sprintf("race-%d", iter), UserIDs: []string{e.org.UserIDs["operator"]}})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		type res struct {
			who, sel, status string
			err              error
		}
		out := make(chan res, 3)
		for i, v := range roots[1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sel := api.VoteApproved
				var a *api.Activity
				var err error
				if iter%3 == 0 && i == 1 {
					sel = api.VoteRejected
					a, err = e.clients[v].RejectActivity(ctx, act.Fingerprint)
				} else {
					a, err = e.clients[v].ApproveActivity(ctx, act.Fingerprint)
				}
				if err != nil {
					out <- res{v, sel, "", err}
					return
				}
				// read your write
				g, gerr := e.clients[v].GetActivity(ctx, a.ID)
				if gerr != nil || settledRank(g.Status) < settledRank(a.Status) {
					bad.Add(1)
					t.Errorf("get after reply %s: %v %v", a.Status, gerr, g)
				}
				l, lerr := e.clients[v].ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{a.Status}, Limit: 100})
				found := false
				for _, x := range l {
					if x.ID == a.ID {
						found = true
					}
				}
				if lerr != nil {
					t.Errorf("list: %v", lerr)
				} else if !found {
					// The other vote may end the activity while the list
					// runs, and then the list rightly leaves it out. A
					// status only moves forward, so a get after the list
					// that still says a.Status means it said so throughout
					// the list, which must have held it.
					after, aerr := e.clients[v].GetActivity(ctx, a.ID)
					if aerr != nil {
						t.Errorf("get after the list: %v", aerr)
					} else if after.Status == a.Status {
						bad.Add(1)
						t.Errorf("list filtered by %s misses %s right after the reply, and a get after the list still says %s", a.Status, a.ID, after.Status)
					}
				}
				out <- res{v, sel, a.Status, nil}
			}()
		}
		wg.Wait()
		close(out)
		final, err := e.clients["alice"].GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatal(err)
		}
		users := map[string]int{}
		for _, v := range final.Votes {
			users[v.UserID]++
		}
		for u, n := range users {
			if n > 1 {
				t.Errorf("user %s voted %d times", u, n)
			}
		}
		for r := range out {
			if r.err != nil {
				var ae *api.Error
				if !errors.As(r.err, &ae) || ae.StatusCode/100 != 4 {
					t.Errorf("%s %s: %v", r.who, r.sel, r.err)
				}
			}
		}
		// alice's approval and either racing vote's approval complete it,
		// whichever lands first.
		if final.Status != api.StatusCompleted || final.Result.CreateUserTagResult == nil || final.Result.CreateUserTagResult.UserTagID == "" {
			t.Errorf("iteration %d: two racing final votes ended it %s with result %+v, want COMPLETED with its tag", iter, final.Status, final.Result)
		}
	}
	u, err := e.clients["alice"].GetUser(ctx, e.org.UserIDs["operator"])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(u.UserTags), len(before.UserTags)+iterations; got != want {
		t.Errorf("operator has %d tags after %d tag activities, want %d: an activity ran other than once", got, iterations, want)
	}
	seen := map[string]bool{}
	for _, tg := range u.UserTags {
		if seen[tg] {
			t.Errorf("tag %s twice", tg)
		}
		seen[tg] = true
	}
}

// settledRank orders statuses: created, waiting, ended.
func settledRank(s string) int {
	switch s {
	case api.StatusCreated:
		return 0
	case api.StatusPending, api.StatusConsensusNeeded, api.StatusAuthenticatorsNeeded:
		return 1
	}
	return 2
}
