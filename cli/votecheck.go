package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// voteCheckText is a vote's check (api.CheckVote) as printed after it:
// [verified: what was signed; …], [not checked: why] or [FAILED: why]. Its
// reasons hold no text from the service but the names of users and keys,
// escaped. A verified vote says whose key signed it among users, the
// organization's (keyOwnerText; nil: not read, not checked).
func voteCheckOwnerText(c api.VoteCheck, v *api.Vote, users []api.User) string {
	switch c.State {
	case api.VoteVerified:
		return "[verified: " + c.Reason + "; " + keyOwnerText(v, users) + "]"
	case api.VoteFailed:
		return "[FAILED: " + c.Reason + "; this vote was not signed as shown: do not trust it]"
	}
	return "[not checked: " + c.Reason + "]"
}

// checkedVote is one vote's check in `activity get --json`, beside the
// activity exactly as sent, with whose key signed it (keyOwnerJSON).
type checkedVote struct {
	VoteID string `json:"voteId"`
	UserID string `json:"userId"`
	api.VoteCheck
	KeyOwner       string `json:"keyOwner"`
	KeyOwnerReason string `json:"keyOwnerReason"`
}

// checkedReply is an activity reply (get_activity's or a submit's: {"activity": …})
// as sent with vigil's checks of its votes and intent added (withVoteChecks),
// the organization's users read from client when a check needs them: what
// every --json printing an activity prints, so a script sees a FAILED vote
// or an unchecked intent as the text output shows it.
func checkedReply(ctx context.Context, client *api.Client, raw json.RawMessage) (json.RawMessage, error) {
	return withVoteChecks(raw, func() ([]api.User, error) { return exactUsers(ctx, client) })
}

// writeCheckedJSON writes raw with its checks (checkedReply) to w; a reply
// refused there is not written at all.
func writeCheckedJSON(ctx context.Context, w io.Writer, client *api.Client, raw json.RawMessage) error {
	checked, err := checkedReply(ctx, client, raw)
	if err != nil {
		return err
	}
	return writeJSON(w, checked)
}

// refusedReply is withVoteChecks' refusal of a reply: why it is not
// printed with vigil's checks. It holds no advice, which depends on what
// the caller did (a read may be read raw; a recorded submit must not be
// sent again to see its reply).
type refusedReply struct{ err error }

func (r refusedReply) Error() string { return r.err.Error() }
func (r refusedReply) Unwrap() error { return r.err }

// refused is a refusedReply saying why, as fmt.Errorf formats it.
func refused(format string, args ...any) error {
	return refusedReply{fmt.Errorf(format, args...)}
}

// isRefusedReply reports whether err is withVoteChecks' refusal.
func isRefusedReply(err error) bool {
	var r refusedReply
	return errors.As(err, &r)
}

// seeItAfterRefusal is the pointer at activity id after a recorded submit
// or vote whose reply err kept from being printed: reading it, never
// sending it again; without --json when --json refused the reply, as it
// would refuse the same read.
func seeItAfterRefusal(id string, err error) string {
	if isRefusedReply(err) {
		return "see it with 'vigil activity get " + id + "' (without --json, which refuses such a reply too)"
	}
	return "see it with 'vigil activity get " + id + "'"
}

// withVoteChecks is an activity reply as sent, with vigil's check of
// each of its votes added under "voteChecks" (in the votes' order). The
// activity is left byte for byte as the service sent it. A reply that
// carries a "voteChecks" of its own (in any case, as Go folds keys), or
// whose activity cannot be read, or which JSON readers can read two ways
// (api.CheckReplyJSON), is refused, as is one carrying an "intentCheck"
// (the activity-level check, api.CheckActivityVotes, added too): vigil's checks must never be
// missing beside an activity nor be the service's. readUsers reads the
// organization's users, once, when a vote verified: to say whose key
// signed it.
func withVoteChecks(raw json.RawMessage, readUsers func() ([]api.User, error)) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	// Printed as sent, checked as decoded: a reply JSON readers can read two
	// ways ("intent" and "Intent", at any depth) would have its checks
	// beside an activity nobody signed. Refused as 'activity get' refuses it.
	if err := ambiguousReread(trimmed); err != nil {
		return nil, refused("%w, so its votes are not checked", err)
	}
	// The keys first, whatever the activity's shape.
	var top map[string]json.RawMessage
	if len(trimmed) < 2 || trimmed[0] != '{' || json.Unmarshal(trimmed, &top) != nil {
		return nil, refused("the reply is not a JSON object, so its votes cannot be checked")
	}
	activities := 0
	for k := range top {
		if strings.EqualFold(k, "voteChecks") || strings.EqualFold(k, "intentCheck") {
			// A service's own checks must not pass for vigil's.
			return nil, refused("the reply carries %s field of its own (%s), which vigil writes there", vigilField(k), api.Quote(k))
		}
		if strings.EqualFold(k, "activity") {
			activities++
		}
	}
	if activities != 1 || top["activity"] == nil {
		// Go would read another spelling than the "activity" a reader of
		// the JSON reads: the checks would be of another activity.
		return nil, refused("the reply has no single \"activity\" field (it has %d spelt in any case), so its votes cannot be checked", activities)
	}
	// Only what the check reads: an intent vigil does not know must not
	// keep the votes from being checked (its requester's vote then says
	// the intent was not compared).
	var act struct {
		Type           string          `json:"type"`
		OrganizationID string          `json:"organizationId"`
		Fingerprint    string          `json:"fingerprint"`
		CreatedAt      api.Time        `json:"createdAt"`
		Intent         json.RawMessage `json:"intent"`
		Votes          []api.Vote      `json:"votes"`
	}
	if string(bytes.TrimSpace(top["activity"])) == "null" {
		return nil, refused("the reply's activity is null, so there are no votes to check")
	}
	if err := json.Unmarshal(top["activity"], &act); err != nil {
		return nil, refused("the reply's activity cannot be read (%s), so its votes cannot be checked", api.Sanitize(err.Error()))
	}
	a := api.Activity{Type: act.Type, OrganizationID: act.OrganizationID, Fingerprint: act.Fingerprint, CreatedAt: act.CreatedAt, Votes: act.Votes}
	// An intent that does not decode stays empty: the requester's vote then
	// fails, as the intent shown is not one its submission makes.
	_ = json.Unmarshal(act.Intent, &a.Intent)
	var users []api.User
	var readErr error
	if usersToCheck(a) {
		users, readErr = readUsers()
	}
	results, intent := api.CheckActivityVotes(a, users)
	checks := make([]checkedVote, 0, len(a.Votes))
	for i, v := range a.Votes {
		owner, why := keyOwnerJSON(results[i], &a.Votes[i], users, readErr)
		checks = append(checks, checkedVote{VoteID: v.ID, UserID: v.UserID, VoteCheck: results[i], KeyOwner: owner, KeyOwnerReason: why})
	}
	b, err := json.Marshal(checks)
	if err != nil {
		return nil, fmt.Errorf("encode the vote checks: %w", err)
	}
	out := make([]byte, 0, len(trimmed)+len(b)+16)
	out = append(out, trimmed[:len(trimmed)-1]...)
	in, err := json.Marshal(intent)
	if err != nil {
		return nil, fmt.Errorf("encode the intent check: %w", err)
	}
	out = append(out, `,"voteChecks":`...)
	out = append(out, b...)
	out = append(out, `,"intentCheck":`...)
	out = append(out, in...)
	return append(out, '}'), nil
}
