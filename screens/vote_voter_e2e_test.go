package screens

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The organization could not be loaded at start (its whoami failed once, a
// blip): who the console signs in as is unknown. The service still offers
// bob the vote, and it counts; its reply shows bob's approval. The console
// reads who votes with the vote, and says it counted — never "not counted"
// because the activity "completed after bob's approval".
func TestVoteCountedWhileOrgNotLoadedIsToldAsCounted(t *testing.T) {
	d := servertest.StartDemo(t)
	act := proposeTag(t, d, "vote-noorg")
	var blip atomic.Bool
	blip.Store(true)
	rw := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/whoami" && blip.Load() {
			return []byte("not json")
		}
		return reply
	})
	reader := d.ClientAt(rw, "bob", api.WithExactStrings())
	sub := d.ClientAt(d.URL, "bob", api.WithExactStrings())
	h := newHarnessWith(t, reader, sub, theme.Options{Dark: true, NoColor: true}, 0)
	if h.root.common.Org.UserID != "" {
		t.Fatalf("set-up: the organization loaded")
	}
	h.selectActivityID(act.ID)
	h.key("a")        // the dialog's read of the organization fails too: it still is not loaded
	blip.Store(false) // over: whoami answers again
	h.key("y")
	got, err := d.Client("alice").GetActivity(context.Background(), act.ID)
	if err != nil || got.VoteOf(d.Info.Members[1].UserID) == nil {
		t.Fatalf("bob's vote did not count: %+v %v", got, err)
	}
	if h.toasted("not counted") || h.toasted("does not show your vote yet") || !h.toasted("approved") {
		t.Errorf("a counted vote (its reply shows it) is not told as counted:\n%s\nlog: %q", h.frame(), logged(h))
	}
}

// When who votes cannot be read at all, a vote that counted cannot be told
// as the voter's: the outcome is unknown (look at the activity), never "not
// counted" nor "not recorded yet, vote again".
func TestVoteWhileWhoamiFailsIsOutcomeUnknown(t *testing.T) {
	d := servertest.StartDemo(t)
	act := proposeTag(t, d, "vote-nowho")
	rw := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/whoami" {
			return []byte("not json")
		}
		return reply
	})
	bob := d.ClientAt(rw, "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("a")
	h.key("y")
	if h.toasted("not counted") || h.toasted("vote again") || !h.toasted("outcome unknown") {
		t.Errorf("a vote whose voter cannot be read is not told as of unknown outcome:\n%s\nlog: %q", h.frame(), logged(h))
	}
}

// A cache answers the console's whoami with alice's reply (the requester,
// whose approval is on the activity) and bob's vote with the activity as it
// was before it, without forwarding the vote. Alice's approval is not bob's
// vote: it must not be told as counted.
func TestStaleVoteWithWhoamiOfRequesterIsNotCounted(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	act := proposeTag(t, d, "vote-whoami-alice")
	alice := d.Client("alice")
	aliceWho, err := alice.QueryRaw(ctx, api.QueryWhoami, api.WhoamiRequest{OrganizationID: alice.OrganizationID()})
	if err != nil {
		t.Fatal(err)
	}
	before, err := alice.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: alice.OrganizationID(), ActivityID: act.ID})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := alice.GetActivity(ctx, act.ID); err != nil || a.VoteOf(d.Info.Members[0].UserID) == nil {
		t.Fatalf("set-up: want alice's approval on her request: %+v %v", a, err)
	}
	rw := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/whoami" {
			return aliceWho
		}
		return reply
	})
	cache := staleApproveCache(t, d, before)
	h := newHarnessWith(t, d.ClientAt(rw, "bob", api.WithExactStrings()), d.ClientAt(cache, "bob", api.WithExactStrings()), theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("a")
	h.key("y")
	if got, _ := alice.GetActivity(ctx, act.ID); got == nil || got.VoteOf(d.Info.Members[1].UserID) != nil {
		t.Fatalf("the cache forwarded the vote: %+v", got)
	}
	if h.toasted("approved") || !h.toasted("outcome unknown") {
		t.Errorf("a vote the service never saw is told as counted, or not as unknown:\n%s\nlog: %q", h.frame(), logged(h))
	}
	// r reads the activity again, but whoami still names alice: it can
	// never tell, so the notice must not send bob to it.
	if h.toasted("check with r") {
		t.Errorf("bob is told to check with r, which cannot settle this doubt:\nlog: %q", logged(h))
	}
}
