package screens

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// voteCheckLine is a vote's check (api.CheckVote) under it in the detail:
// verified, not checked (why), or FAILED, loud, in the warning style. The
// reasons hold no text from the service; a message vigil could not check
// is shown after its reason, cleaned and cut to a line. A verified vote
// says whose key signed it as far as the console can tell (keyOwnerText).
func voteCheckLine(c *Common, check api.VoteCheck, v *api.Vote) string {
	th, message := c.Theme, v.Message
	switch check.State {
	case api.VoteVerified:
		owner, notTheirs := keyOwnerText(c, v)
		line := th.Good.Render(ui.Clean("signature verified: " + check.Reason))
		if notTheirs {
			return line + th.Warn.Render(ui.Clean("; ⚠ "+owner))
		}
		return line + th.Muted.Render(ui.Clean("; "+owner))
	case api.VoteFailed:
		return th.Warn.Render(ui.Clean("⚠ FAILED its signature check: " + check.Reason + "; this vote was not signed as shown: do not trust it"))
	}
	line := th.Muted.Render(ui.Clean("not checked: " + check.Reason))
	if message != "" {
		line += th.Muted.Render(" — message: ") + cutMessage(message)
	}
	return line
}

// failedVotesWarning is the vote dialog's warning when a vote that counts
// toward the quorum FAILED its check ("" when none did): the service (or
// something between) shows a vote its voter did not sign. signed is act
// without those votes (act itself when none failed), for the prediction
// of what this vote does if they are not what they seem. A failed vote
// stays in signed, neither approving nor rejecting: the service shows its
// member as having voted, and refuses them another vote (the requester's
// submission approval above all), so they are not among those who may
// still vote; and its time still marks its round.
func failedVotesWarning(c *Common, act *api.Activity) (warning string, signed *api.Activity) {
	var who []string
	checks, _ := api.CheckActivityVotes(*act, c.Org.Users)
	kept := make([]api.Vote, 0, len(act.Votes))
	for i := range act.Votes {
		v := act.Votes[i]
		if checks[i].State == api.VoteFailed {
			who = append(who, memberQuoted(c, &act.Votes[i]))
			v.Selection = "" // counts as neither
		}
		kept = append(kept, v)
	}
	if len(who) == 0 {
		return "", act
	}
	without := *act
	without.Votes = kept
	return ui.Clean("WARNING: the vote of " + strings.Join(who, ", ") + " FAILED its signature check: it was not signed as shown, so it may not be theirs; do not count on it (see the activity's votes)"), &without
}

// cutMessage is a vote's message cleaned (ui.Clean) and cut to at most 100
// characters of the cleaned text, so that it stays on the check's line (a
// message may be a request body of up to 1 MiB; its escapes lengthen it).
func cutMessage(m string) string {
	const most = 100
	// Escapes lengthen, never shorten: the first most+1 characters are
	// enough, and a megabyte is not cleaned at every redraw.
	head := firstRunes(m, most+1)
	shown := ui.Clean(head)
	if head == m && utf8.RuneCountInString(shown) <= most {
		return shown
	}
	return firstRunes(shown, most) + fmt.Sprintf("… (%d bytes)", len(m))
}

// firstRunes is s's first n characters (all of s when it has fewer).
func firstRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// voteChecks are the checks of the detail's record's votes and intent
// (api.CheckActivityVotes, with the user list held), computed at the first
// render of each record taken (or list): the detail is redrawn as ages
// tick, and a signature is verified once per record, not per redraw.
type voteChecks struct {
	of     []api.VoteCheck
	intent api.IntentCheck
	users  []api.User
	done   bool
}

// voteChecksOf is d's votes' checks and its intent check, computed once
// per record and user list.
func (d *activityDetail) voteChecksOf(c *Common) ([]api.VoteCheck, api.IntentCheck) {
	if !d.voteChecks.done || len(d.voteChecks.of) != len(d.activity.Votes) || !sameUsers(d.voteChecks.users, c.Org.Users) {
		of, intent := api.CheckActivityVotes(d.activity, c.Org.Users)
		d.voteChecks = voteChecks{of: of, intent: intent, users: c.Org.Users, done: true}
	}
	return d.voteChecks.of, d.voteChecks.intent
}
