package screens

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// voterMfaWarning is the line the approve dialog adds when the voter's own
// MFA policy applies to act and one vote from this console (signed with an
// API key) cannot meet it: a service that enforces MFA then holds the
// activity as AUTHENTICATORS_NEEDED whatever the consensus, while vigil's
// local service lets the votes decide (docs/console.md). "" when no MFA
// policy applies, the console's vote meets it, or the intent is unread.
func voterMfaWarning(c *Common, act *api.Activity, now time.Time) string {
	if act.IntentUnread() {
		return "" // the condition would be judged on empty params
	}
	i := slices.IndexFunc(c.Org.Users, func(u api.User) bool { return u.UserID == c.Org.UserID })
	if c.Org.UserID == "" || i < 0 {
		return ""
	}
	me := &c.Org.Users[i]
	pols := slices.Clone(me.MfaPolicies)
	slices.SortStableFunc(pols, func(a, b api.MfaPolicy) int { return a.Order - b.Order })
	p, _ := policy.ApplicableMfaPolicy(pols, policy.InputOfActivity(*act, nil, "", now),
		func(cond string) (*policy.Compiled, error) { return policy.Compile(cond, "") })
	if p == nil {
		return ""
	}
	meets, sure := apiKeyVoteMeets(p.RequiredAuthenticationMethods, ownAPIKey(c))
	if meets {
		return ""
	}
	verdict := "cannot meet it"
	if !sure {
		verdict = "may not meet it (its step is pinned to one API key, and which key this console signs with is not known: your keys did not load)"
	}
	steps := describeSteps(p.RequiredAuthenticationMethods, consoleCredentials(c, me, false))
	return ui.Clean(fmt.Sprintf("MFA: your MFA policy %s applies and requires %s; one vote from this console (an API key) %s: a service that enforces MFA holds the activity as %s until it is met, whatever the votes; vigil's local service lets the votes decide",
		api.Quote(p.MfaPolicyName), strings.Join(steps, ", then "), verdict, api.StatusAuthenticatorsNeeded))
}

// apiKeyVoteMeets reports whether one vote signed with an API key meets
// steps: a vote proves one credential, and the service matches proofs to
// steps in sequence, each once, so it meets at most a one-step policy that
// accepts an API key: any, or the one this console signs with (own). sure
// is false when that API_KEY is pinned to a key and which key the console
// signs with is not known.
func apiKeyVoteMeets(steps []api.AuthenticationStep, own ownKey) (meets, sure bool) {
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
		if is, _ := own.is(m.ID); m.ID == "" || is {
			return true, true
		}
		pinned = true
	}
	return false, !pinned || own.known
}
