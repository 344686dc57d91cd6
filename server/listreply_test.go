package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// TestListReplyIsWhatMarshalGives: the pending list is spliced from
// cached encodings of each activity; its bytes are those api.Marshal gives
// for the decoded page (the wire format is unchanged), each viewer sees its
// own canApprove from the same cache, and a round of approvals that expires
// leaves the listed activity without votes. get_activity, a list of one,
// gives the same bytes for the activity.
func TestListReplyIsWhatMarshalGives(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "a <b> & c", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	list := func(who string) api.Activity {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"organizationId": e.org.ID, "filterByStatus": []string{api.StatusConsensusNeeded}})
		r := e.post("/public/v1/query/list_activities", body, e.keys[who])
		if r.status != 200 {
			t.Fatalf("list as %s: HTTP %d %s", who, r.status, r.body)
		}
		var page api.ListActivitiesResponse
		if err := json.Unmarshal(r.body, &page); err != nil {
			t.Fatal(err)
		}
		again, _ := api.Marshal(page)
		if !bytes.Equal(again, r.body) {
			t.Fatalf("list as %s:\n got %s\nwant %s", who, r.body, again)
		}
		if len(page.Activities) != 1 || page.Activities[0].ID != act.ID {
			t.Fatalf("list as %s: %s", who, r.body)
		}
		// Not HTML-escaped: each <, > and & would take six bytes.
		if !bytes.Contains(r.body, []byte(`"a <b> & c"`)) {
			t.Fatalf("list as %s: the tag's name is not as submitted: %s", who, r.body)
		}
		// get_activity is a list of one: the same bytes for the activity.
		body, _ = json.Marshal(map[string]any{"organizationId": e.org.ID, "activityId": act.ID})
		g := e.post("/public/v1/query/get_activity", body, e.keys[who])
		var one api.ActivityResponse
		if err := json.Unmarshal(g.body, &one); g.status != 200 || err != nil {
			t.Fatalf("get as %s: HTTP %d %s, %v", who, g.status, g.body, err)
		}
		again, _ = api.Marshal(one)
		listed, _ := api.Marshal(page.Activities[0])
		if want := `{"activity":` + string(listed) + `}`; !bytes.Equal(again, g.body) || string(g.body) != want {
			t.Fatalf("get as %s:\n got %s\nwant %s", who, g.body, want)
		}
		return page.Activities[0]
	}
	for range 2 { // the second round comes from the cache
		if a := list("alice"); a.CanApprove || len(a.Votes) != 1 {
			t.Fatalf("alice, who submitted it: canApprove %v, %d votes", a.CanApprove, len(a.Votes))
		}
		if a := list("bob"); !a.CanApprove || !a.CanReject || len(a.Votes) != 1 {
			t.Fatalf("bob, who has not voted: canApprove %v canReject %v, %d votes", a.CanApprove, a.CanReject, len(a.Votes))
		}
	}
	e.skew.Store(int64(api.ApprovalLifetime + time.Minute))
	if a := list("bob"); len(a.Votes) != 0 || !a.CanApprove {
		t.Fatalf("after the round expired bob sees %d votes, canApprove %v", len(a.Votes), a.CanApprove)
	}
	if a := list("alice"); len(a.Votes) != 0 || !a.CanApprove {
		t.Fatalf("after the round expired alice may vote again: %d votes, canApprove %v", len(a.Votes), a.CanApprove)
	}
}

