package screens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// The help names the screen numbers there are (1-7 of 7 screens), and a
// number past the last screen says there is none rather than doing nothing;
// no action may take any of 1-9.
func TestScreenNumbersFollowTheScreens(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	n := len(h.root.screens)
	want := fmt.Sprintf("1-%d go to screen", n)
	if !strings.Contains(h.frame(), want) {
		t.Errorf("the help does not say %q:\n%s", want, h.frame())
	}
	for i := n + 1; i <= 9; i++ {
		k := fmt.Sprint(i)
		msgs := len(h.msgs)
		h.key(k)
		if len(h.msgs) == msgs || !strings.Contains(h.frame(), "there is no screen "+k) {
			t.Errorf("%s (of %d screens) said nothing:\n%s", k, n, h.frame())
		}
		if h.root.active != 0 {
			t.Errorf("%s went to screen %d", k, h.root.active+1)
		}
	}
	h.key(fmt.Sprint(n))
	if h.root.active != n-1 {
		t.Errorf("%d did not go to the last screen", n)
	}
	for _, k := range []string{"8", "9"} {
		if err := CheckKeys(map[string][]string{"activities.refresh": {k}}); err == nil {
			t.Errorf("activities.refresh = [%q] accepted: 1-9 are kept for screen numbers", k)
		}
	}
}
