package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A service that never answers the activity list: the console's list command
// ends at its deadline and the Activities screen says so, with what to do.
// The harness must let the command reach that answer: a wait that ends with
// the console's own deadline takes every request slow enough to time out
// (a loaded CI machine) for a command that blocks, and its panic ended the
// whole test binary.
func TestEndToEndUnansweredListSaysNotInTime(t *testing.T) {
	d := servertest.StartDemo(t)
	release := make(chan struct{})
	url := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/list_activities" {
			<-release // until the test ends: the client gives up first
		}
		return reply
	})
	t.Cleanup(func() { close(release) }) // before the proxy closes (cleanups run last first)
	c := d.ClientAt(url, "alice")
	// The harness waits as long as the console's calls may take; a short
	// deadline keeps the test quick.
	const deadline = 200 * time.Millisecond
	h := newSlowHarness(t, c, c, theme.Options{Dark: true, NoColor: true}, 0, deadline)
	a := h.activities()
	if !strings.Contains(a.err, "did not answer in time") {
		t.Fatalf("the Activities screen's error with a service that never answers: %q; want the console's timeout", a.err)
	}
	if frame := h.plainFrame(); !strings.Contains(frame, "press r to retry") {
		t.Errorf("the Activities screen does not say what to do about the timeout:\n%s", frame)
	}
}
