package screens

import (
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// One ↓ or ↑ in the record of a user with 1,000 API keys and 100 passkeys on
// the real local service, then the whole 160×48 frame. The cost should be
// that of the keys drawn, not of every key the user has.
//
//	go test -run '^$' -bench UsersDetailScroll -benchmem -benchtime 20x ./screens/
func BenchmarkUsersDetailScroll(b *testing.B) {
	d := servertest.StartDemo(b)
	d.AddUserWithKeys("many-keys", 1000, 100)
	h := demoHarness(b, d, nil)
	u := h.openUser("many-keys")
	if len(u.open.APIKeys) != 1000 {
		b.Fatalf("the record shows %d API keys, not 1000", len(u.open.APIKeys))
	}
	i := 0
	for b.Loop() {
		// Down 50 keys and up again, so that each press moves the window.
		k := "down"
		if i/50%2 == 1 {
			k = "up"
		}
		i++
		h.key(k)
		_ = h.root.Render()
	}
}
