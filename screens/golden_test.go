package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/vigil-console/vigil/ui/theme"
)

// screenFrame is the frame without its first line, the tab bar: the screens'
// goldens do not change when a tab is added (TestGoldenTabBar has the bar).
func screenFrame(r *Root) string {
	_, rest, _ := strings.Cut(r.Render(), "\n")
	return rest
}

// The tab bar, once, at both sizes, on each screen (the active tab differs).
func TestGoldenTabBar(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 30*time.Second)
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			var bars []string
			for i := range h.root.screens {
				h.key(fmt.Sprint(i + 1))
				bar, _ := h.root.tabBar()
				bars = append(bars, bar)
			}
			golden.RequireEqual(t, strings.Join(bars, "\n"))
		})
	}
}

// The main views at the two sizes people use most, on a fixed clock. Update with
// go test ./screens -run TestGolden -update, and read the diff before committing.
func TestGoldenViews(t *testing.T) {
	views := []struct {
		name string
		keys []string
	}{
		{"pending", nil},
		{"detail", []string{"enter"}},
		{"confirm", []string{"a"}},
		{"filter", []string{"/", "b", "o", "b"}},
		{"help", []string{"?"}},
		{"all", []string{"v"}},
		{"organization", []string{"@Organization"}},
		{"palette", []string{":"}},
		{"palette-filtered", []string{":", "r", "e", "f"}},
		{"messages", []string{"x", "y", "m"}},
		{"status-picker", []string{"v", "s", "c", "o", "space"}},
		{"all-filtered", []string{"v", "s", "r", "e", "j", "space", "enter", "O"}},
		{"boot-proofs", []string{"@Boot proofs"}},
		{"webhooks", []string{"@Webhooks"}},
		{"policies", []string{"@Policies"}},
		{"policy-detail", []string{"@Policies", "enter"}},
		{"policy-evaluations", []string{"@Policies", "e"}},
		// The editor with a draft that does not compile yet: the caret marks the column.
		// A draft that denies everything, simulated: what it would lock out.
		{"policy-simulation", []string{"@Policies", "n", "D", "tab", "right", "ctrl+r"}},
		{"policy-editor", []string{"@Policies", "n", "O", "p", "s", "tab", "right", "tab", "a", "c", "t", "i", "v", "i", "t", "y", ".", "r", "e", "s", "o", "u", "r", "c", "e", " ", "=", "=", " ", "1"}},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, v := range views {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], v.name), func(t *testing.T) {
				h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 30*time.Second)
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				for _, k := range v.keys {
					h.key(k)
				}
				golden.RequireEqual(t, screenFrame(h.root))
			})
		}
	}
}

// Colour: the dark theme with a production accent, and the light theme.
func TestGoldenColour(t *testing.T) {
	for name, th := range map[string]theme.Options{
		"dark-red-accent": {Dark: true, Accent: "red"},
		"light":           {Dark: false},
	} {
		t.Run(name, func(t *testing.T) {
			fake := &fakeClient{activities: sampleActivities()}
			h := newHarnessFor(t, fake, th, 0)
			h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
			golden.RequireEqual(t, screenFrame(h.root))
		})
	}
}
