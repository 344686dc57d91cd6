package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// Submission is a submit in flight: quitting now leaves its outcome unknown,
// so q asks first and the console names it on exit.
type Submission struct {
	What  string // "a vote on CREATE_USER_TAG 01a2…", `create_policy "Ops may deploy"`
	Check string // the command that tells whether it was recorded
}

// submissionOf is a submit of op (a new activity) described by what; the
// activity list of that type shows whether it was recorded.
func submissionOf(op, what string) *Submission {
	return &Submission{What: ui.Clean(what), Check: "vigil activity list --type " + op + " --limit 10"}
}

// voteSubmission is a vote in flight on the activity id of type typ.
func voteSubmission(id, typ string) Submission {
	id = ui.Clean(api.SanitizeID(id))
	what := "a vote on " + id
	if typ != "" {
		what = "a vote on " + ui.Clean(shortType(typ)) + " " + id
	}
	return Submission{What: what, Check: "vigil activity get " + id}
}

// votesInFlight is the vote in flight, if any, as q names it.
func (a *Activities) votesInFlight() []Submission {
	if a.voting == "" {
		return nil
	}
	typ := ""
	if act := a.selected(); act != nil && act.ID == a.voting {
		typ = act.Type
	}
	for _, it := range a.items {
		if it.ID == a.voting {
			typ = it.Type
		}
	}
	return []Submission{voteSubmission(a.voting, typ)}
}

// submissions lists s when it is set.
func submissions(s *Submission) []Submission {
	if s == nil {
		return nil
	}
	return []Submission{*s}
}

// quitMsg is q (or the palette's quit): quit, unless a submit is in flight.
type quitMsg struct{}

// quitDialogID names the question asked before quitting with a submit in flight.
const quitDialogID = "quit"

// InFlight are the submits in flight, on every screen and from the operation
// forms: what quitting now leaves unknown (the console prints them on exit).
func (r *Root) InFlight() []Submission {
	var out []Submission
	for _, s := range r.screens {
		out = append(out, s.Status().Submitting...)
	}
	for _, s := range r.opsInFlight {
		out = append(out, *s)
	}
	return out
}

// quit quits at once when nothing is in flight; otherwise it asks, with No as
// the default, naming what would be left unknown and how to check it.
func (r *Root) quit() tea.Cmd {
	inFlight := r.InFlight()
	if len(inFlight) == 0 {
		return tea.Quit
	}
	var lines []string
	for _, s := range inFlight {
		// The command on a line of its own, to be read (or copied) whole.
		lines = append(lines, s.What+" is still in flight; quit anyway? Its outcome will be unknown — check with:", "  "+s.Check)
	}
	c := ui.NewConfirm("Quit with a submit in flight?", "quit", lines...)
	r.openDialog(NewConfirmDialog(quitDialogID, c, tea.Quit, nil))
	return nil
}

// settleQuitQuestion closes the question asked before quitting once nothing
// it named is in flight any more: its outcome has just been shown, and the
// question would name submits that have ended. q then quits at once.
func (r *Root) settleQuitQuestion() tea.Cmd {
	if d := r.dialogs.Top(); d == nil || d.ID() != quitDialogID || len(r.InFlight()) > 0 {
		return nil
	}
	r.dialogs.Close(quitDialogID)
	return ui.Toast("nothing is in flight any more: q quits", false)
}
