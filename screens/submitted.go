package screens

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// Every screen that submits says so the same way: one notice after the
// answer (submittedNotice), and before it one confirm that says what happens
// next (submitOutcome).

// submittedNotice is the notice after a submit's answer: what was submitted
// (already escaped: `policy "Audit deny"`, `delete_api_keys`), whether it was
// the earlier request sent again, the activity's id and what its status
// means, then note (escaped here) if any. A failed or rejected activity is a
// bad notice, never a ✓.
func submittedNotice(what string, act *api.Activity, resent bool, note string) tea.Cmd {
	verb := "submitted"
	if resent {
		verb = "sent again"
	}
	status, bad := statusWords(act)
	text := what + " " + verb + ": activity " + api.SanitizeID(act.ID) + " " + status
	if note != "" {
		text += " (" + ui.Clean(note) + ")"
	}
	return ui.Toast(text, bad)
}

// statusWords says what an activity's status means for the one who just
// submitted it; bad when it did not and will not happen.
func statusWords(act *api.Activity) (string, bool) {
	switch act.Status {
	case api.StatusCompleted:
		return "completed", false
	case api.StatusConsensusNeeded, api.StatusPending, api.StatusCreated:
		return "waits for approvals", false
	case api.StatusFailed:
		if act.Failure != nil && act.Failure.Message != "" {
			return "FAILED: " + ui.Clean(act.Failure.Message), true
		}
		return "FAILED", true
	case api.StatusRejected:
		return "REJECTED", true
	}
	return shortStatus(act.Status), false
}

// submitOutcome says what submitting an activity of type typ with intent
// would do, by the console's reading of the organization's policies (the
// vote dialog's: the submission is the requester's approval); when it cannot
// tell, what the root quorum must do.
func submitOutcome(c *Common, typ string, intent api.Intent) []string {
	act := api.Activity{Type: typ, Status: api.StatusCreated, CreatedAt: api.NewTime(c.Now()), Intent: intent}
	cons := voteConsequence(c, &act, true)
	switch {
	case cons == "":
		return rootQuorumApproval(c.Org.Quorum)
	case predictedOutcomeOf(cons) == predictsWaits:
		return []string{"Once submitted, it waits for approvals:", "  " + strings.TrimPrefix(cons, "it still waits — ") + "."}
	case predictedOutcomeOf(cons) == predictsUnknown:
		return []string{"Once submitted: " + cons + "."}
	}
	return []string{"Once submitted, " + cons + "."}
}
