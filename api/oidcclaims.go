package api

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// OIDCTokenClaims is whom an OIDC token says it signs in, read from its
// payload WITHOUT checking its signature, expiry or audience: only the
// service can. It tells an approver of an oauth activity whose account the
// activity touches (the user it gets a key for, and whose OAuth keys
// invalidateExisting deletes); it proves nothing.
type OIDCTokenClaims struct {
	Issuer  string `json:"iss"`
	Subject string `json:"sub"`
	Email   string `json:"email"`
}

// UnverifiedClaimsLabel heads the claims wherever they are shown, so that
// nobody takes them for checked.
const UnverifiedClaimsLabel = "unverified claims of the token"

// ReadOIDCTokenClaims reads the issuer, subject and email of a JWT, or of
// base64 of one (the service takes both), without verifying anything.
func ReadOIDCTokenClaims(token string) (OIDCTokenClaims, error) {
	var c OIDCTokenClaims
	token = strings.TrimSpace(token)
	if strings.Count(token, ".") != 2 {
		dec, err := decodeAnyBase64(token)
		if err != nil || strings.Count(string(dec), ".") != 2 {
			return c, errors.New("not a JWT (header.payload.signature) nor base64 of one")
		}
		token = string(dec)
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[1])
	if err != nil {
		return c, errors.New("its payload is not base64url")
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return c, errors.New("its payload is not a JSON object with string iss, sub and email")
	}
	return c, nil
}

func decodeAnyBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// OIDCLinkedUser is the user among users whose linked OIDC identity
// (oauthProviders) has the token's issuer and subject: the user the service
// would sign in, were the token genuine.
func OIDCLinkedUser(users []User, c OIDCTokenClaims) (User, bool) {
	for _, u := range users {
		for _, p := range u.OauthProviders {
			if p.Issuer == c.Issuer && p.Subject == c.Subject {
				return u, true
			}
		}
	}
	return User{}, false
}

// OIDCTokenLines are the lines IntentLines shows under an oidcToken: its
// issuer, subject and email, under UnverifiedClaimsLabel, quoted as text is;
// and, when users is not nil, the user linked to that subject (or that none
// is). Every line is safe to print on a terminal.
func OIDCTokenLines(token string, users []User) []string {
	return OIDCTokenLinesNaming(token, users, func(u User) string { return NameWithID(u.UserName, u.UserID) })
}

// OIDCTokenLinesNaming is OIDCTokenLines naming the linked user with name
// (which must make the name safe to print): the console's vote dialog
// quotes every member.
func OIDCTokenLinesNaming(token string, users []User, name func(User) string) []string {
	c, err := ReadOIDCTokenClaims(token)
	if err != nil {
		return []string{UnverifiedClaimsLabel + ": (unreadable: " + err.Error() + "; the service will refuse it)"}
	}
	text := func(s string) string {
		if s == "" {
			return "(none)"
		}
		return Quote(s)
	}
	lines := []string{UnverifiedClaimsLabel + " (not checked here; the service checks the signature):",
		"  iss:   " + text(c.Issuer),
		"  sub:   " + text(c.Subject),
		"  email: " + fieldText("label", c.Email)} // descriptive only: shortened when long
	if users != nil {
		if u, ok := OIDCLinkedUser(users, c); ok {
			lines = append(lines, "  user:  "+name(u)+", whom this organization links to that subject")
		} else {
			lines = append(lines, "  user:  (no user of this organization is linked to that subject)")
		}
	}
	return lines
}
