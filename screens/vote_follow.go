package screens

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// The vote dialog says who voted and what this vote would do. Both change
// when another member votes, or the activity settles, while it is open (a
// refresh, the open detail's record, a reloaded organization). The dialog
// then shows the activity as it is now; a change in what it shows makes the
// next y only acknowledge it (a y typed for the old text must not vote on
// the new one), and an activity this vote can no longer act on (settled, a
// new fingerprint, you voted elsewhere) closes it with a notice: nothing was
// sent. What the vote would do is worked out again at every tick of the
// console's clock too: a policy's time window may open while the dialog is
// read.

// pendingVote is a vote waiting for its confirm dialog. It captures the activity's
// id and fingerprint when the dialog opens, so the vote is about that activity
// whatever is selected when the answer comes.
type pendingVote struct {
	approve     bool
	id          string
	fingerprint string
	intent      string   // intentSum of the intent the dialog restates
	swap        swapSeen // what the record held against it when its lines were worked out (their warning)
	dialog      ui.Confirm
	// before is the activity as read when the dialog opened, the read the
	// service offered the vote on: a vote counts only if it is new since
	// (api.VoteSince).
	before *api.Activity
}

// openVote is the vote dialog on the root's stack and the copy of the
// activity its lines restate (arrived as order), worked out at the instant at.
type openVote struct {
	vote   *pendingVote
	dialog *ConfirmDialog
	shown  api.Activity
	order  copyOrder
	at     time.Time
	// awaited is the number of the organization's load the dialog asked
	// for when it opened (askVote): until it, or one started after it,
	// lands, y answers nothing (rereadLanded).
	awaited int
}

// rereadingNotice is what the vote dialog says while the organization is
// read again.
const rereadingNotice = "reading the organization again… what your vote would do is worked out again from it before y answers"

// rereadLanded lets the open vote dialog's y answer once the organization's
// load it asked for, or a later one, landed: the vote goes out on what the
// dialog showed after the read (followVoteDialog restated it when the read
// changed it), never on a prediction from before it that the member may
// not have seen corrected. A read that failed (or timed out) does not
// block the vote: the dialog says that what it shows may be stale, and
// the member decides; a later read that succeeds takes that back.
func (a *Activities) rereadLanded(msg orgLoadedMsg) {
	o := a.asking
	if o == nil || msg.load < o.awaited {
		return
	}
	caveat := ""
	if msg.err == nil {
		// A caveat from an earlier read that failed no longer holds.
		o.dialog.clearCaveat("the organization was read again: what is shown is worked out from it")
	} else {
		why := msg.err.Error()
		if errors.Is(msg.err, context.DeadlineExceeded) {
			why = "the service did not answer in time"
		}
		caveat = "POSSIBLY STALE: what your vote would do is worked out from the organization as loaded before, " +
			"which could not be read again (" + why + "); y answers on it"
	}
	o.dialog.release(caveat, "the organization was read again and nothing shown changed: y now answers")
}

// clockMoved reports whether what the dialog shows may have changed with
// the clock alone since it was worked out, by now: a policy reads the clock,
// or the round of the votes it shows has ended since. Working it out again
// (Decide, Reachable) is not free: it runs in Update, so not at every tick.
func (o *openVote) clockMoved(c *Common, now time.Time) bool {
	if c.Org.Eval.readsClock {
		return true
	}
	end := roundEnds(&o.shown, o.at)
	return !end.IsZero() && !now.Before(end)
}

// withdrawnDialogMsg asks the root to take this very dialog off its stack
// (not whichever has its ID: the user may have opened another since).
type withdrawnDialogMsg struct{ dialog Dialog }

// followVoteDialog brings the open vote dialog up to date with the newest
// copy of its activity the screen holds. What the vote would do may change
// with no new copy too: when the organization was loaded again (names,
// policies: orgChanged) or the clock moved on (ticked: a policy's time
// window opens or closes, a vote's round ends).
func (a *Activities) followVoteDialog(orgChanged, ticked bool) tea.Cmd {
	o := a.asking
	if o == nil {
		return nil
	}
	if o.dialog.gone {
		a.asking = nil
		return nil
	}
	if v := o.vote; v.approve && a.intents.swapped(v.id, v.fingerprint) {
		// Whichever copy showed it, held or not.
		return a.withdrawVote(withdrawnText(v, swapWithdrawn(a.intents.seenSwap(v.id, v.fingerprint))))
	}
	recompute := orgChanged || ticked && o.clockMoved(a.c, a.c.Now())
	cur, order := a.newestCopy(o.vote.id)
	if cur == nil {
		if !recompute {
			return nil
		}
		// Off the list (pushed off its page, dropped by a refresh): the
		// dialog still follows its record (readAsked), and what the vote
		// would do is worked out again from the copy it shows, or a y
		// would answer on a prediction the organization no longer holds.
		shown := o.shown
		cur, order = &shown, o.order
	}
	return a.followVoteCopy(cur, order, recompute)
}

