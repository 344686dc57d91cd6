package cli

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// reverseVideo matches an SGR sequence that turns reverse video on (7 among
// its parameters, not 27): how the selected row and the active tab show
// without colour.
var reverseVideo = regexp.MustCompile(`\x1b\[(?:\d+;)*7(?:;\d+)*m`)

// On a terminal that shows no colour (TERM=dumb, a monochrome terminfo entry)
// the selected row, the active tab and a dialog's focused button must still
// be told apart: the console draws as under NO_COLOR, in reverse video and
// bold, and keeps those even where every style would be stripped (dumb).
// Before, a dumb terminal got no style at all and a mono one a background
// colour it cannot show: the member saw no row selected before pressing a.
func TestConsoleWithoutColourTerminalKeepsSelectionVisible(t *testing.T) {
	for _, termName := range []string{"dumb", "xterm-mono"} {
		t.Run(termName, func(t *testing.T) {
			inR, inW := io.Pipe()
			var out, errOut syncBuffer
			c := proc{stdin: inR, stdout: &out, stderr: &errOut, getenv: func(k string) string {
				if k == "TERM" {
					return termName
				}
				return ""
			}}
			done := make(chan int, 1)
			go func() { done <- run(context.Background(), c, []string{"demo", "--data", t.TempDir(), "--as", "bob"}) }()
			deadline := time.After(20 * time.Second)
			for !strings.Contains(ansi.Strip(out.String()), "set feature") {
				select {
				case code := <-done:
					t.Fatalf("demo exited early with %d: %s", code, errOut.String())
				case <-deadline:
					t.Fatalf("no activities on screen after 20s:\n%s", ansi.Strip(out.String()))
				case <-time.After(20 * time.Millisecond):
				}
			}
			if !reverseVideo.MatchString(out.String()) {
				t.Errorf("TERM=%s: nothing drawn in reverse video, so the selected row and the active tab look like the others:\n%q", termName, out.String())
			}
			inW.Write([]byte("q"))
			select {
			case code := <-done:
				if code != 0 {
					t.Errorf("exit %d after q: %s", code, errOut.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("q did not quit the demo")
			}
		})
	}
	// A colour terminal keeps its colours.
	for _, termName := range []string{"xterm-256color", "xterm", "screen"} {
		if colourless(func(k string) string {
			if k == "TERM" {
				return termName
			}
			return ""
		}) {
			t.Errorf("TERM=%s taken for a terminal without colour", termName)
		}
	}
}
