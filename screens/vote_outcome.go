package screens

import (
	"cmp"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// A vote's outcome is told twice: in a toast that fades, and in the messages
// view, which keeps it. Both read the same outcome (voteOutcomeOf) in the same
// words (voteWords), so the record never contradicts the notice.

// voteOutcome is what became of a vote, as far as the console can tell.
type voteOutcome int

const (
	voteCounted       voteOutcome = iota // the reply came, and shows the vote
	voteOnAnother                        // the reply is about another activity: the vote may have counted there
	voteCountedAnyway                    // the reply failed or refused; the activity shows the vote as cast
	voteAlreadyCast                      // the reply failed; the activity shows the other vote, cast before
	voteTooLate                          // refused: the activity had settled before it arrived
	voteNotRecorded                      // no clear reply; the activity, read again, does not show it yet
	voteUnknown                          // no clear reply, and the activity could not be read again
	voteVoterUnsure                      // no clear reply; the activity, read again, cannot tell (who votes unknown or in doubt)
	voteFailed                           // refused, or failed before it was sent
)

// voteOutcomeOf sorts a vote's reply. Your vote on the activity read again
// decides first: it counted (or you had voted before) whatever the reply.
func voteOutcomeOf(c *Common, m activityVotedMsg) voteOutcome {
	switch {
	case m.err == nil && m.activity != nil:
		// A reply that does not show the vote was made an unknown outcome
		// when it came (Activities.vote); one about another activity is
		// not this vote's outcome either.
		if api.SortVoteReply(m.id, m.voter, m.approve, m.before, m.activity) == api.VoteReplyOtherActivity {
			return voteOnAnother
		}
		return voteCounted
	case m.err == nil:
		return voteFailed // no activity in the reply (errNoActivity)
	}
	mine, doubt := voteSeen(m)
	switch {
	case m.current != nil && doubt != "":
		// Never "not counted" nor "too late": the vote may be the one the
		// activity shows, or the one that settled it.
		if isOutcomeUnknown(m.err) {
			return voteVoterUnsure
		}
		return voteFailed // refused: the service's own words
	case mine != nil:
		if (mine.Selection == api.VoteApproved) != m.approve {
			return voteAlreadyCast
		}
		return voteCountedAnyway
	case m.current != nil && m.current.Status != api.StatusConsensusNeeded:
		return voteTooLate
	case isOutcomeUnknown(m.err) && m.current != nil:
		return voteNotRecorded
	case isOutcomeUnknown(m.err):
		return voteUnknown
	}
	return voteFailed
}

// voteReport is a vote's outcome in words: toast is the notice, entry the
// messages view's record of it (the same words, with the activity's id).
type voteReport struct {
	toast, entry string
	bad          bool // it did not go as asked, or nobody can tell yet
}

// voteWords says what became of the vote m reports. again names the keys
// that vote, for the outcomes that leave voting again to the user.
func voteWords(c *Common, m activityVotedMsg, again string) voteReport {
	verb := "approve"
	if !m.approve {
		verb = "reject"
	}
	id := ui.Clean(api.SanitizeID(m.id))
	// said: the toast's words are the entry's, without the id when they
	// start with "your approve" (the activity is the one on screen).
	said := func(text string, withID bool) voteReport {
		r := voteReport{toast: text, entry: verb + " " + id + ": " + text, bad: true}
		if withID {
			r.toast = r.entry
		}
		return r
	}
	switch voteOutcomeOf(c, m) {
	case voteCounted:
		act := m.activity
		return voteReport{
			toast: fmt.Sprintf("%s %s: now %s", pastTense(verb), shortType(act.Type), shortStatus(act.Status)),
			entry: fmt.Sprintf("%s %s (%s): now %s", pastTense(verb), id, shortType(act.Type), shortStatus(act.Status)),
		}
	case voteCountedAnyway:
		act := m.current
		text := fmt.Sprintf("now %s (the reply failed, but the activity shows your vote)", shortStatus(act.Status))
		if !isOutcomeUnknown(m.err) {
			// Refused, yet the vote is there: it was cast before this one
			// arrived (another console or the CLI, signed in as you).
			text = fmt.Sprintf("now %s (your vote was already counted, cast before this one arrived — from another console or the CLI; the service refused the repeat)", shortStatus(act.Status))
		}
		return voteReport{
			toast: fmt.Sprintf("%s %s: %s", pastTense(verb), shortType(act.Type), text),
			entry: fmt.Sprintf("%s %s (%s): %s", pastTense(verb), id, shortType(act.Type), text),
		}
	case voteAlreadyCast:
		cast := "approved"
		if mine, _ := voteSeen(m); mine.Selection != api.VoteApproved {
			cast = "rejected"
		}
		return said("your "+verb+" was not counted: you had already "+cast+" it, and a vote cannot be changed — "+settledText(c, m.current), false)
	case voteTooLate:
		return said(staleVoteText(c, verb, m.current), false)
	case voteOnAnother:
		// Never the voted activity's type or intent: the reply's own.
		return said(ui.Clean(api.VoteOnOtherActivityText(m.id, m.activity)), true)
	case voteNotRecorded:
		// Not "not recorded": the request may still be on its way.
		return said("no clear reply: "+api.VoteNotYetText+"; press "+again+" to vote again", true)
	case voteVoterUnsure:
		// r reads who votes again only when it was unknown (recheckVote):
		// any other doubt stays, and r cannot settle it.
		_, doubt := voteSeen(m)
		check := "look at its votes ('vigil activity get " + id + "') before voting again: r cannot tell while this doubt stands"
		if doubt == api.VoterUnknownText {
			check = "r reads it again, and tells once who you are can be read; until then look at its votes ('vigil activity get " + id + "') before voting again"
		}
		return said("outcome unknown: no clear reply, and the activity read again cannot tell whether it shows your vote: "+doubt+
			"; your vote may have been recorded: "+check, true)
	case voteUnknown:
		// Not "failed", not "retry": the service may have recorded it. The
		// CLI says the same of the same case (cli voteOutcome).
		return said("outcome unknown: no clear reply, and reading the activity to see whether the vote counted failed too; "+
			"your vote may have been recorded: check with r (or 'vigil activity get "+id+"') before voting again", true)
	}
	why := errorText(cmp.Or(m.err, errNoActivity))
	return voteReport{toast: verb + " failed: " + why, entry: verb + " " + id + " failed: " + why, bad: true}
}

// voteReportMsg carries a vote's outcome in words to the root, which keeps
// its entry in the messages view and shows its toast (marked as logged, so
// that it is not logged a second time). Marking the toast itself, rather than
// counting toasts owed, keeps any other notice that arrives in between.
type voteReportMsg struct{ report voteReport }

// tell is the command that reports r.
func (r voteReport) tell() tea.Cmd { return msgCmd(voteReportMsg{report: r}) }

// logVoteReport records a vote's outcome in the messages view and returns its toast.
func (r *Root) logVoteReport(v voteReport) tea.Cmd {
	kind := messageVote
	if v.bad {
		kind = messageError
	}
	r.log.add(r.common.Now(), kind, v.entry)
	return msgCmd(ui.ToastMsg{Text: v.toast, Bad: v.bad, Logged: true})
}

// pastTense is "approved" or "rejected" ("approve"+"d" read "rejectd").
func pastTense(verb string) string {
	if verb == "reject" {
		return "rejected"
	}
	return verb + "d"
}
