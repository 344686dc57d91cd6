package server

import (
	"encoding/json"
	"fmt"
	"strings"
)

// checkTokenType refuses a JWS whose header typ says it is not an ID token.
// An ID token's typ is "JWT" (or absent, or the full media type); an issuer
// signs its access tokens (RFC 9068: at+jwt), logout tokens (logout+jwt) and
// others with the same keys, so without this check one of those, carrying
// the same iss/sub/aud, could be exchanged as if it were an ID token.
func checkTokenType(typ *string) error {
	if typ == nil || strings.EqualFold(*typ, "JWT") || strings.EqualFold(*typ, "application/jwt") {
		return nil
	}
	return fmt.Errorf("JWT type (typ) %q is refused: an ID token's typ is \"JWT\" or absent, and this one is another kind of token "+
		"(an access token is at+jwt, a logout token logout+jwt); send the provider's ID token", truncateForMessage(*typ))
}

// audiences returns the token's aud as a list: a string is one audience, an
// array several; anything else (absent, null, a number) is none.
func (c oidcClaims) audiences() []string {
	var one string
	if json.Unmarshal(c.Audience, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(c.Audience, &many) == nil {
		return many
	}
	return nil
}

func (c oidcClaims) hasAudience(aud string) bool {
	for _, a := range c.audiences() {
		if a == aud {
			return true
		}
	}
	return false
}

// checkAuthorizedParty applies OpenID Connect Core 1.0 §3.1.3.7 to a token
// whose aud already includes audience, the one client id this organization
// accepts from its issuer: a token for several audiences must name that
// client id in azp (it was issued to this client, not to another one that
// merely lists it). A token whose only audience is this client was issued
// for it, whatever its azp says: Google's tokens for a mobile app's backend
// carry aud = the backend's client id and azp = the app's own, and Google
// tells backends to check aud.
func (c oidcClaims) checkAuthorizedParty(audience string) error {
	n := len(c.audiences())
	if n <= 1 {
		return nil
	}
	switch {
	case c.AuthorizedParty == nil:
		return fmt.Errorf("token has %d audiences (aud) and no authorized party (azp); a token for several audiences must name %q, "+
			"the client id this organization accepts from %s, in azp (OpenID Connect Core 1.0 §3.1.3.7); ask the provider for a token issued to that client", n, audience, c.Issuer)
	case *c.AuthorizedParty != audience:
		return fmt.Errorf("authorized party (azp) %q is not %q, the client id this organization accepts from %s, and the token has %d audiences: it was issued to another client; "+
			"sign in through this organization's client", truncateForMessage(*c.AuthorizedParty), audience, c.Issuer, n)
	}
	return nil
}
