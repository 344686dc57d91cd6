package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui/theme"
)

// A field as long as the invitations form takes (about 51,500 characters):
// a paste of the whole, and a keystroke at its end followed by a frame, must
// stay linear in the length (the view draws only the window that fits).
//
//	go test ./ui -run '^$' -bench 'BenchmarkFormLongField' -benchmem
func BenchmarkFormLongField(b *testing.B) {
	th := theme.New(theme.Options{Dark: true, NoColor: true})
	for _, n := range []int{5_000, 50_000} {
		text := strings.Repeat("dave <dave@example.com>, ", n/25)
		b.Run(fmt.Sprintf("paste/%d", n), func(b *testing.B) {
			for b.Loop() {
				f := NewForm("t", Field{Key: "k", Label: "k", CharLimit: 60_000})
				f, _ = f.Update(tea.PasteMsg{Content: text})
				_ = f.View(th, 100)
			}
		})
		b.Run(fmt.Sprintf("keystroke/%d", n), func(b *testing.B) {
			f := NewForm("t", Field{Key: "k", Label: "k", CharLimit: 60_000})
			f, _ = f.Update(tea.PasteMsg{Content: text})
			for b.Loop() {
				f, _ = f.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
				f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
				_ = f.View(th, 100)
			}
		})
	}
}
