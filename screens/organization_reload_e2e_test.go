package screens

import (
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// r on the Organization screen while an older load is in flight: the older
// reply is not the one r asked for, so the screen stays "loading" until r's
// own reply lands. Against the local service.
func TestOrganizationRefreshStaysLoadingUntilItsOwnLoadLands(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.key("@Organization")
	org := func() ScreenStatus { return h.root.screens[h.root.active].Status() }
	if _, ok := h.root.screens[h.root.active].(*Organization); !ok {
		t.Fatalf("not on the Organization screen:\n%s", h.frame())
	}
	_, older := h.root.Update(reloadOrgMsg{}) // a load in flight (a completed activity's reload)
	_, refresh := h.root.Update(keyPress("r"))
	if org().Busy == "" {
		t.Fatalf("r does not say the organization is loading:\n%s", h.frame())
	}
	h.run(older)
	if org().Busy == "" {
		t.Errorf("the older load's reply ended the loading r started, before r's own reply:\n%s", h.frame())
	}
	h.run(refresh)
	if b := org().Busy; b != "" {
		t.Errorf("after r's own reply the screen still says %q:\n%s", b, h.frame())
	}
}
