package ui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Whatever the user does to a dialog taller than the window (scroll either
// way, widen or narrow it, in any order), the dialog says nothing is unread
// only once every line has been drawn in full: each line's first, middle and
// last words are found in the frames drawn so far.
func TestConfirmUnreadSurvivesResizes(t *testing.T) {
	var lines []string
	var tags []string
	for i := range 24 {
		a, m, z := fmt.Sprintf("L%02da", i), fmt.Sprintf("L%02dm", i), fmt.Sprintf("L%02dz", i)
		// Long enough to wrap at 60 columns and not at 140; every third
		// line taller than the window at 60.
		words := strings.Repeat("word ", 6+i%3*40)
		lines = append(lines, fmt.Sprintf("field %d: %s %s %s%s %s", i, a, words, m, words, z))
		tags = append(tags, a, m, z)
	}
	sizes := [][2]int{{60, 18}, {80, 20}, {100, 18}, {140, 24}, {61, 30}}
	up := tea.KeyPressMsg{Code: tea.KeyUp}
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	pgdown := tea.KeyPressMsg{Code: tea.KeyPgDown}
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 1))
		c := NewConfirm("Approve this activity?", "Approve", lines...)
		size := sizes[0]
		drawn := map[string]bool{}
		draw := func() {
			frame := c.View(plainTheme, size[0], size[1])
			for _, tag := range tags {
				drawn[tag] = drawn[tag] || strings.Contains(frame, tag)
			}
		}
		draw()
		for step := range 200 {
			switch r := rng.IntN(10); {
			case r == 0:
				c.Shown(size[0], size[1]) // as the dialog does before its size changes
				size = sizes[rng.IntN(len(sizes))]
			case r < 3:
				c.Scroll(up, size[0], size[1])
			case r < 5:
				c.Scroll(pgdown, size[0], size[1])
			default:
				c.Scroll(down, size[0], size[1])
			}
			draw()
			if unread, _ := c.Unread(size[0], size[1]); unread > 0 {
				continue
			}
			for _, tag := range tags {
				if !drawn[tag] {
					t.Fatalf("seed %d, step %d at %dx%d: nothing unread, though %s was never drawn", seed, step, size[0], size[1], tag)
				}
			}
		}
	}
}
