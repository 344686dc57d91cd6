package server

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Fifty root members approve one activity at once (each twice, with different
// bodies): the activity completes exactly once, every member's vote is recorded
// exactly once, and each member's second vote is refused.
func TestFiftyParallelApprovals(t *testing.T) {
	const voters = 50
	e := newEnvWith(t, envOptions{threshold: 3 + voters, rootCount: voters})
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "crowd", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	// bob and carol approve first so that the 50 complete the quorum.
	for _, n := range []string{"bob", "carol"} {
		if _, err := e.clients[n].ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	ok, dup, completions := 0, 0, 0
	var wg sync.WaitGroup
	for i := 1; i <= voters; i++ {
		name := fmt.Sprintf("root%d", i)
		// The second client's clock is a second behind, so its body differs
		// (byte-identical bodies are replays, answered idempotently).
		late, err := api.NewClient(e.http.URL, e.org.ID, e.keys[name], api.WithClock(func() time.Time { return time.Now().Add(-time.Second) }))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []*api.Client{e.clients[name], late} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, err := c.ApproveActivity(ctx, act.Fingerprint)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
					if a.Status == api.StatusCompleted && len(a.Votes) == 3+voters {
						completions++
					}
				case errors.Is(err, api.ErrAlreadyExists):
					dup++
				default:
					t.Errorf("vote: %v", err)
				}
			}()
		}
	}
	wg.Wait()
	if ok != voters || dup != voters {
		t.Fatalf("%d accepted and %d refused as duplicates, want %d and %d", ok, dup, voters, voters)
	}
	if completions != 1 {
		t.Fatalf("%d replies saw the completing vote, want exactly 1", completions)
	}
	final, err := e.clients["alice"].GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, v := range final.Votes {
		if seen[v.UserID] {
			t.Fatalf("duplicate vote by %s", v.UserID)
		}
		seen[v.UserID] = true
	}
	if final.Status != api.StatusCompleted || len(final.Votes) != 3+voters {
		t.Fatalf("final: %s with %d votes, want COMPLETED with %d", final.Status, len(final.Votes), 3+voters)
	}
	// The intent ran once: one tag named crowd.
	var tags int
	if err := e.srv.db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM user_tags WHERE org_id = ? AND name = 'crowd'`, e.org.ID).Scan(&tags); err != nil || tags != 1 {
		t.Fatalf("%d tags named crowd (%v), want 1", tags, err)
	}
	evals, _ := e.clients["alice"].GetPolicyEvaluations(ctx, act.ID)
	if len(evals) != 3+voters {
		t.Fatalf("%d evaluations, want one per vote (%d)", len(evals), 3+voters)
	}
}