// TestCachedPagesFollowWrites: the pending list and get_activity are served
// from caches while nothing changes; the vote that settles an activity shows
// in both on the very next request.
func TestCachedPagesFollowWrites(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.clients["bob"]
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "cached", UserIDs: []string{e.user("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %+v %v", act, err)
	}
	pending := api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Limit: 10}
	for range 3 { // the later rounds come from the caches
		page, err := alice.ListActivities(ctx, pending)
		if err != nil || len(page) != 1 || page[0].ID != act.ID {
			t.Fatalf("pending: %+v %v", page, err)
		}
		got, err := alice.GetActivity(ctx, act.ID)
		if err != nil || got.Status != api.StatusConsensusNeeded || len(got.Votes) != 1 {
			t.Fatalf("get: %+v %v", got, err)
		}
	}
	if _, err := bob.ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if page, err := alice.ListActivities(ctx, pending); err != nil || len(page) != 0 {
		t.Fatalf("pending after the approval that settled it: %+v %v", page, err)
	}
	got, err := alice.GetActivity(ctx, act.ID)
	if err != nil || got.Status != api.StatusCompleted || len(got.Votes) != 2 {
		t.Fatalf("get after the approval: %+v %v", got, err)
	}
	if _, err := alice.GetActivity(ctx, "no-such-activity"); err == nil {
		t.Fatal("an unknown activity was found")
	}
}

