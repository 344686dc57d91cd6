package cli

import (
	"context"

	"github.com/vigil-console/vigil/api"
)

// oidcUsers lists the organization's users when a's intent holds an OIDC
// token, so that the user its subject is linked to is named (intentShown),
// in the vote prompt and in activity get alike; nil otherwise. An intent
// shown field by field may hold an oidcToken too (the real service's
// createOauthProvidersIntent): its user is named the same. When the users
// cannot be listed, note says the user is not named, and why.
func oidcUsers(ctx context.Context, client *api.Client, a shownActivity) (users []api.User, note string) {
	if a.exact.Intent.OauthIntent == nil && !holdsOIDCToken(a.exact.Intent) {
		return nil, ""
	}
	users, err := client.ListUsers(ctx)
	if err != nil {
		return nil, "(the organization's users could not be listed, so the user the token's subject is linked to is not named)"
	}
	return users, ""
}
