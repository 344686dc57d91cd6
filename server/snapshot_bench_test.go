package server

import (
	"encoding/json"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// BenchmarkPendingListCold is the pending list (limit 100) read with every
// list cache empty, as after each vote: the page, its rows, their votes and
// encodings all come from the database (in one read snapshot).
func BenchmarkPendingListCold(b *testing.B) {
	e := newEnvWith(b, envOptions{threshold: 2, dataDir: b.TempDir()})
	err := e.srv.SeedActivities(ctxT(b), e.org.ID, SeedSpec{Activities: 2000, Pending: 10,
		Requester: SeedMember{UserID: e.user("alice"), Key: e.keys["alice"]},
		Approver:  SeedMember{UserID: e.user("bob"), Key: e.keys["bob"]}})
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := json.Marshal(api.ListActivitiesRequest{OrganizationID: e.org.ID, FilterByStatus: []string{api.StatusConsensusNeeded},
		PaginationOptions: &api.PaginationOptions{Limit: "100"}})
	body, err := api.CheckStrict(raw)
	if err != nil {
		b.Fatal(err)
	}
	c := &caller{OrgID: e.org.ID, UserID: e.user("carol")}
	ctx := ctxT(b)
	cache := e.srv.db.cache
	for b.Loop() {
		cache.invalidate(changedVotes)
		cache.mu.Lock()
		cache.rows = nil
		cache.mu.Unlock()
		if _, err := e.srv.queryListActivities(ctx, c, body); err != nil {
			b.Fatal(err)
		}
	}
}
