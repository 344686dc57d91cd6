package screens

import (
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

func mfaLoads(h *harness) int {
	n := 0
	for _, m := range h.msgs {
		if _, ok := m.(mfaLoadedMsg); ok {
			n++
		}
	}
	return n
}

// With an MFA policy open, r (shown enabled in the full help) reads the
// policies again, as on the list.
func TestMfaRefreshActsWithAPolicyOpen(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.key("@MFA policies")
	h.key("enter")
	m := h.mfa()
	if !m.list.IsOpen() {
		t.Fatal("no MFA policy open")
	}
	if !m.keys.Refresh.Enabled() {
		t.Fatal("r is not shown enabled with a policy open")
	}
	n := mfaLoads(h)
	h.key("r")
	if mfaLoads(h) == n {
		t.Error("r with an MFA policy open read nothing")
	}
	if !m.list.IsOpen() {
		t.Error("r closed the open policy")
	}
}
