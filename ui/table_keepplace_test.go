package ui

import "testing"

// A new row arriving at the top (activities are newest first) in the same
// refresh that takes the selected row away: the cursor must land on the row
// that followed the gone one, as the console's notice says ("the cursor
// moved to the row that followed it"), not on the row before it, which the
// next a, x or enter would then act on.
func TestKeepingPlaceWithRowAddedAboveFollowsTheGoneRow(t *testing.T) {
	rows := activityRows(6)
	tb := newTestTable(rows[1:]) // rows[0] is the one that arrives later
	tb.move(2)                   // rows[3]
	gone := tb.SelectedID()
	next := rows[4].ID
	fresh := []Row{rows[0], rows[1], rows[2], rows[4], rows[5]} // rows[0] new, rows[3] gone
	if moved := tb.SetRowsKeepingPlace(fresh); moved != ToFollowing {
		t.Errorf("the selected row went; SetRowsKeepingPlace said %v, want ToFollowing", moved)
	}
	if got := tb.SelectedID(); got != next {
		t.Errorf("the cursor went to %q, not to the row that followed %q (%q)", got, gone, next)
	}
}

// When the row that followed the gone one went too, the cursor goes to the
// next one still there; when every row after it went, to the last row, and
// the caller is told which, so that it does not claim a follower. A list
// that holds none of the rows shown before (another page) starts at the top.
func TestKeepingPlaceWhenFollowersGoToo(t *testing.T) {
	rows := activityRows(7)
	tb := newTestTable(rows[1:])
	tb.move(2)                                                  // rows[3]
	fresh := []Row{rows[0], rows[1], rows[2], rows[5], rows[6]} // rows[0] new; rows[3] and rows[4] gone
	if moved := tb.SetRowsKeepingPlace(fresh); moved != ToFollowing || tb.SelectedID() != rows[5].ID {
		t.Errorf("%s and the row after it went: %v, on %q; want ToFollowing on %q", rows[3].ID, moved, tb.SelectedID(), rows[5].ID)
	}
	fresh = []Row{rows[0], rows[1], rows[2]} // rows[5] and every row after it gone
	if moved := tb.SetRowsKeepingPlace(fresh); moved != ToLast || tb.SelectedID() != rows[2].ID {
		t.Errorf("every row from %s on went: %v, on %q; want ToLast on the last row %q", rows[5].ID, moved, tb.SelectedID(), rows[2].ID)
	}
	if moved := tb.SetRowsKeepingPlace(rows[3:5]); moved != ToFirst || tb.SelectedID() != rows[3].ID {
		t.Errorf("another list, none of its rows listed before: %v, on %q; want ToFirst on %q", moved, tb.SelectedID(), rows[3].ID)
	}
	if moved := tb.SetRowsKeepingPlace(nil); moved != ToNone || tb.SelectedID() != "" {
		t.Errorf("every row went: %v, on %q; want ToNone, nothing selected", moved, tb.SelectedID())
	}
}

// Rows the caller says are about to go are passed over: the cursor goes to
// the first follower that stays, else to the last row that stays (above the
// passed-over ones), and only when every row goes to the last row.
func TestKeepingPlacePassesOverRowsAboutToGo(t *testing.T) {
	rows := activityRows(6)
	tb := newTestTable(rows)
	tb.move(2) // rows[2]
	going := map[string]bool{rows[3].ID: true}
	fresh := []Row{rows[0], rows[1], rows[3], rows[4], rows[5]}
	if moved := tb.SetRowsKeepingPlacePassing(fresh, func(id string) bool { return going[id] }); moved != ToFollowing || tb.SelectedID() != rows[4].ID {
		t.Errorf("%s went, %s goes next: %v, on %q; want ToFollowing on %q", rows[2].ID, rows[3].ID, moved, tb.SelectedID(), rows[4].ID)
	}
	going[rows[5].ID] = true
	fresh = []Row{rows[0], rows[1], rows[3], rows[5]} // rows[4] gone, those after it going
	if moved := tb.SetRowsKeepingPlacePassing(fresh, func(id string) bool { return going[id] }); moved != ToLast || tb.SelectedID() != rows[1].ID {
		t.Errorf("only rows about to go follow: %v, on %q; want ToLast on %q, the last that stays", moved, tb.SelectedID(), rows[1].ID)
	}
	tb.move(1) // rows[3]
	if moved := tb.SetRowsKeepingPlacePassing([]Row{rows[5]}, func(string) bool { return true }); moved != ToLast || tb.SelectedID() != rows[5].ID {
		t.Errorf("every row goes: %v, on %q; want ToLast on the last row %q", moved, tb.SelectedID(), rows[5].ID)
	}
}
