package ui

import (
	"testing"
)

// The ␣ marks exist so that a break over several spaces cannot be taken
// for one over a single space (wrap_marks.go). A value whose text before the
// break ends in ":" (as "approvers.any(u, u.tag == 'ops:   admin')" may) has
// its several spaces dropped silently: it draws as its one-space twin.
func TestSpacesAfterAColonInsideAValueAreShown(t *testing.T) {
	for w := 12; w <= 40; w++ {
		one := wrapLine("tag == 'ops: admin'", w)
		many := wrapLine("tag == 'ops:    admin'", w)
		if one == many {
			t.Fatalf("width %d: %q and its 4-space twin draw the same:\n%s", w, "tag == 'ops: admin'", many)
		}
	}
}
