package screens

import (
	"errors"
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
// local service lets the votes decide (docs/console.md). note is what the
// prediction adds then. Both "" when no MFA policy applies, the console's
// vote meets it, or the intent is unread. The policies are the ones
// get_mfa_policies gave at the organization's load, as the CLI's approve
// reads them; without them, the user record's; when neither is there and
// the read failed, the line says they could not be checked.
func voterMfaWarning(c *Common, act *api.Activity, now time.Time) (line, note string) {
	var me *api.User
	if i := slices.IndexFunc(c.Org.Users, func(u api.User) bool { return u.UserID == c.Org.UserID }); c.Org.UserID != "" && i >= 0 {
		me = &c.Org.Users[i]
	}
	pols := c.Org.OwnMfaPolicies
	if pols == nil && me != nil {
		pols = me.MfaPolicies
	}
	if pols == nil {
		err := c.Org.OwnMfaPoliciesErr
		if err == nil && c.Org.UserID == "" {
			err = errors.New("who you are did not load")
		}
		if err != nil {
			return ui.Clean("MFA: " + policy.MfaUnchecked(err)), "whether your MFA policy holds it could not be checked (below)"
		}
	}
	own := ownAPIKey(c)
	p, sure := policy.APIKeyVoteShortOfMfa(pols, *act, now, own)
	if p == nil {
		return "", ""
	}
	verdict := "cannot meet it"
	if !sure {
		verdict = "may not meet it (which key this console signs with is not known: your keys did not load)"
	}
	steps := describeSteps(p.RequiredAuthenticationMethods, consoleCredentials(c, me, false))
	return ui.Clean(fmt.Sprintf("MFA: your MFA policy %s applies and requires %s; one vote from this console (%s) %s: a service that enforces MFA holds the activity as %s until it is met, whatever the votes; vigil's local service lets the votes decide",
		api.Quote(p.MfaPolicyName), strings.Join(steps, ", then "), own.ProvesLabel(), verdict, api.StatusAuthenticatorsNeeded)), "your MFA policy may hold it (below)"
}
