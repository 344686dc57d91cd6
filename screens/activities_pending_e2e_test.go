package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Large pending activities make the Pending view's page shorter than asked.
// The older pending ones (here the five the demo seeds) must not vanish: the
// heading says that more pending follow, and ] reaches every one of them, where
// a voter can vote.
func TestEndToEndPendingViewSaysOlderPendingFollowAndPagesToThem(t *testing.T) {
	// A page cut short looks the same to the view whichever bound cut it:
	// a service whose list replies stop at a 32nd of the 4 MiB the client
	// reads at least, with interfaces a 32nd of the largest, cuts pages as
	// that client would, at a 32nd of the bytes.
	const scale = 32
	d := servertest.StartDemoWith(t, server.Config{MaxListReplyBytes: api.MinReplyBytes / scale})
	ctx := context.Background()
	alice := d.Client("alice")
	pendingOnly := api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Limit: pageSize}
	seeded, err := alice.ListActivities(ctx, pendingOnly)
	if err != nil || len(seeded) == 0 {
		t.Fatalf("the demo's pending activities: %d, %v", len(seeded), err)
	}
	const n = 6
	for i, act := range d.SubmitInterfaces(n, servertest.InterfaceOfSize(servertest.LargeInterfaceBytes/scale), "bob", "carol") {
		if act.Status != api.StatusConsensusNeeded { // a root member's interface waits for the quorum
			t.Fatalf("large interface %d is %s; want it pending", i, act.Status)
		}
	}
	// Every pending activity, paged with the default client.
	want := map[string]bool{}
	for o := pendingOnly; ; {
		page, err := alice.ListActivities(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, it := range page {
			want[it.ID] = true
		}
		o.After = page[len(page)-1].ID
	}
	if len(want) != len(seeded)+n {
		t.Fatalf("%d pending activities, want %d", len(want), len(seeded)+n)
	}

	// A client that reads at most 4 MiB (the least it may), under the
	// service's bound scaled as above: six such activities do here what about
	// twenty-two would at the default 16 MiB.
	small := d.ClientAt(d.URL, "alice", api.WithMaxReplyBytes(api.MinReplyBytes))
	h := newSlowHarness(t, small, small, theme.Options{Dark: true, NoColor: true}, 0, time.Minute)
	a := h.activities()
	if a.err != "" || len(a.items) == 0 || len(a.items) >= len(want) {
		t.Fatalf("the Pending view's first page: %d rows, error %q; want a page shorter than %d", len(a.items), a.err, len(want))
	}
	if frame := h.plainFrame(); !strings.Contains(frame, "older pending follow: ] pages on") {
		t.Errorf("the Pending view does not say that older pending activities follow its %d rows:\n%s", len(a.items), frame)
	}
	seen := map[string]bool{}
	votable := 0
	for pages := 0; ; pages++ {
		for _, it := range a.items {
			if it.Status != api.StatusConsensusNeeded {
				t.Errorf("the Pending view lists %s, %s", it.ID, it.Status)
			}
			if !seen[it.ID] && it.CanApprove {
				votable++
			}
			seen[it.ID] = true
		}
		if !a.keys.NextPage.Enabled() || pages > 50 {
			break
		}
		h.key("]")
		if a.err != "" {
			t.Fatalf("paging on after %d pending activities: %s", len(seen), a.err)
		}
		if frame := h.plainFrame(); !strings.Contains(frame, "older page") {
			t.Errorf("a later page of the Pending view does not say so:\n%s", frame)
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("pending activity %s never shown in the Pending view (%d of %d reached)", id, len(seen), len(want))
		}
	}
	if votable == 0 {
		t.Error("alice could vote on none of the pending activities reached")
	}
	if frame := h.plainFrame(); strings.Contains(frame, "older pending follow") {
		t.Errorf("the last page still says older pending follow:\n%s", frame)
	}
	h.key("]")
	if !h.toasted("no older pending activities") {
		t.Errorf("] on the oldest pending page does not say so:\n%s", h.frame())
	}
	for range 50 {
		if !a.keys.PrevPage.Enabled() {
			break
		}
		h.key("[")
	}
	if a.before != "" || a.after != "" || !strings.Contains(h.plainFrame(), "older pending follow") {
		t.Errorf("[ does not lead back to the newest pending page, which says older ones follow:\n%s", h.plainFrame())
	}
}

// shortPages is the real client with pages shorter than asked, which
// api.ListActivities may return although older activities follow.
type shortPages struct {
	*api.Client
	most int
}

func (s shortPages) ListActivities(ctx context.Context, o api.ListActivitiesOptions) ([]api.Activity, error) {
	o.Limit = min(o.Limit, s.most)
	return s.Client.ListActivities(ctx, o)
}

// Tag names are read past a short page of create_user_tag activities: only
// an empty page ends them.
func TestEndToEndTagNamesReadPastAShortPage(t *testing.T) {
	d := servertest.StartDemo(t)
	names := []string{"first-tag", "second-tag", "third-tag"}
	ids := map[string]string{}
	for _, name := range names {
		ids[name] = userTag(t, d, name).Result.CreateUserTagResult.UserTagID
	}
	got, err := tagNames(context.Background(), shortPages{d.Client("alice"), 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if got[ids[name]] != name {
			t.Errorf("tag %s (%s) is named %q; read %v", name, ids[name], got[ids[name]], got)
		}
	}
}
