package policy

import (
	"slices"
	"time"

	"github.com/vigil-console/vigil/api"
)

// APIKeyVoteShortOfMfa is the voter's own MFA policy (of pols, theirs) that
// applies to act and that one vote signed with an API key — the console's
// and the CLI's — cannot meet, nil when none applies or the vote meets it.
// A service that enforces MFA holds such an activity as
// AUTHENTICATORS_NEEDED whatever the consensus; vigil's local service lets
// the votes decide. own is the key the voter signs with, as far as it is
// known: sure is false when the policy's one step is an API_KEY pinned to
// one key and which key the voter signs with is not known. An unread intent
// gives nil: the condition would be judged on empty params.
func APIKeyVoteShortOfMfa(pols []api.MfaPolicy, act api.Activity, now time.Time, own SigningKey) (p *api.MfaPolicy, sure bool) {
	if act.IntentUnread() {
		return nil, false
	}
	pols = slices.Clone(pols)
	slices.SortStableFunc(pols, func(a, b api.MfaPolicy) int { return a.Order - b.Order })
	p, _ = ApplicableMfaPolicy(pols, InputOfActivity(act, nil, "", now),
		func(cond string) (*Compiled, error) { return Compile(cond, "") })
	if p == nil {
		return nil, false
	}
	meets, sure := apiKeyVoteMeets(p.RequiredAuthenticationMethods, own)
	if meets {
		return nil, false
	}
	return p, sure
}

// SigningKey is what a voter knows of the API key it signs with: Known
// when its user's keys were read and its public key is known, ID the id of
// the one among them it is ("" when none is).
type SigningKey struct {
	Known bool
	ID    string
}

// apiKeyVoteMeets reports whether one vote signed with an API key meets
// steps: a vote proves one credential, and the service matches proofs to
// steps in sequence, each once, so it meets at most a one-step policy that
// accepts an API key: any, or the one the voter signs with (own). sure is
// false when that API_KEY is pinned to a key and which key the voter signs
// with is not known.
func apiKeyVoteMeets(steps []api.AuthenticationStep, own SigningKey) (meets, sure bool) {
	switch len(steps) {
	case 0:
		return true, true
	case 1:
	default:
		return false, true
	}
	pinned := false
	for _, m := range steps[0].Any {
		if m.Type != api.AuthAPIKey {
			continue
		}
		if m.ID == "" || (own.Known && own.ID != "" && m.ID == own.ID) {
			return true, true
		}
		pinned = true
	}
	return false, !pinned || own.Known
}
