package ui

import (
	"strings"
	"testing"
)

// Values that differ only by the spaces at a break draw differently at
// every width: none (a word broken inside, ↩), one, two, and a value that
// holds the mark itself (it is shown escaped, not as a mark).
func TestWrapShowsWhatABreakHides(t *testing.T) {
	a := strings.Repeat("A", 64)
	values := []string{
		"wallet.id == '" + a + "B'",
		"wallet.id == '" + a + " B'",
		"wallet.id == '" + a + "  B'",
		"wallet.id == '" + a + "↩ B'",
		"wallet.id == '" + a + ",B'",
		"wallet.id == '" + a + strings.Repeat(" ", 150) + "B'",
		"wallet.id == '" + a + ", B'",
	}
	for width := 8; width <= 80; width++ {
		drawn := map[string]string{}
		for _, v := range values {
			out := wrapLine(v, width)
			checkWrapped(t, v, width, out)
			if other, ok := drawn[out]; ok {
				t.Fatalf("at %d columns %q and %q draw the same:\n%s", width, other, v, out)
			}
			drawn[out] = v
		}
	}
}

// Prose breaks at single spaces without a mark.
func TestWrapLeavesProseUnmarked(t *testing.T) {
	prose := "if you approve: it is allowed and runs now (allowed by root quorum (\"bob\", \"alice\"))"
	for width := 20; width <= 80; width++ {
		if out := wrapLine(prose, width); strings.ContainsAny(out, "↩␣") {
			t.Errorf("at %d columns prose is marked:\n%s", width, out)
		}
	}
}
