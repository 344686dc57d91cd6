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

// A reader at the end of a record stays at the end when the record is
// refreshed with more lines above (a vote added a line, a result): the lines
// they were reading stay in view. Anywhere else the offset is kept, and a
// record opened at the top stays at the top as it loads.
func TestDetailRefreshKeepsTheEndInView(t *testing.T) {
	th := theme.New(theme.Options{NoColor: true})
	content := func(above int) string {
		var lines []string
		for i := range above {
			lines = append(lines, "line "+strings.Repeat("x", i%3))
		}
		return strings.Join(append(lines, "LAST"), "\n")
	}
	d := NewDetail(th)
	d.SetSize(40, 5)
	d.SetContent(content(20))
	d.GotoBottom()
	d.SetContent(content(30))
	if !strings.Contains(d.View(), "LAST") || d.Position() != "end" {
		t.Errorf("scrolled to the end, the refresh moved the view to %s:\n%s", d.Position(), d.View())
	}
	d.GotoTop()
	d.SetContent(content(40))
	if d.Position() != "top" {
		t.Errorf("at the top, the refresh moved the view to %s", d.Position())
	}
	short := NewDetail(th)
	short.SetSize(40, 5)
	short.SetContent(content(2)) // all fits: at its end and its top at once
	short.SetContent(content(20))
	if short.Position() != "top" {
		t.Errorf("a record that grew as it loaded opened at %s, not its top", short.Position())
	}
}
