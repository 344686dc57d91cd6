package screens

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// voteCheckLine is a vote's check (api.CheckVote) under it in the detail:
// verified, not checked (why), or FAILED, loud, in the warning style. The
// reasons hold no text from the service; a message vigil could not check
// is shown after its reason, cleaned and cut to a line.
func voteCheckLine(th *theme.Theme, c api.VoteCheck, message string) string {
	switch c.State {
	case api.VoteVerified:
		return th.Good.Render(ui.Clean("signature verified: " + c.Reason))
	case api.VoteFailed:
		return th.Warn.Render(ui.Clean("⚠ FAILED its signature check: " + c.Reason + "; this vote was not signed as shown: do not trust it"))
	}
	line := th.Muted.Render(ui.Clean("not checked: " + c.Reason))
	if message != "" {
		line += th.Muted.Render(" — message: ") + cutMessage(message)
	}
	return line
}

// failedVotesWarning is the vote dialog's warning when a vote that counts
// toward the quorum FAILED its check ("" when none did): the service (or
// something between) shows a vote its voter did not sign.
func failedVotesWarning(c *Common, act *api.Activity) string {
	var who []string
	for i := range act.Votes {
		if api.CheckVote(*act, act.Votes[i]).State == api.VoteFailed {
			who = append(who, memberQuoted(c, &act.Votes[i]))
		}
	}
	if len(who) == 0 {
		return ""
	}
	return ui.Clean("WARNING: the vote of " + strings.Join(who, ", ") + " FAILED its signature check: it was not signed as shown, so it may not be theirs; do not count on it (see the activity's votes)")
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

// voteCheckKey is what a vote's check depends on.
type voteCheckKey struct{ org, fp, id, selection, message, publicKey, signature, scheme string }

// voteChecks remembers the checks of the votes the detail shows: it is
// redrawn as ages tick, and a signature is verified once, not per redraw.
type voteChecks map[voteCheckKey]api.VoteCheck

// of is api.CheckVote(*a, v), remembered.
func (m *voteChecks) of(a *api.Activity, v api.Vote) api.VoteCheck {
	k := voteCheckKey{a.OrganizationID, a.Fingerprint, v.ID, v.Selection, v.Message, v.PublicKey, v.Signature, v.Scheme}
	if c, ok := (*m)[k]; ok {
		return c
	}
	if *m == nil || len(*m) >= 256 {
		*m = voteChecks{} // bounded: the records opened lately
	}
	c := api.CheckVote(*a, v)
	(*m)[k] = c
	return c
}
