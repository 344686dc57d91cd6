package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A 404 whose body reads two ways may be about the URL as well as the app:
// the console shows the error but does not say the app's name is wrong
// (where to fix it in the profile), as it does for the service's plain
// "no boot proof for this app".
func TestBootProofTwoWays404IsNotCalledMissing(t *testing.T) {
	d := servertest.StartDemo(t)
	for _, tc := range []struct {
		name     string
		twoWays  bool
		wantName bool
	}{{"plain 404", false, true}, {"two-ways 404", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			url := d.Rewriting(func(op string, request, reply []byte) []byte {
				if tc.twoWays && strings.HasPrefix(op, "query/") && strings.Contains(op, "boot_proof") {
					return []byte(`{"code":5,"message":"m","details":[{"errorCode":"X"}],"DETAILS":[{"errorCode":"Y"}]}`)
				}
				return reply
			})
			c := d.ClientAt(url, "alice")
			r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
				Now: func() time.Time { return testNow }, Static: true,
				Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
				Proofs: ProofSettings{Apps: []string{"no-such-app"}}})
			h := &harness{t: t, root: r}
			h.send(tea.WindowSizeMsg{Width: 200, Height: 40})
			h.run(r.Init())
			h.key("2")
			out := h.plain()
			if !strings.Contains(out, "cannot verify") || tc.twoWays != strings.Contains(out, "read two ways") {
				t.Fatalf("set-up: want the fetch's error shown:\n%s", out)
			}
			if got := strings.Contains(out, "that is where to fix its name"); got != tc.wantName {
				t.Errorf("says the app's name is to fix: %v, want %v:\n%s", got, tc.wantName, out)
			}
		})
	}
}
