package api

import (
	"encoding/json"
	"errors"

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
// keys come from the same service.
func CheckVote(a Activity, v Vote) VoteCheck {
	notCheckable := func(why string) VoteCheck { return VoteCheck{State: VoteNotCheckable, Reason: why} }
	failed := func(why string) VoteCheck { return VoteCheck{State: VoteFailed, Reason: why} }
	switch {
	case v.Message == "":
		return notCheckable("the service sent no signed message")
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
		return VoteCheck{State: VoteVerified, Reason: "signed the activity's submission"}
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
	if selection == VoteApproved {
		return VoteCheck{State: VoteVerified, Reason: "signed an approval of this activity"}
	}
	return VoteCheck{State: VoteVerified, Reason: "signed a rejection of this activity"}
}
