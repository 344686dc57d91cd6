package screens

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A member who may create nothing can still fill the history with refused
// activities of 400 kB interfaces; a page of 100 of them may not fit in what
// the client reads, so it lists fewer. The All view must still page through the
// whole history: a short page is not taken for the last one.
func TestEndToEndAllViewPagesPastLargeActivities(t *testing.T) {
	// A page cut short looks the same to the view whichever bound cut it, and
	// a bound is met by comparing sizes: a service whose list replies stop at
	// a 32nd of the 4 MiB the client reads at least, with interfaces a 32nd
	// of the largest, cuts pages as that client would, at a 32nd of the
	// bytes (the client's own halving is api's TestWalkActivitiesSaysWhenItStoppedShort).
	const scale = 32
	d := servertest.StartDemoWith(t, server.Config{MaxListReplyBytes: api.MinReplyBytes / scale})
	const n = 8
	d.SubmitInterfaces(n, servertest.InterfaceOfSize(servertest.LargeInterfaceBytes/scale), "operator")
	// Eight such activities show here what twenty-two would at the default
	// 16 MiB.
	alice := d.ClientAt(d.URL, "alice", api.WithMaxReplyBytes(api.MinReplyBytes))
	h := newSlowHarness(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0, time.Minute)
	h.key("v") // the All view
	a := h.activities()
	if a.err != "" || len(a.items) == 0 || len(a.items) >= n {
		t.Fatalf("the All view's first page: %d rows, error %q; want a page shorter than %d", len(a.items), a.err, n)
	}
	seen, large := map[string]bool{}, 0
	for pages := 0; ; pages++ {
		for _, it := range a.items {
			if !seen[it.ID] && it.Intent.CreateSmartContractInterfaceIntent != nil && it.Intent.CreateSmartContractInterfaceIntent.Label == "large" {
				large++
			}
			seen[it.ID] = true
		}
		if !a.keys.NextPage.Enabled() || pages > 100 {
			break
		}
		h.key("]")
		if a.err != "" {
			t.Fatalf("paging on after %d activities: %s", len(seen), a.err)
		}
	}
	if large != n {
		t.Errorf("the All view reached %d of the %d large activities (%d activities in all)", large, n, len(seen))
	}
	h.key("]")
	if !h.toasted("no older page: this is the oldest") {
		t.Errorf("] on the oldest page does not say so:\n%s", h.frame())
	}
}
