package screens

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// proposeTag opens a create_user_tag activity as alice, pending votes.
func proposeTag(t *testing.T, d *servertest.Demo, name string) *api.Activity {
	t.Helper()
	act, err := d.Client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: name, UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose %s: %+v %v", name, act, err)
	}
	return act
}

// A proxy that rewrites activity A's fingerprint to that of B, another
// pending activity, in what the console reads gets bob's signed approval of
// B when he approves A. The console cannot recompute a fingerprint (it is
// over the exact request body), so the reply, about B, must be said loudly
// to be about another activity, with B's own intent, never as A counted.
// B's own fingerprint is hidden too: a list showing it on both rows is
// refused before any vote (TestRecordSwapAcrossActivityIDs).
func TestEndToEndVoteReplyAboutAnotherActivityIsSaidLoudly(t *testing.T) {
	d := servertest.StartDemo(t)
	a := proposeTag(t, d, "vote-harmless")
	b := proposeTag(t, d, "vote-other")
	swap := strings.NewReplacer(a.Fingerprint, b.Fingerprint, b.Fingerprint, "sha256:"+strings.Repeat("0", 64))
	rw := d.Rewriting(func(op string, request, reply []byte) []byte {
		if strings.HasPrefix(op, "query/") {
			return []byte(swap.Replace(string(reply)))
		}
		return reply
	})
	bob := d.ClientAt(rw, "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(a.ID)
	h.key("a")
	h.key("y")
	for _, want := range []string{"ANOTHER activity", b.ID, `"vote-other"`} {
		if !h.toasted(want) {
			t.Errorf("no toast says %q:\n%s", want, h.frame())
		}
	}
	if h.toasted("approved") || h.toasted("vote-harmless") {
		t.Errorf("the reply about %s is told as the approval of %s:\n%s", b.ID, a.ID, h.frame())
	}
	if got := strings.Join(logged(h), "\n"); !strings.Contains(got, "ANOTHER activity") || !strings.Contains(got, b.ID) {
		t.Errorf("the messages view does not keep the warning: %q", got)
	}
}

// A vote answered 200 with the activity as it stood before the vote (a
// cache that never forwarded it) is not told as counted: the activity is
// read again, and as it does not show the vote, "not recorded yet".
func TestEndToEndVoteReplyWithoutMyVoteIsNotCounted(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	act := proposeTag(t, d, "vote-stale")
	alice := d.Client("alice")
	before, err := alice.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: alice.OrganizationID(), ActivityID: act.ID})
	if err != nil {
		t.Fatal(err)
	}
	cache := staleApproveCache(t, d, before)
	h := newHarnessWith(t, d.ClientAt(d.URL, "bob", api.WithExactStrings()), d.ClientAt(cache, "bob", api.WithExactStrings()), theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("a")
	h.key("y")
	if h.toasted("approved") {
		t.Errorf("a vote the service never saw is told as counted:\n%s", h.frame())
	}
	if !h.toasted("does not show your vote yet: it may still arrive") {
		t.Errorf("the console does not say the vote is not recorded yet:\n%s", h.frame())
	}
	if got, _ := alice.GetActivity(ctx, act.ID); got == nil || len(got.Votes) != 1 {
		t.Fatalf("the cache forwarded the vote: %+v", got)
	}
}

// staleApproveCache is a cache in front of d that answers every approval
// with before (the activity as read before the vote) without forwarding it,
// and passes everything else on; it returns its URL.
func staleApproveCache(t *testing.T, d *servertest.Demo, before []byte) string {
	target, _ := url.Parse(d.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	cache := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/public/v1/submit/approve_activity" {
			w.Header().Set("Content-Type", "application/json")
			w.Write(before)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(cache.Close)
	return cache.URL
}
