package screens

import "github.com/vigil-console/vigil/api"

// A vote is looked for as the voter's, new since the read it was offered on
// (api.VoteSince), the same way as the CLI: not as whatever vote the user
// the organization's whoami named has on the activity. That whoami may have
// failed at start (the user unknown), or come from a cache answering
// another member's (the requester, whose approval is on every activity).

// voter is who votes from the console: the user the organization's whoami
// named and the key the console stamps with, whose signature alone tells a
// vote as the console's when the key is known (api.Voter).
func (c *Common) voter() api.Voter {
	return api.Voter{UserID: c.Org.UserID, PublicKey: c.OwnPublicKey, Scheme: c.OwnScheme}
}

// whoVotes reads who the console signs in as, for a vote sent while the
// organization is not loaded: "" when it cannot be read. It does I/O: it
// runs in a command only.
func whoVotes(c *Common, reader Reader) string {
	ctx, cancel := c.ctx()
	defer cancel()
	who, err := reader.Whoami(ctx)
	if err != nil || who == nil {
		return ""
	}
	return who.UserID
}

// voteSeen is m's vote on the activity read again (m.current), new since
// the read it was offered on; doubt says why none can be told as the
// voter's (who votes unknown, or already voting before the vote). After a
// vote whose outcome is unknown, only the vote carrying the stamp just sent
// is it; a vote the service refused (a second vote) was not recorded, so the
// key's vote there is the earlier one, which no signature sent can match.
func voteSeen(m activityVotedMsg) (mine *api.Vote, doubt string) {
	voter := m.voter
	if m.err != nil && !isOutcomeUnknown(m.err) {
		voter = voter.Sent("")
	}
	return api.VoteSince(voter, m.before, m.current)
}
