package screens

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// whoamiFails is fakeClient whose whoami fails while fail is set: an
// organization load started then fails whole.
type whoamiFails struct {
	*fakeClient
	fail atomic.Bool
}

func (w *whoamiFails) Whoami(ctx context.Context) (*api.WhoamiResponse, error) {
	if w.fail.Load() {
		return nil, errors.New("whoami: the service is down")
	}
	return w.fakeClient.Whoami(ctx)
}

// pressRefresh presses r on the Organization screen and returns the reply
// of the load it starts, undelivered.
func pressRefresh(t *testing.T, h *harness) orgLoadedMsg {
	t.Helper()
	_, cmd := h.root.Update(keyPress("r"))
	for _, m := range collect(cmd) {
		if _, ok := m.(reloadOrgMsg); ok {
			_, load := h.root.Update(m)
			return loadedOrg(t, load)
		}
	}
	t.Fatal("set-up: r did not ask for a load")
	return orgLoadedMsg{}
}

// Two r in a row on the Organization screen: the second load fails, and
// lands first; the first, older, succeeds and lands last. What the screen
// says is the newer load's failure: the older reply read before it and
// must not clear it (nor may an older failure replace a newer one's text).
func TestOrganizationOlderReplyDoesNotSetTheErrorOfANewerOne(t *testing.T) {
	w := &whoamiFails{fakeClient: &fakeClient{activities: sampleActivities()}}
	h := newHarnessWith(t, w, w.fakeClient, theme.Options{Dark: true, NoColor: true}, 0)
	h.key("@Organization")
	older := pressRefresh(t, h)
	w.fail.Store(true)
	newer := pressRefresh(t, h)
	if older.err != nil || newer.err == nil {
		t.Fatalf("set-up: the older load failed (%v) or the newer did not", older.err)
	}

	h.send(newer)
	want := h.organization().Status().Err
	if !strings.Contains(want, "service is down") {
		t.Fatalf("set-up: the newer load's failure is not said: %q", want)
	}
	h.send(older)
	if got := h.organization().Status().Err; got != want {
		t.Errorf("an older organization reply, landing last, changed the screen's error from %q to %q", want, got)
	}
	if !h.organization().Status().Stale {
		t.Errorf("after the newest load failed the organization is not marked stale")
	}
}
