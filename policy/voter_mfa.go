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
// the votes decide. sure is false when the policy's one step is an API_KEY
// pinned to one key, which the voter may or may not sign with. An unread
// intent gives nil: the condition would be judged on empty params.
func APIKeyVoteShortOfMfa(pols []api.MfaPolicy, act api.Activity, now time.Time) (p *api.MfaPolicy, sure bool) {
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
	meets, sure := apiKeyVoteMeets(p.RequiredAuthenticationMethods)
	if meets {
		return nil, false
	}
	return p, sure
}

// apiKeyVoteMeets reports whether one vote signed with an API key meets
// steps: a vote proves one credential, and the service matches proofs to
// steps in sequence, each once, so it meets at most a one-step policy that
// accepts an API key. sure is false when that API_KEY is pinned to one key.
func apiKeyVoteMeets(steps []api.AuthenticationStep) (meets, sure bool) {
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
		if m.ID == "" {
			return true, true
		}
		pinned = true
	}
	return false, !pinned
}
