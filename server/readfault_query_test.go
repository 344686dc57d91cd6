package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// failNthPoolRead makes the nth SELECT of the read pool fail, counting from
// when it is called; seen counts the SELECTs. A read there is not a write
// the disk refused: the error is a plain one, as SQLite's would be.
func failNthPoolRead(c *cachedDB, n int64) (seen *atomic.Int64) {
	seen = &atomic.Int64{}
	c.faults.set(func(query string, args []any) error {
		if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(query)), "SELECT") {
			return nil
		}
		if seen.Add(1) == n {
			return errors.New("injected read fault")
		}
		return nil
	})
	return seen
}

// Each read of a query, made to fail in turn on cold caches: the query
// either fails as a whole (never a 200 with part of the answer missing),
// and the same query right after, with nothing failing, answers exactly
// what it answered before: no cache keeps an empty result, a "no such key"
// or a policy set read while the database failed.
func TestReadFaultsInQueriesPoisonNoCache(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	e.addPolicy("sessions need one more", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "approvers.count() >= 2")
	pending, err := e.clients["alice"].CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	done, err := e.clients["bob"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("carol")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients["alice"].ApproveActivity(ctx, done.Fingerprint); err != nil {
		t.Fatal(err)
	}
	org := e.org.ID
	queries := []struct {
		name string
		req  any
	}{
		{api.QueryWhoami, api.WhoamiRequest{OrganizationID: org}},
		{api.QueryListActivities, api.ListActivitiesRequest{OrganizationID: org}},
		{api.QueryListActivities, api.ListActivitiesRequest{OrganizationID: org, FilterByStatus: []string{api.StatusConsensusNeeded}}},
		{api.QueryGetActivity, api.GetActivityRequest{OrganizationID: org, ActivityID: pending.ID}},
		{api.QueryGetPolicyEvaluations, api.GetPolicyEvaluationsRequest{OrganizationID: org, ActivityID: done.ID}},
		{api.QueryListPolicies, api.ListPoliciesRequest{OrganizationID: org}},
		{api.QueryListUsers, api.ListUsersRequest{OrganizationID: org}},
		{api.QueryGetOrganizationConfigs, api.GetOrganizationConfigsRequest{OrganizationID: org}},
	}
	allCaches := changedAuth | changedPolicies | changedFeatures | changedVotes
	defer e.srv.db.read.faults.set(nil)
	for _, q := range queries {
		body, err := json.Marshal(q.req)
		if err != nil {
			t.Fatal(err)
		}
		path := api.QueryPrefix + q.name
		e.srv.db.cache.invalidate(allCaches)
		want := e.post(path, body, e.keys["bob"])
		if want.status != 200 {
			t.Fatalf("%s: HTTP %d %s", q.name, want.status, want.body)
		}
		for n := int64(1); ; n++ {
			e.srv.db.cache.invalidate(allCaches)
			seen := failNthPoolRead(e.srv.db.read, n)
			r := e.post(path, body, e.keys["bob"])
			e.srv.db.read.faults.set(nil)
			if r.status == 200 && !bytes.Equal(r.body, want.body) {
				t.Errorf("%s with read %d failing: 200 with a different answer:\n%s\nwant\n%s", q.name, n, r.body, want.body)
			}
			if r.status != 200 && r.status < 500 {
				t.Errorf("%s with read %d failing: HTTP %d %s; a read error is the service's, not the caller's", q.name, n, r.status, r.body)
			}
			if after := e.post(path, body, e.keys["bob"]); after.status != 200 || !bytes.Equal(after.body, want.body) {
				t.Errorf("%s after read %d failed: HTTP %d\n%s\nwant\n%s", q.name, n, after.status, after.body, want.body)
			}
			if seen.Load() < n {
				break
			}
		}
	}
}