// followVoteCopy brings the open vote dialog up to date with cur, a copy of
// its activity that arrived as order (ignored when older than the one it
// shows); recompute works out what the vote would do even when the copy
// is the same version.
func (a *Activities) followVoteCopy(cur *api.Activity, order copyOrder, recompute bool) tea.Cmd {
	o, now := a.asking, a.c.Now()
	// A swap recorded meanwhile (another id under this fingerprint, say)
	// may leave the copy as it was: a reject dialog then gets its warning.
	swap := a.intents.seenSwap(o.vote.id, o.vote.fingerprint)
	if olderOrdered(*cur, order, o.shown, o.order, now) ||
		(!recompute && sameVersion(*cur, o.shown) && intentSum(cur.Intent) == o.vote.intent && swap.same(o.vote.swap)) {
		return nil
	}
	o.shown, o.order, o.at = *cur, order, now
	if why := a.voteWithdrawn(cur, o.vote); why != "" {
		return a.withdrawVote(why)
	}
	next := a.pendingVote(cur, o.vote.approve)
	o.vote.swap = next.swap
	if what := changedText(o.dialog.confirm.Lines, next.dialog.Lines); what != "" {
		o.dialog.restate(next.dialog, what)
	}
	return nil
}

// withdrawVote closes the open vote dialog, nothing sent, saying why.
func (a *Activities) withdrawVote(why string) tea.Cmd {
	o := a.asking
	a.asking = nil
	o.dialog.withdraw(why)
	return tea.Batch(msgCmd(withdrawnDialogMsg{dialog: o.dialog}), ui.Toast(why, true))
}

// newestCopy is the newest copy of activity id the screen holds (the open
// detail's, a row's) and when it arrived, nil when it holds none.
func (a *Activities) newestCopy(id string) (*api.Activity, copyOrder) {
	var best *api.Activity
	var bestOrder copyOrder
	now := a.c.Now()
	consider := func(x *api.Activity, o copyOrder) {
		if x.ID == id && (best == nil || olderOrdered(*best, bestOrder, *x, o, now)) {
			best, bestOrder = x, o
		}
	}
	if a.detail != nil {
		consider(&a.detail.activity, a.detail.order)
	}
	for i := range a.items {
		consider(&a.items[i], a.orders[a.items[i].ID])
	}
	return best, bestOrder
}

// sameVersion reports whether x and y are the same version of an activity
// as far as the vote dialog shows it: the very same votes, not as many (a
// new round may hold as many as the one that ended).
func sameVersion(x, y api.Activity) bool {
	return x.Status == y.Status && x.Fingerprint == y.Fingerprint && sameVotes(x.Votes, y.Votes) &&
		x.UpdatedAt.Time().Equal(y.UpdatedAt.Time()) && x.CanApprove == y.CanApprove && x.CanReject == y.CanReject
}

// voteWithdrawn says why the vote v asks for can no longer be cast on act
// as the dialog asked it, or "".
func (a *Activities) voteWithdrawn(act *api.Activity, v *pendingVote) string {
	switch {
	case act.Fingerprint != v.fingerprint:
		return withdrawnText(v, "the activity's fingerprint changed while it was open; open it again to read what it is now")
	case intentSum(act.Intent) != v.intent:
		// The dialog restated one intent; the vote, signed over the
		// fingerprint, would count for whichever the service holds.
		if !v.approve {
			return withdrawnText(v, "the service sent another intent under the same fingerprint while it was open, so the intent it showed may not be what a rejection rejects; "+
				"open it again (x) to reject whatever the service holds under that fingerprint, under a warning that says so")
		}
		return withdrawnText(v, "the service sent another intent under the same fingerprint while it was open: what the fingerprint stands for cannot be told; do not approve it")
	case act.Status != api.StatusConsensusNeeded:
		return withdrawnText(v, "the activity "+settledVerb(act.Status)+" while it was open — "+settledText(a.c, act))
	}
	if why := a.voteBlock(act, v.approve); why != "" {
		return withdrawnText(v, why)
	}
	return ""
}

// withdrawnText says that the dialog of vote v closed, nothing sent, and why.
func withdrawnText(v *pendingVote, why string) string {
	verb := "approve"
	if !v.approve {
		verb = "reject"
	}
	return "the " + verb + " dialog of " + ui.Clean(api.SanitizeID(v.id)) + " closed, nothing was sent: " + why
}

// changedText names what differs between the dialog's lines and next's, or
// "" when nothing does.
func changedText(lines, next []string) string {
	if slices.Equal(lines, next) {
		return ""
	}
	var what []string
	if lineOf(lines, "WARNING:") != lineOf(next, "WARNING:") {
		what = append(what, "its warning")
	}
	if lineOf(lines, "votes:") != lineOf(next, "votes:") {
		what = append(what, "the votes")
	}
	if lineOf(lines, "if you ") != lineOf(next, "if you ") {
		what = append(what, "what your vote would do")
	}
	if len(what) == 0 {
		return "what it shows"
	}
	return strings.Join(what, " and ")
}

// lineOf is the first of lines that starts with prefix, or "".
func lineOf(lines []string, prefix string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
