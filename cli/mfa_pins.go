package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

// checkPins refuses a method of steps pinned to an id that is not one of u's
// credentials, to one whose votes prove another type, or to an API key that
// has expired at now: a service other than vigil's may take any id, and such
// a policy can never be met (the policy's user votes with their own
// credentials only, and an expired key signs nothing). flags are the --step
// values, in step order.
func checkPins(u api.User, flags []string, steps []api.AuthenticationStep, now time.Time) error {
	proves := api.CredentialMethodTypes(u)
	expired := api.ExpiredAPIKeys(now, u)
	who := api.NameWithID(u.UserName, u.UserID)
	for i, s := range steps {
		for _, m := range s.Any {
			if m.ID == "" {
				continue
			}
			p, known := proves[m.ID]
			switch {
			case !known:
				return usagef("mfa create: --step %q: %s has no credential with id %s, so no vote could ever meet it; %s",
					flags[i], who, api.Quote(m.ID), credentialList(u))
			case p != m.Type:
				return usagef("mfa create: --step %q: credential %s of %s proves %s, not %s, so no vote could ever meet it; %s",
					flags[i], api.Quote(m.ID), who, authTypeText(p), authTypeText(m.Type), credentialList(u))
			case !expired[m.ID].IsZero():
				return usagef("mfa create: --step %q: API key %s of %s expired at %s, and every request it stamps is refused, so no vote could ever meet it; pin a key that has not expired, or leave the id out; %s",
					flags[i], api.Quote(m.ID), who, expired[m.ID].UTC().Format(time.RFC3339), credentialList(u))
			}
		}
	}
	return nil
}

// credentialList names u's credentials and the method each proves, for an
// error that asks for one of them.
func credentialList(u api.User) string {
	var parts []string
	for _, a := range u.Authenticators {
		parts = append(parts, fmt.Sprintf("passkey:%s (%s)", api.SanitizeID(a.AuthenticatorID), api.Quote(a.AuthenticatorName)))
	}
	for _, k := range u.APIKeys {
		t := strings.ToLower(authTypeText(api.AuthenticationTypeOf(k.Credential.Type)))
		parts = append(parts, fmt.Sprintf("%s:%s (%s)", t, api.SanitizeID(k.APIKeyID), api.Quote(k.APIKeyName)))
	}
	if len(parts) == 0 {
		return "they have no credential to pin: leave the id out"
	}
	return "theirs: " + strings.Join(parts, ", ")
}

// authTypeText is an authentication type without its prefix: PASSKEY.
func authTypeText(t string) string {
	return strings.TrimPrefix(api.Sanitize(t), "AUTHENTICATION_TYPE_")
}

// pinCreds is what judging a user's pins needs: the method type each of
// their credentials proves, by id (nil: unknown, and pins are not judged),
// and when each of their API keys that has expired did.
type pinCreds struct {
	proves  map[string]string
	expired map[string]time.Time
}

// credentialsByUser maps each user's id to their pinCreds at now: a pin is
// judged against the credentials of the policy's own user, whose votes
// alone count.
func credentialsByUser(users []api.User, now time.Time) map[string]pinCreds {
	out := make(map[string]pinCreds, len(users))
	for _, u := range users {
		out[u.UserID] = pinCreds{proves: api.CredentialMethodTypes(u), expired: api.ExpiredAPIKeys(now, u)}
	}
	return out
}
