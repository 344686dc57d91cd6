package screens

import tea "charm.land/bubbletea/v2"

// A vote with no clear reply (voteUnknown) is checked again by reading its
// activity (r, the auto-refresh). The read answers with its own message: it
// is not the vote's reply, so it never ends the vote in flight, and it is
// dropped once the unsure vote has been settled by anything else.

// voteRecheckedMsg is what a read of the activity (recheckVote) found about
// the vote whose outcome was unknown: of is the unsure vote it was sent for,
// vote that vote with the activity as read.
type voteRecheckedMsg struct {
	of   *activityVotedMsg
	vote activityVotedMsg
}

// rechecked reports what a recheck found, unless the unsure vote has been
// settled by anything else since it was sent (the vote's own late reply,
// another vote on it, another recheck) or a vote on the activity is in
// flight, which will settle it: the read may predate that vote, and its
// "your vote is not there" would contradict what the vote says. It never
// touches the vote in flight.
func (a *Activities) rechecked(msg voteRecheckedMsg) tea.Cmd {
	if a.unsure == nil || a.unsure != msg.of || a.voting == msg.vote.id {
		return nil
	}
	return a.reportVote(msg.vote)
}

// recheckVote reads again the activity of the vote whose outcome is unknown,
// and reports the vote again with what the read found (rechecked then says
// whether it counted); nil when no vote is unsure. A read that fails, or
// that cannot tell the voter's vote (voteSeen), changes nothing: the status bar keeps saying the outcome is unknown.
func (a *Activities) recheckVote() tea.Cmd {
	if a.unsure == nil {
		return nil
	}
	of, c, sent := a.unsure, a.c, a.gens.next()
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		cur, err := c.Reader.GetActivity(ctx, of.id)
		if err != nil {
			return nil
		}
		vote := *of
		vote.current, vote.sent = cur, sent
		if vote.voter.UserID == "" {
			vote.voter.UserID = whoVotes(c, c.Reader)
		}
		if _, doubt := voteSeen(vote); doubt != "" {
			return nil // as a read that fails: it cannot tell either
		}
		return voteRecheckedMsg{of: of, vote: vote}
	}
}
