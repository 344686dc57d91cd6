package api

import (
	"strings"

	"github.com/vigil-console/vigil/keys"
)

// States of an IntentCheck.
const (
	// IntentChecked: the requester's vote verified as the activity's
	// signed submission, by a key the user list holds as theirs, and the
	// type, organization and intent shown are the ones it signed.
	IntentChecked = "checked"
	// IntentPartlyChecked: a vote verified as the signed submission, but
	// part of the intent shown could not be compared with it, or its key
	// could not be checked to be the requester's (the user list not read,
	// or holding keys of theirs vigil cannot read); the reason says which.
	IntentPartlyChecked = "partly checked"
	// IntentNotChecked: no vote verified as the signed submission, so
	// nothing binds the type, organization and intent shown to what the
	// requester signed. Not always an attack (a passkey requester, a vote
	// recorded before votes carried messages), but the intent shown may be
	// any: approvals sign the fingerprint, not the intent.
	IntentNotChecked = "NOT checked"
)

// IntentCheck is what the vote checks say of the activity as a whole:
// whether the type, organization and intent shown are bound by a verified
// signed submission (State, one of the Intent* states), and why not.
type IntentCheck struct {
	State  string `json:"state"`
	Reason string `json:"reason"`
}

// notBoundApproval is the reason of a verified approval while the intent
// is not checked: the approval signed a fingerprint, which vouches for
// nothing shown unless a verified submission binds it.
const notBoundApproval = "signed an approval of this activity's fingerprint; the type and intent shown are NOT checked against a signed submission"

// CheckActivityVotes checks a's votes (CheckVotes) and says whether the
// type, organization and intent shown are bound by a verified signed
// submission. users is the organization's user list (nil: not read; the
// intent is then at best partly checked, its signer not checked to be the
// requester): a vote under a passkey's or an unknown scheme whose key the list holds as
// the voter's API key FAILS (SchemeContradiction). While the intent is not
// checked, a verified approval's reason says it signed the fingerprint
// only. It does no I/O.
func CheckActivityVotes(a Activity, users []User) ([]VoteCheck, IntentCheck) {
	copied := copiedVotes(a.Votes)
	checks := make([]VoteCheck, len(a.Votes))
	for i, v := range a.Votes {
		checks[i] = checkVote(a, v, voteBefore(a.Votes, i))
		if copied[i] && checks[i].State == VoteVerified {
			checks[i] = VoteCheck{State: VoteFailed, Reason: copiedReason}
		}
		if checks[i].State == VoteNotCheckable {
			if why := SchemeContradiction(users, &a.Votes[i]); why != "" {
				checks[i] = VoteCheck{State: VoteFailed, Reason: why}
			}
		}
	}
	intent, unproven := intentCheck(a, checks, users)
	if unproven >= 0 {
		// The intent line says the signer is not checked to be the
		// requester: the vote's own reason must not say the requester
		// signed it.
		if rest, ok := strings.CutPrefix(checks[unproven].Reason, SubmissionSigned); ok {
			checks[unproven].Reason = unprovenSubmission + rest
		}
	}
	if intent.State == IntentNotChecked {
		for i := range checks {
			if checks[i].State != VoteVerified || a.Votes[i].Selection != VoteApproved {
				continue
			}
			if rest, ok := strings.CutPrefix(checks[i].Reason, approvalSigned); ok {
				checks[i].Reason = notBoundApproval + rest
			} else {
				checks[i].Reason = notRequestersSubmission + redatedNote(checks[i].Reason)
			}
		}
	}
	return checks, intent
}

// notRequestersSubmission is the reason of a verified submission while the
// intent is not checked: it was signed, but not checked to be signed by
// the requester shown, so it does not vouch for what they asked.
const notRequestersSubmission = "signed the activity's submission with the key shown, but it is not checked to be the requester's: see the intent check"

// unprovenSubmission is the reason of a verified submission while the
// intent is partly checked because its key is not proven the requester's
// (requesterSubmission's unproven): what the key signed is shown, whose
// key it is is not known.
const unprovenSubmission = "signed the activity's submission with the key shown: the type, organization and intent shown are the ones that key signed; not checked to be the requester's: see the intent check"

// redatedNote is the note castTimeDiff added to reason, "" when none.
func redatedNote(reason string) string {
	if i := strings.Index(reason, redatedNotePrefix); i >= 0 {
		return reason[i:]
	}
	return ""
}

