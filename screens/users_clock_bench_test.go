package screens

import (
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// One clock tick (every 5 s) on a console whose Users screen has loaded an
// organization of 5,000 users, seen from Activities: a tick should cost what
// the screen on show needs, not a rebuild of the hidden Users screen.
//
//	go test -run '^$' -bench UsersClockTick -benchmem -benchtime 20x ./screens/
func BenchmarkUsersClockTick(b *testing.B) {
	const n = 5000
	d := servertest.StartDemo(b)
	d.AddOrdinaryUsers(n)
	h := demoHarnessWithin(b, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps}, largeOrgCommands)
	h.gotoScreen("Users")
	if got := len(h.root.common.Org.Users); got < n {
		b.Fatalf("the organization holds %d users, not %d", got, n)
	}
	h.gotoScreen("Activities")
	for b.Loop() {
		h.send(clockMsg{})
		_ = h.root.Render()
	}
}
