package cli

import (
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// checkPins refuses a method of steps pinned to an id that is not one of u's
// credentials, or to one whose votes prove another type: a service other
// than vigil's may take any id, and such a policy can never be met (the
// policy's user votes with their own credentials only). flags are the --step values, in step order.
func checkPins(u api.User, flags []string, steps []api.AuthenticationStep) error {
	proves := api.CredentialMethodTypes(u)
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

// credentialsByUser maps each user's id to the method type each of their
// credentials proves (api.CredentialMethodTypes): a pin is judged against
// the credentials of the policy's own user, whose votes alone count.
func credentialsByUser(users []api.User) map[string]map[string]string {
	out := make(map[string]map[string]string, len(users))
	for _, u := range users {
		out[u.UserID] = api.CredentialMethodTypes(u)
	}
	return out
}
