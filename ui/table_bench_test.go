package ui

import (
	"fmt"
	"testing"
)

// One keystroke in the filter: the first letter typed over every row (the worst
// case: nothing to narrow from), then a letter that narrows the previous match.
func BenchmarkTableFilterKeystroke(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		rows := activityRows(n)
		b.Run(fmt.Sprintf("first/%d", n), func(b *testing.B) {
			tbl := newTestTable(rows)
			for b.Loop() {
				tbl.SetFilter("")
				tbl.applyFilter("c", true)
			}
		})
		b.Run(fmt.Sprintf("narrow/%d", n), func(b *testing.B) {
			tbl := newTestTable(rows)
			for b.Loop() {
				b.StopTimer()
				tbl.SetFilter("co")
				b.StartTimer()
				tbl.applyFilter("con", true)
			}
		})
		b.Run(fmt.Sprintf("keypress/%d", n), func(b *testing.B) {
			tbl := newTestTable(rows)
			tbl, _ = tbl.Update(press("/"))
			for b.Loop() {
				tbl, _ = tbl.Update(press("b"))
				tbl, _ = tbl.Update(press("backspace"))
			}
		})
	}
}

// Rendering a 160×48 frame of the table.
func BenchmarkTableRender(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			tbl := newTestTable(activityRows(n))
			tbl.SetSize(160, 48)
			for range n / 2 {
				tbl.move(1)
			}
			for b.Loop() {
				_ = tbl.View()
			}
		})
	}
}

// SetRows: cleaning and joining the filter strings once per refresh.
func BenchmarkTableSetRows(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		rows := activityRows(n)
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			tbl := newTestTable(nil)
			for b.Loop() {
				tbl.SetRows(rows)
			}
		})
	}
}
