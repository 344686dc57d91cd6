package screens

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// A proof that verified with no pins set says so on the report's verdict line
// as the list and the heading do, in the same warning badge: not the plain
// green VERIFIED of a pinned proof.
func TestBootReportVerdictOfUnpinnedProofSaysNoPins(t *testing.T) {
	h := newProofHarnessTheme(t, proofFake(t), theme.Options{Dark: true}, "signer")
	h.key("enter")
	th := h.root.common.Theme
	var heading, verdict string
	for _, l := range strings.Split(h.root.Render(), "\n") {
		plain := ansi.Strip(l)
		switch {
		case strings.Contains(plain, "Boot proof signer"):
			heading = l
		case strings.Contains(plain, "every core check passed"):
			verdict = l
		}
	}
	if verdict == "" || heading == "" {
		t.Fatalf("no verdict line or heading in the report:\n%s", ansi.Strip(h.root.Render()))
	}
	if !strings.Contains(ansi.Strip(verdict), "no pins") || strings.Contains(verdict, th.Good.Render("VERIFIED")) {
		t.Errorf("the unpinned proof's verdict line reads as a pinned one: %q", verdict)
	}
	// The badge as styled: its escape sequences, its text, and the reset.
	styled := func(line string) string {
		plain := "VERIFIED (no pins)"
		i := strings.Index(line, plain)
		if i < 0 {
			return ""
		}
		start, end := strings.LastIndex(line[:i], "\x1b["), i+len(plain)
		if j := strings.Index(line[end:], "\x1b["); j >= 0 {
			end += j
		}
		return line[max(start, 0):end]
	}
	if b := styled(verdict); b == "" || !strings.Contains(heading, b) {
		t.Errorf("the verdict line's badge is not the heading's:\nheading %q\nverdict %q", heading, verdict)
	}
}
