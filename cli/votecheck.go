package cli

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// voteCheckText is a vote's check (api.CheckVote) as printed after it:
// [verified], [not checked: why] or [FAILED: why]. Its reasons hold no text
// from the service.
func voteCheckText(c api.VoteCheck) string {
	switch c.State {
	case api.VoteVerified:
		return "[verified]"
	case api.VoteFailed:
		return "[FAILED: " + c.Reason + "; this vote was not signed as shown: do not trust it]"
	}
	return "[not checked: " + c.Reason + "]"
}

// checkedVote is one vote's check in `activity get --json`, beside the
// activity exactly as sent.
type checkedVote struct {
	VoteID string `json:"voteId"`
	UserID string `json:"userId"`
	api.VoteCheck
}

// withVoteChecks is a get_activity reply as sent, with vigil's check of
// each of its votes added under "voteChecks" (in the votes' order). The
// activity is left byte for byte as the service sent it. A reply whose
// activity cannot be read is returned as it is: the text output says what
// is wrong with it.
func withVoteChecks(raw json.RawMessage) (json.RawMessage, error) {
	var reply struct {
		// Only what the check reads: an intent vigil does not know must
		// not keep the votes from being checked.
		Activity *struct {
			OrganizationID string     `json:"organizationId"`
			Fingerprint    string     `json:"fingerprint"`
			Votes          []api.Vote `json:"votes"`
		} `json:"activity"`
		VoteChecks json.RawMessage `json:"voteChecks"`
	}
	trimmed := bytes.TrimSpace(raw)
	if json.Unmarshal(trimmed, &reply) != nil || reply.Activity == nil || len(trimmed) < 2 || trimmed[0] != '{' {
		return raw, nil
	}
	if reply.VoteChecks != nil {
		// A service's own "voteChecks" must not pass for vigil's.
		return nil, fmt.Errorf("the reply carries a voteChecks field of its own, which vigil writes there; read the reply with 'vigil request' instead")
	}
	a := api.Activity{OrganizationID: reply.Activity.OrganizationID, Fingerprint: reply.Activity.Fingerprint, Votes: reply.Activity.Votes}
	checks := make([]checkedVote, 0, len(a.Votes))
	for _, v := range a.Votes {
		checks = append(checks, checkedVote{VoteID: v.ID, UserID: v.UserID, VoteCheck: api.CheckVote(a, v)})
	}
	b, err := json.Marshal(checks)
	if err != nil {
		return nil, fmt.Errorf("encode the vote checks: %w", err)
	}
	out := make([]byte, 0, len(trimmed)+len(b)+16)
	out = append(out, trimmed[:len(trimmed)-1]...)
	out = append(out, `,"voteChecks":`...)
	out = append(out, b...)
	return append(out, '}'), nil
}