// intentCheck is a's IntentCheck from its votes' checks. A verified
// submission checks the intent only as the requester shown's own, by a key
// users (the organization's user list; nil: not read) hold as theirs
// (requesterSubmission); short of that proof, only partly. unproven is
// the vote whose verified submission lacks that proof alone (its reason
// must not name the requester as its signer), -1 when none.
func intentCheck(a Activity, checks []VoteCheck, users []User) (in IntentCheck, unproven int) {
	const cannot = "vigil cannot check that the intent shown is the one its requester signed: "
	failed, uncheckable := -1, -1
	for i := range checks {
		sub := isSubmission(a, &a.Votes[i])
		if sub && checks[i].State == VoteVerified {
			notMine, why := requesterSubmission(a, i, users)
			switch {
			case notMine != "":
				return IntentCheck{State: IntentNotChecked, Reason: cannot + notMine}, -1
			case why != "" && strings.HasPrefix(checks[i].Reason, SubmissionSigned):
				// why says what the key signed; the re-dated note stays.
				return IntentCheck{State: IntentPartlyChecked, Reason: why + redatedNote(checks[i].Reason)}, i
			case why != "":
				return IntentCheck{State: IntentPartlyChecked, Reason: checks[i].Reason + "; " + why}, i
			case checks[i].Reason == SubmissionSigned:
				return IntentCheck{State: IntentChecked, Reason: SubmissionSigned}, -1
			}
			return IntentCheck{State: IntentPartlyChecked, Reason: checks[i].Reason}, -1
		}
		switch {
		case sub && checks[i].State == VoteFailed && failed < 0:
			failed = i
		case checks[i].State == VoteNotCheckable && a.Votes[i].Selection == VoteApproved && uncheckable < 0:
			uncheckable = i
		}
	}
	switch {
	case failed >= 0:
		return IntentCheck{State: IntentNotChecked, Reason: cannot + "the vote carrying its signed submission FAILED its check"}, -1
	case uncheckable >= 0:
		return IntentCheck{State: IntentNotChecked, Reason: cannot + "a vote that may be its requester's is not checkable (" + checks[uncheckable].Reason + ")"}, -1
	}
	return IntentCheck{State: IntentNotChecked, Reason: cannot + "no vote shown carries its signed submission"}, -1
}

// isSubmission reports whether v's message is a's submission: the body
// whose fingerprint a shows (signed or not).
func isSubmission(a Activity, v *Vote) bool {
	return a.Fingerprint != "" && v.Message != "" && len(v.Message) <= MaxRequestBodyBytes && BodyFingerprint([]byte(v.Message)) == a.Fingerprint
}

// SchemeContradiction is why vote v FAILS when users (the organization's
// user list; nil: not read) contradict its scheme, "" when they do not: v
// is shown signed with a passkey's scheme, or one vigil does not know,
// while the list holds its very key as the voter's API key of a type vigil
// knows. An API key's stamp signs the request body, which its vote
// carries and vigil checks; a passkey label on it hides that check, which
// is what a proxy that rewrote the intent would do to the requester's
// vote. A key the list also holds as one of the voter's passkeys is not
// contradicted.
func SchemeContradiction(users []User, v *Vote) string {
	if KnownAPIScheme(v.Scheme) {
		return ""
	}
	for i := range users {
		u := &users[i]
		if u.UserID != v.UserID {
			continue
		}
		same := func(c Credential) bool {
			curve := credentialCurve(c.Type)
			want, ok1 := curveKey(curve, v.PublicKey)
			got, ok2 := curveKey(curve, c.PublicKey)
			return ok1 && ok2 && want == got
		}
		for _, k := range u.Authenticators {
			if same(k.Credential) {
				return ""
			}
		}
		for _, k := range u.APIKeys {
			if k.Credential.Type != keys.CredentialWebAuthnAuthenticator && same(k.Credential) {
				what := "a passkey's scheme"
				if v.Scheme != keys.SchemeWebAuthn {
					what = "a signature scheme vigil does not know"
				}
				return "the vote is shown signed under " + what + ", but the organization's user list holds its key as the voter's API key, whose votes carry a signed message vigil checks: its scheme was relabelled"
			}
		}
		return ""
	}
	return ""
}

// KnownAPIScheme reports whether scheme is one of the API-key schemes
// vigil checks (whose votes SchemeContradiction never contradicts).
func KnownAPIScheme(scheme string) bool {
	return scheme == keys.SchemeP256 || scheme == keys.SchemeSecp256k1 || scheme == keys.SchemeEd25519
}
