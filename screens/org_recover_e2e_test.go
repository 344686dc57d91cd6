package screens

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// cutNetwork is a network between the console and the real local service
// that can be cut (every connection is dropped) and restored.
type cutNetwork struct {
	URL  string
	down atomic.Bool
}

func newCutNetwork(t *testing.T, target string) *cutNetwork {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	n := &cutNetwork{}
	rp := httputil.NewSingleHostReverseProxy(u)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.down.Load() {
			hj, ok := w.(http.Hijacker)
			if !ok {
				t.Error("no hijacker")
				return
			}
			conn, _, _ := hj.Hijack()
			conn.Close()
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	n.URL = ts.URL
	return n
}

// The member opens the console while the network is down (or the service
// restarts). The network comes back and the Activities list refreshes by
// itself: the console recovers whole — who the member is, the root
// quorum's threshold (VOTES), and no stale "✗ whoami" error in the status bar.
func TestOrganizationReloadsWhenServiceComesBack(t *testing.T) {
	d := servertest.StartDemo(t)
	n := newCutNetwork(t, d.URL)
	n.down.Store(true)
	alice := d.ClientAt(n.URL, "alice")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	if h.root.common.Org.Loaded {
		t.Fatal("the organization loaded through a cut network")
	}
	n.down.Store(false)
	// An auto-refresh with the service answering.
	a := h.activities()
	h.send(activitiesTickMsg{gen: a.autoGen})
	if a.err != "" || len(a.items) == 0 {
		t.Fatalf("the list did not recover: err %q, %d rows", a.err, len(a.items))
	}
	frame := h.plainFrame()
	if !h.root.common.Org.Loaded {
		t.Errorf("the service answers again and the list refreshed, but the organization (who you are, the quorum, the policies) is never loaded again")
	}
	if strings.Contains(frame, "whoami") {
		t.Errorf("the status bar still shows the start's whoami failure although the service answers:\n%s", frame)
	}
	if strings.Contains(frame, "/?") {
		t.Errorf("VOTES still reads n/? (quorum threshold unknown) after the service came back:\n%s", frame)
	}
}

// Without auto-refresh, r on Activities loads the organization again when
// its load at start failed.
func TestOrganizationReloadsOnActivitiesRefreshKey(t *testing.T) {
	d := servertest.StartDemo(t)
	n := newCutNetwork(t, d.URL)
	n.down.Store(true)
	alice := d.ClientAt(n.URL, "alice")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	if h.root.common.Org.Loaded || h.root.orgErr == "" {
		t.Fatalf("the organization loaded through a cut network (error %q)", h.root.orgErr)
	}
	n.down.Store(false)
	h.key("r")
	if !h.root.common.Org.Loaded || h.root.orgErr != "" {
		t.Errorf("r on Activities with the service answering: organization loaded %v, error %q:\n%s", h.root.common.Org.Loaded, h.root.orgErr, h.plainFrame())
	}
}