// Large activities (a 400 kB interface, its request twice that) are listed
// but not kept in the list caches: a member could otherwise make the service
// hold two thousand of them, gigabytes, by submitting and listing them.
// Any activity over maxCachedActivityBytes is large to the caches, so this
// test's are a sixteenth of the largest: the race detector makes every byte
// costly.
func TestLargeActivitiesAreNotKeptInTheListCaches(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	big := interfaceOfSize(400_000 / 16)
	if 2*len(big) <= maxCachedActivityBytes { // escaped in the intent, and again in the request
		t.Fatalf("an interface of %d bytes is not large to the caches (%d bytes)", len(big), maxCachedActivityBytes)
	}
	for range 3 {
		if _, err := e.clients["operator"].CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{
			SmartContractAddress: "0xabc", SmartContractInterface: big, Type: api.SmartContractInterfaceEthereum, Label: "large"}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "ordinary", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		acts, err := e.clients["alice"].ListActivities(ctx, api.ListActivitiesOptions{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		large := 0
		for _, a := range acts {
			if in := a.Intent.CreateSmartContractInterfaceIntent; in != nil && in.SmartContractInterface == big {
				large++
			}
		}
		if large != 3 {
			t.Fatalf("the list holds %d of the 3 large activities (%d in all)", large, len(acts))
		}
	}
	c := e.srv.db.cache
	c.mu.RLock()
	defer c.mu.RUnlock()
	if len(c.rows) == 0 || len(c.encoded) == 0 {
		t.Fatalf("the caches are empty (%d rows, %d encodings): the ordinary activities should be kept", len(c.rows), len(c.encoded))
	}
	for seq, a := range c.rows {
		if a.stored > maxCachedActivityBytes {
			t.Errorf("row %d (%d bytes) is kept decoded", seq, a.stored)
		}
	}
	for k, b := range c.encoded {
		// An ordinary activity with its few votes is a few kilobytes; one
		// that repeats the interface is longer than it.
		if len(b) > len(big) {
			t.Errorf("encoding %s (%d bytes) is kept", k, len(b))
		}
	}
}

// A page of large activities ends before it passes maxListReplyBytes (the
// service would otherwise build, per request, a reply of up to 100 of them,
// 100 MB), and paging on from either end reaches every one, in order: a page
// of newer ones cut short keeps those next to its cursor. The page ends by
// comparing its size with the bound, so activities a fraction of the largest
// under a bound the same fraction of maxListReplyBytes (Config.MaxListReplyBytes)
// show the same at a fraction of the bytes.
func TestListPageOfLargeActivitiesEndsEarly(t *testing.T) {
	const scale = 32
	e := newEnvWith(t, envOptions{threshold: 2, maxListReplyBytes: maxListReplyBytes / scale})
	ctx := ctxT(t)
	big := interfaceOfSize(400_000 / scale)
	const n = 12
	for range n {
		if _, err := e.clients["operator"].CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{
			SmartContractAddress: "0xabc", SmartContractInterface: big, Type: api.SmartContractInterfaceEthereum, Label: "large"}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := e.clients["alice"].ListActivities(ctx, api.ListActivitiesOptions{Limit: 1}) // the newest
	if err != nil || len(all) != 1 {
		t.Fatal(all, err)
	}
	page := func(opts map[string]string) []api.Activity {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"organizationId": e.org.ID, "paginationOptions": opts})
		r := e.post("/public/v1/query/list_activities", body, e.keys["alice"])
		if r.status != 200 {
			t.Fatalf("list %v: HTTP %d %.200s", opts, r.status, r.body)
		}
		if len(r.body) > e.srv.listReplyBytes+64 {
			t.Fatalf("list %v: a reply of %d bytes, over %d", opts, len(r.body), e.srv.listReplyBytes)
		}
		var p api.ListActivitiesResponse
		if err := json.Unmarshal(r.body, &p); err != nil {
			t.Fatal(err)
		}
		return p.Activities
	}
	first := page(map[string]string{"limit": "100"})
	if len(first) == 0 || len(first) >= n {
		t.Fatalf("the first page holds %d activities; want fewer than the %d large ones", len(first), n)
	}
	var ids []string
	for p := first; len(p) > 0; p = page(map[string]string{"limit": "100", "after": p[len(p)-1].ID}) {
		for _, a := range p {
			ids = append(ids, a.ID)
		}
	}
	if len(ids) < n || ids[0] != all[0].ID {
		t.Fatalf("paging on reached %d activities, starting at %s; want at least %d from the newest %s", len(ids), ids[0], n, all[0].ID)
	}
	// Newer than the oldest large one: a page cut short is the one next to
	// the cursor, newest first.
	oldest := n - 1
	newer := page(map[string]string{"limit": "100", "before": ids[oldest]})
	if len(newer) == 0 || len(newer) >= oldest {
		t.Fatalf("the page before %s holds %d; want it cut short of %d", ids[oldest], len(newer), oldest)
	}
	for i, a := range newer {
		if want := ids[oldest-len(newer)+i]; a.ID != want {
			t.Fatalf("the page before the cursor, row %d: %s, want %s (the activities next to the cursor, newest first)", i, a.ID, want)
		}
	}
}

// An ordinary activity with many votes (each vote some 900 bytes encoded)
// stays in the cache of encodings: the cap is on the row's size, so a large
// quorum's pending activities are not encoded again at every poll.
func TestManyVotesDoNotKeepAnActivityOutOfTheCache(t *testing.T) {
	e := newEnv(t)
	c := e.srv.db.cache
	a := &activity{Seq: 1, ID: "act", Updated: time.Now(), stored: 2 << 10}
	votes := make([]api.Vote, 40)
	for i := range votes {
		votes[i] = api.Vote{ID: strings.Repeat("v", 36), UserID: strings.Repeat("u", 36), Message: strings.Repeat("m", 400)}
	}
	b, err := encodedActivity(c, e.srv.db.read, a, false, func() (api.Activity, error) { return api.Activity{ID: "act", Votes: votes}, nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(b) <= maxCachedActivityBytes {
		t.Fatalf("the encoding is %d bytes; the test needs it over %d", len(b), maxCachedActivityBytes)
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if _, ok := c.encoded[encodedKey(a, false)]; !ok {
		t.Errorf("an activity of a %d-byte row with %d votes (%d bytes encoded) is not kept", a.stored, len(votes), len(b))
	}
}

// largeInterface is a smart contract interface of 400,000 bytes, the most
// SPEC.md allows, of escaped quotes: twice that in every reply repeating it
// (servertest.LargeInterface, which these tests inside the package cannot use).
func largeInterface() string { return interfaceOfSize(400_000) }

// interfaceOfSize is largeInterface of about size bytes.
func interfaceOfSize(size int) string { return `["` + strings.Repeat(`\"`, (size-4)/2) + `"]` }
