package api

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/vigil-console/vigil/keys"
)

// States of a VoteCheck.
const (
	// VoteVerified: the signature verifies over the vote's message with its
	// public key, and the message is this activity's submission or a vote
	// of the vote's selection on it.
	VoteVerified = "verified"
	// VoteNotCheckable: vigil cannot tell (no message, a passkey's or an
	// unknown scheme, a message of a shape vigil does not know). Not an
	// alarm: the service may fill message in a way vigil does not read.
	VoteNotCheckable = "not checkable"
	// VoteFailed: the message is a request body, and either its signature
	// does not verify or it is a request for something else than this vote.
	VoteFailed = "FAILED"
)

// VoteCheck is what CheckVote found: State is one of the Vote* states
// above and Reason says why in a few words (free of text from the vote).
type VoteCheck struct {
	State  string `json:"state"`
	Reason string `json:"reason"`
}

// CheckVote checks that vote v, as a reply shows it on activity a, was
// signed by its public key for this very activity: its signature over its
// message (the exact request body the stamp signed), and the message's
// binding to a (its own submission, or an approve/reject of a's
// fingerprint in a's organization, of the vote's selection). It does no
// I/O. It does not check that the key is the vote's user's: the user's
// keys come from the same service. But one signed vote shown under two
// users fails (both copies), as does a vote shown cast at another time
// than its message was signed (SignedTimeTolerance), and the requester's
// vote under an activity shown as another request than the one signed.
// To check all of a's votes, CheckVotes is cheaper; CheckActivityVotes
// also says whether the intent shown is bound by a verified submission.
func CheckVote(a Activity, v Vote) VoteCheck {
	// v in a's place (as shown, it may differ from a's copy in what
	// sameVote does not compare), or first when a does not show it.
	with := a
	at := 0
	with.Votes = append([]Vote{v}, a.Votes...)
	for i := range a.Votes {
		if sameVote(&a.Votes[i], &v) {
			with.Votes, at = slices.Clone(a.Votes), i
			with.Votes[i] = v
			break
		}
	}
	checks, _ := CheckActivityVotes(with, nil)
	return checks[at]
}

// voteNoMessageReason is why a vote shown without its message is not checkable.
const voteNoMessageReason = "the service sent no signed message"

// checkVote checks v alone; prev is the createdAt of the vote before it
// in a's list (zero when none), which the service may have dated it with
// (castTimeDiff).
func checkVote(a Activity, v Vote, prev Time) VoteCheck {
	notCheckable := func(why string) VoteCheck { return VoteCheck{State: VoteNotCheckable, Reason: why} }
	failed := func(why string) VoteCheck { return VoteCheck{State: VoteFailed, Reason: why} }
	switch {
	case v.Message == "":
		return notCheckable(voteNoMessageReason)
	case len(v.Message) > MaxRequestBodyBytes:
		return notCheckable("the message is over the service's 1 MiB body limit")
	case v.Scheme == keys.SchemeWebAuthn:
		return notCheckable("a passkey vote: its signature is over authenticator data the vote does not carry")
	case v.Scheme != keys.SchemeP256 && v.Scheme != keys.SchemeSecp256k1 && v.Scheme != keys.SchemeEd25519:
		return notCheckable("a signature scheme vigil does not know")
	case a.Fingerprint == "":
		return notCheckable("the activity shows no fingerprint to bind the message to")
	}
	msg := []byte(v.Message)
	if CheckStrictJSON(msg) != nil {
		return notCheckable("the message is not a JSON request body")
	}
	var req struct {
		Type           string          `json:"type"`
		OrganizationID string          `json:"organizationId"`
		TimestampMs    string          `json:"timestampMs"`
		Parameters     json.RawMessage `json:"parameters"`
	}
	if json.Unmarshal(msg, &req) != nil || req.Type == "" || req.OrganizationID == "" || req.TimestampMs == "" || len(req.Parameters) == 0 {
		return notCheckable("the message is not a JSON request body")
	}
	if _, err := keys.VerifyFields(keys.Stamp{PublicKey: v.PublicKey, Scheme: v.Scheme, Signature: v.Signature}, msg); err != nil {
		if errors.Is(err, keys.ErrBadSignature) {
			return failed("the signature does not verify over the message with the vote's public key")
		}
		// A key or signature vigil cannot read is not a signature that
		// fails: the service may encode them in a way vigil does not know.
		return notCheckable("the vote's public key or signature is in a form vigil cannot read")
	}
	if BodyFingerprint(msg) == a.Fingerprint {
		if v.Selection != VoteApproved {
			return failed("the message is the activity's submission, which counts as an approval, but the vote is not one")
		}
		return submissionCheck(a, v, prev, req.Type, req.OrganizationID, req.TimestampMs, req.Parameters)
	}
	var selection string
	switch req.Type {
	case TypeApproveActivity:
		selection = VoteApproved
	case TypeRejectActivity:
		selection = VoteRejected
	default:
		return failed("the message is another request, not this activity's submission nor a vote on it")
	}
	var params struct {
		Fingerprint string `json:"fingerprint"`
	}
	switch {
	case json.Unmarshal(req.Parameters, &params) != nil || params.Fingerprint != a.Fingerprint:
		return failed("the message is a vote on another activity")
	case req.OrganizationID != a.OrganizationID:
		return failed("the message is a vote in another organization")
	case selection != v.Selection:
		return failed("the message is a vote of the other selection")
	}
	note, why := castTimeDiff(req.TimestampMs, v.CreatedAt, prev)
	if why != "" {
		return failed(why)
	}
	if selection == VoteApproved {
		return VoteCheck{State: VoteVerified, Reason: approvalSigned + note}
	}
	return VoteCheck{State: VoteVerified, Reason: "signed a rejection of this activity" + note}
}

// submissionCheck is the check of vote v whose verified message is a's
// submission (type typ in org, signed at ts, with params): the activity
// must be shown as that very request, when it was made.
func submissionCheck(a Activity, v Vote, prev Time, typ, org, ts string, params json.RawMessage) VoteCheck {
	failed := func(why string) VoteCheck { return VoteCheck{State: VoteFailed, Reason: why} }
	const other = "the activity is shown as another request than the one its requester signed: "
	switch {
	case typ != a.Type:
		return failed(other + "its type differs from the signed submission's")
	case org != a.OrganizationID:
		return failed(other + "its organization differs from the signed submission's")
	}
	note, why := castTimeDiff(ts, v.CreatedAt, prev)
	if why != "" {
		return failed(why)
	}
	if why := signedTimeDiff(ts, a.CreatedAt, "submitted"); why != "" {
		return failed("the activity's submission is " + why)
	}
	field, notCompared := intentDiff(a, typ, params)
	switch {
	case field != "":
		return failed(other + "the intent shown differs from the signed submission in " + field)
	case notCompared != "":
		return VoteCheck{State: VoteVerified, Reason: "signed the activity's submission (" + notCompared + ")" + note}
	}
	return VoteCheck{State: VoteVerified, Reason: SubmissionSigned + note}
}

// approvalSigned begins the reason of a verified approval (CheckActivityVotes
// rewrites it while the intent is not checked).
const approvalSigned = "signed an approval of this activity"

// SubmissionSigned is the reason of the requester's verified vote: the
// strong check, that the intent shown is the one signed.
const SubmissionSigned = "signed the activity's submission: the type, organization and intent shown are the ones its requester signed"
