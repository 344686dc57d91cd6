package screens

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/vigil-console/vigil/ui/theme"
)

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
		{"organization", []string{"3"}},
		{"palette", []string{":"}},
		{"palette-filtered", []string{":", "r", "e", "f"}},
		{"messages", []string{"x", "y", "m"}},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, v := range views {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], v.name), func(t *testing.T) {
				h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 30*time.Second)
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				for _, k := range v.keys {
					h.key(k)
				}
				golden.RequireEqual(t, h.root.Render())
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
			golden.RequireEqual(t, h.root.Render())
		})
	}
}
