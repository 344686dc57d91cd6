package screens

import (
	"strings"
	"testing"
)

// A refresh of the open detail (every reply, every few seconds, every clock
// change) must not redo work in proportion to a name the service sent: a
// hostile 10,000-character policy name quoted, measured and wrapped again
// each time froze the console for a frame or more. Counted, not timed: the
// allocations of one render with a name of 10,000 characters stay within
// twice those with a name of 1,000 (before, they grew with the name).
// Against the local service.
func TestDetailRefreshDoesNotGrowWithALongName(t *testing.T) {
	for _, shape := range []string{"財務チーム", "W財\u202e\x1b]0;pwned\x07\u009bо"} {
		allocs := map[int]float64{}
		for _, n := range []int{1000, 10000} {
			r := []rune(strings.Repeat(shape, n/len([]rune(shape))+1))
			h, act := longNameDemo(t, string(r[:n]))
			h.key("enter")
			a := h.activities()
			if a.detail == nil || a.detail.activity.ID != act.ID {
				t.Fatalf("the detail of %s did not open:\n%s", act.ID, h.frame())
			}
			allocs[n] = testing.AllocsPerRun(5, func() { a.detail.render(h.root.common) })
		}
		if allocs[10000] > 2*allocs[1000] {
			t.Errorf("%q: one render of the detail allocates %.0f times with a name of 10,000 characters, %.0f with 1,000: it redoes work in proportion to the name",
				shape, allocs[10000], allocs[1000])
		}
	}
}
