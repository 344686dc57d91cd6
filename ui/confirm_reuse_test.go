package ui

import (
	"slices"
	"strings"
	"testing"
)

// A dialog that takes another's wrapped lines (ReuseWrap) or its own from
// before a restatement shows what a dialog wrapped afresh shows: the same
// rows, warnings and width, whichever lines and widths the earlier held.
func TestConfirmReusedWrapIsAFreshWrap(t *testing.T) {
	long := strings.Repeat("財務チーム lorem ipsum ", 400)
	prev := NewConfirm("Approve this activity?", "Approve", "type: x", long, "votes: none")
	prev.Warn = map[int]bool{1: true}
	_ = prev.body(80)
	next := func() Confirm {
		c := NewConfirm("Reject this activity?", "Reject", "WARNING: another", long, "votes: bob", "fingerprint: f")
		c.Warn = map[int]bool{0: true}
		return c
	}
	for _, width := range []int{80, 50} {
		fresh, reused := next(), next()
		reused.ReuseWrap(prev)
		fr, fw := fresh.bodyWarned(width)
		rr, rw := reused.bodyWarned(width)
		if !slices.Equal(fr, rr) || !slices.Equal(fw, rw) || fresh.wrapped(width).widest != reused.wrapped(width).widest {
			t.Errorf("width %d: the body wrapped with another dialog's rows differs from one wrapped afresh", width)
		}
		// Restated in place: the lines kept are not wrapped again, and the
		// body is still what a fresh wrap gives.
		restated := next()
		restated.Lines[2] = "votes: bob, carol"
		reused.Restate(restated)
		want := restated
		want.cache = &confirmCache{}
		if !slices.Equal(reused.body(width), want.body(width)) {
			t.Errorf("width %d: the restated body differs from a fresh wrap of its lines", width)
		}
	}
}
