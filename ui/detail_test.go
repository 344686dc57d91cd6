package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// ShowLine brings a raw line into view, counting the lines wrapping added above
// it, and scrolls no more than needed.
func TestDetailShowLineCountsWrappedLines(t *testing.T) {
	th := theme.New(theme.Options{NoColor: true})
	b := NewDetailBuilder(th)
	var target int
	for i := range 40 {
		if i == 30 {
			target = b.NextLine()
			b.Line("TARGET")
			continue
		}
		// Every other line is three screen lines wide at width 20.
		if i%2 == 0 {
			b.Line(strings.Repeat("x", 50))
		} else {
			b.Line("short")
		}
	}
	if target != 30 {
		t.Fatalf("NextLine = %d, want 30", target)
	}
	d := NewDetail(th)
	d.SetSize(20, 5)
	d.SetContent(b.String())
	if strings.Contains(d.View(), "TARGET") {
		t.Fatal("target visible before scrolling")
	}
	d.ShowLine(target)
	lines := strings.Split(ansi.Strip(d.View()), "\n")
	if strings.TrimSpace(lines[len(lines)-1]) != "TARGET" {
		t.Errorf("target should be the last visible line after scrolling down:\n%s", d.View())
	}
	// Already visible: no scroll.
	before := d.View()
	d.ShowLine(target - 1)
	if d.View() != before {
		t.Error("scrolled for a line already visible")
	}
	// Above the view: it becomes the first line.
	d.ShowLine(1)
	if first := strings.Split(ansi.Strip(d.View()), "\n")[0]; strings.TrimSpace(first) != "short" {
		t.Errorf("line 1 should be at the top, got %q", first)
	}
	// Out of range does nothing.
	d.ShowLine(-1)
	d.ShowLine(1000)
}
