package screens

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// The Activities list's rows: its columns and what each cell says of an
// activity.

// activityColumns are the list's columns; in read-only mode YOU is wide enough to
// say "read-only" where it would say what you can vote. WHAT says what the
// activity would do and takes the spare width; the others grow to their longest
// cell up to a sensible limit. STATUS is dimmed on the row of an activity
// that left the Pending list (leftPendingMark).
func activityColumns(c *Common) []ui.Column {
	you := 4
	if c.ReadOnly() {
		you = len(readOnlyMark)
	}
	return []ui.Column{
		{Title: "AGE", Width: 4},
		{Title: "WHAT", Width: 20, Grow: true},
		{Title: "REQUESTER", Width: 9, Max: 16},
		{Title: "STATUS", Width: 9, Max: 17, Style: func(cell string) lipgloss.Style { return statusCellStyle(c, cell) }},
		{Title: "VOTES", Width: 5},
		{Title: "YOU", Width: you},
	}
}

// setRows rebuilds the table rows from the items.
func (a *Activities) setRows() ui.Moved {
	rows := make([]ui.Row, len(a.items))
	now := a.c.Now()
	for i := range a.items {
		rows[i] = activityRow(a.c, &a.items[i], now)
		if id := a.items[i].ID; a.isLeaving(id) || a.leftUnread[id] {
			// The row is its copy from before it left: neither its status
			// nor the vote it offered may hold any more.
			rows[i].Cells[3], rows[i].Cells[5] = leftPendingMark, "—"
		}
		if act := &a.items[i]; a.swappedIntent(act) {
			// Approving it is refused (voteBlock): YOU says what is left.
			rows[i].Cells[1] = a.intents.seenSwap(act.ID, act.Fingerprint).rowMark() + rows[i].Cells[1]
			if rows[i].Cells[5] == "vote" || rows[i].Cells[5] == "appr" {
				rows[i].Cells[5] = "—"
				if act.CanReject {
					rows[i].Cells[5] = "rej"
				}
			}
		}
	}
	// A row that is gone leaves the cursor on its neighbour, not the first
	// row: activities_moved.go says so when a refresh took it away. It
	// passes over the rows leaving the list themselves, which would move it
	// again, with a notice each, as their records come.
	return a.list.SetRowsKeepingPlacePassing(rows, func(id string) bool { return a.isLeaving(id) || a.leftUnread[id] })
}

// leftPendingMark is the STATUS of an activity that left the Pending list
// while its final record is being read.
const leftPendingMark = "left Pending…"

// statusCellStyle is the style of a STATUS cell, by its (maybe cut) text.
func statusCellStyle(c *Common, cell string) lipgloss.Style {
	if strings.HasPrefix(cell, "left ") {
		return c.Theme.Muted
	}
	return lipgloss.NewStyle()
}

// readOnlyMark is what the YOU column says, in read-only mode, of an activity
// you could otherwise vote on.
const readOnlyMark = "read-only"

func activityRow(c *Common, act *api.Activity, now time.Time) ui.Row {
	you := "—"
	switch {
	case c.ReadOnly() && (act.CanApprove || act.CanReject):
		you = readOnlyMark
	case act.CanApprove && act.CanReject:
		you = "vote"
	case act.CanApprove:
		you = "appr"
	case act.CanReject:
		you = "rej"
	}
	return ui.Row{ID: act.ID, Cells: []string{
		ui.Ago(now, act.CreatedAt.Time()), intentWhat(c, act), requester(c, act),
		shortStatus(act.Status), votesCell(c, act), you,
	}, Sort: []string{ageSortKey(act.CreatedAt.Time())}, Search: shortType(act.Type)}
}

// ageSortKey sorts the youngest first when AGE is ascending, for any time a
// reply holds: seconds with the sign bit flipped (so unsigned order is
// signed order) and inverted, then nanoseconds inverted. A missing (zero)
// time counts as older than any, last: MaxInt64 minus UnixNano overflowed
// for a time before 1970 or an absent one, whose key then began "-" and
// sorted first, as the newest.
func ageSortKey(t time.Time) string {
	if t.IsZero() {
		return "~" // after every key of digits
	}
	return fmt.Sprintf("%020d%09d", ^(uint64(t.Unix()) ^ 1<<63), 999_999_999-t.Nanosecond())
}

func shortType(t string) string   { return strings.TrimPrefix(ui.Clean(t), "ACTIVITY_TYPE_") }
func shortStatus(s string) string { return strings.TrimPrefix(ui.Clean(s), "ACTIVITY_STATUS_") }

// requester is the name of the user who submitted the activity: the first vote is
// the requester's own approval, when it is of the activity's first voting round
// (policy.SubmitterOf). Once that round has ended the service sends only the
// current round's votes, whose first voter is someone else: "?" then.
func requester(c *Common, act *api.Activity) string {
	if policy.SubmitterOf(*act) == "" {
		return "?"
	}
	v := &act.Votes[0]
	if n := voterText(c, v); n != "" {
		return ui.Clean(n)
	}
	return ui.Clean(api.SanitizeID(v.UserID))
}

// votesCell is root approvals/needed, needed being the root quorum's threshold.
// Approvals by users outside the quorum do not count towards it, so they are left
// out (all approvals count while the quorum's members are unknown).
func votesCell(c *Common, act *api.Activity) string {
	members := c.Org.Quorum.UserIDs
	n := 0
	for _, v := range act.Votes {
		if v.Selection == api.VoteApproved && (len(members) == 0 || slices.Contains(members, v.UserID)) {
			n++
		}
	}
	rejected := ""
	if r := rejections(act); r > 0 {
		rejected = fmt.Sprintf(" ✗%d", r)
	}
	if c.Org.Quorum.Threshold <= 0 {
		return fmt.Sprintf("%d/?%s", n, rejected)
	}
	return fmt.Sprintf("%d/%d%s", n, c.Org.Quorum.Threshold, rejected)
}

// rejections counts the votes to reject act.
func rejections(act *api.Activity) int {
	n := 0
	for _, v := range act.Votes {
		if v.Selection == api.VoteRejected {
			n++
		}
	}
	return n
}
