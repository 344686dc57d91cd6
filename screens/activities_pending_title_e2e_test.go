package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// probesCut is the real client with pages shorter than asked (shortPages),
// whose looks for one more activity (the console's probes for older ones)
// go through a network that can be cut.
type probesCut struct {
	shortPages
	probes *api.Client
}

func (p probesCut) ListActivities(ctx context.Context, o api.ListActivitiesOptions) ([]api.Activity, error) {
	if o.Limit == 1 {
		return p.probes.ListActivities(ctx, o)
	}
	return p.shortPages.ListActivities(ctx, o)
}

// titleLine is the Activities screen's title, as on the terminal.
func titleLine(h *harness) string {
	return strings.SplitN(ansi.Strip(h.activities().View()), "\n", 2)[0]
}

// rowsByStatus counts the rows of the Pending view still pending, and the
// others (settled, kept under the cursor), by the statuses the service gave.
func rowsByStatus(a *Activities) (pending, other int) {
	for _, it := range a.items {
		if it.Status == api.StatusConsensusNeeded {
			pending++
		} else {
			other++
		}
	}
	return pending, other
}

// After an activity settles elsewhere, its row stays on the short page with
// its final status; the title counts the pending ones as pending, not every
// row, so a voter does not take a settled row for one still waiting.
func TestEndToEndPendingTitleCountsPendingApartFromSettled(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, 4)
	alice := shortPages{d.Client("alice"), 4}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	a := h.activities()
	if !a.older {
		t.Fatalf("the short first page does not say older pending follow:\n%s", h.plainFrame())
	}
	target := bobsActivity(t, a, 0)
	settleElsewhere(t, d, target)
	h.send(activitiesTickMsg{gen: a.autoGen})
	pending, settled := rowsByStatus(a)
	if settled == 0 {
		t.Fatalf("the settled activity %s is not kept on the page: %d rows", target.ID, len(a.items))
	}
	title := titleLine(h)
	want := fmt.Sprintf("%d pending, %d settled", pending, settled)
	if !strings.Contains(title, want) || !strings.Contains(title, "older pending follow") {
		t.Errorf("the title does not say %q and that older pending follow (%d rows):\n%s", want, len(a.items), title)
	}
}

// A failed look for older activities is not "none follow": the title says
// whether older pending ones follow is unknown and why, ] still pages on, and
// the next refresh looks again.
func TestEndToEndPendingTitleSaysOlderUnknownWhenProbeFails(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, 4)
	n := newCutNetwork(t, d.URL)
	n.down.Store(true)
	alice := probesCut{shortPages{d.Client("alice"), 4}, d.ClientAt(n.URL, "alice")}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	a := h.activities()
	if a.err != "" || len(a.items) == 0 {
		t.Fatalf("the first page: %d rows, error %q", len(a.items), a.err)
	}
	title := titleLine(h)
	if !strings.Contains(title, "older pending: unknown (probe failed: ") {
		t.Errorf("a failed probe for older activities is not said in the title:\n%s", title)
	}
	if !a.keys.NextPage.Enabled() {
		t.Error("] is disabled although older pending activities may follow")
	}
	first := map[string]bool{}
	for _, it := range a.items {
		first[it.ID] = true
	}

	n.down.Store(false)
	h.send(activitiesTickMsg{gen: a.autoGen})
	if title := titleLine(h); !strings.Contains(title, "older pending follow") || strings.Contains(title, "unknown") {
		t.Errorf("the next refresh, with the network back, does not say older pending follow:\n%s", title)
	}

	n.down.Store(true)
	h.key("r")
	h.key("]")
	older := 0
	for _, it := range a.items {
		if !first[it.ID] && it.Status == api.StatusConsensusNeeded {
			older++
		}
	}
	if !a.paged() || older == 0 {
		t.Errorf("] after a failed probe: paged %v, %d older pending rows:\n%s", a.paged(), older, h.plainFrame())
	}
}

// At 80 columns an older page of Pending says, whole, how many pending
// activities it shows, that older ones follow and that it is an older page.
func TestEndToEndPagedPendingTitleFits80Columns(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, 6)
	alice := shortPages{d.Client("alice"), 4}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 30})
	h.key("]")
	a := h.activities()
	if !a.paged() || !a.older {
		t.Fatalf("the second page of 4: paged %v, older follow %v", a.paged(), a.older)
	}
	pending, _ := rowsByStatus(a)
	title := titleLine(h)
	for _, want := range []string{fmt.Sprintf("%d pending", pending), "older pending follow", "older page", "[ back"} {
		if !strings.Contains(title, want) {
			t.Errorf("at 80 columns the paged title lacks %q:\n%s", want, title)
		}
	}
	if strings.Contains(title, "…") || ansi.StringWidth(title) > 80 {
		t.Errorf("at 80 columns the paged title is cut:\n%s", title)
	}
}
