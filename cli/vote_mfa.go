package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// warnVoterMfa says on standard error, before an approval is confirmed or
// sent, when the voter's own MFA policy applies to the activity and one vote
// from vigil (signed with an API key) cannot meet it: the console's approve
// dialog warns the same (policy.APIKeyVoteShortOfMfa). It only warns: a
// check that cannot be made is said, and the vote goes on as before.
func warnVoterMfa(ctx context.Context, c proc, client *api.Client, a shownActivity) {
	me, err := client.Whoami(ctx)
	if err == nil {
		var pols []api.MfaPolicy
		if pols, err = client.GetMfaPolicies(ctx, me.UserID); err == nil {
			if w := voterMfaWarning(pols, *a.exact, time.Now(), signingKey(ctx, client, me.UserID)); w != "" {
				fmt.Fprintf(c.stderr, "vigil: warning: %s\n", w)
			}
			return
		}
	}
	fmt.Fprintf(c.stderr, "vigil: %s\n", policy.MfaUnchecked(err))
}

// voterMfaWarning is the warning for the voter's MFA policies pols on act,
// "" when none applies or one vote meets it; every word from the service is
// sanitized.
func voterMfaWarning(pols []api.MfaPolicy, act api.Activity, now time.Time, own policy.SigningKey) string {
	p, sure := policy.APIKeyVoteShortOfMfa(pols, act, now, own)
	if p == nil {
		return ""
	}
	verdict := "cannot meet it"
	if !sure {
		verdict = "may not meet it (which of your keys vigil signs with could not be read)"
	}
	return fmt.Sprintf("your MFA policy %s applies to this activity and requires %s; one vote from vigil (signed with %s) %s: a service that enforces MFA holds the activity as %s until it is met, whatever the votes; vigil's local service lets the votes decide",
		api.Quote(p.MfaPolicyName), stepsText(p.RequiredAuthenticationMethods, pinCreds{}), own.ProvesLabel(), verdict, api.StatusAuthenticatorsNeeded)
}

// signingKey finds which of user userID's API keys client signs with, by
// its public key and curve; not Known when the key or the user's keys cannot be read
// (then a pinned step can only be said to maybe be it).
func signingKey(ctx context.Context, client *api.Client, userID string) policy.SigningKey {
	pub := stamperPublicKey(client.Stamper())
	if pub == "" {
		return policy.SigningKey{}
	}
	u, err := client.GetUser(ctx, userID)
	if err != nil {
		return policy.SigningKey{}
	}
	return policy.SigningKeyOf(u, stamperScheme(client.Stamper()), pub)
}
