package ui

import (
	"fmt"
	"github.com/sahilm/fuzzy"
	"testing"
)

// One keystroke in the filter: the first letter typed over every row (the worst
// case: nothing to narrow from), a letter that narrows the previous match, and a
// letter typed then erased through Update (two keystrokes; backspace rescans all).
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
		b.Run(fmt.Sprintf("type+backspace/%d", n), func(b *testing.B) {
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

// Sorting by a column (o): a stable sort of the visible rows by their cells.
func BenchmarkTableSort(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		rows := activityRows(n)
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			tbl := newTestTable(rows)
			col := 0
			for b.Loop() {
				tbl.SortBy(1+col%3, col%2 == 0)
				col++
			}
		})
	}
}

// The same first keystroke scored by sahilm/fuzzy over every row: why the table
// scans bytes itself and keeps the library for highlighting.
func BenchmarkSahilmFuzzyFullScan(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		tbl := newTestTable(activityRows(n))
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) {
			for b.Loop() {
				_ = fuzzy.FindNoSort("c", tbl.haystack)
			}
		})
	}
}
