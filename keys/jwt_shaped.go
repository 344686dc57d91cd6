package keys

import "strings"

// An OIDC ID token (a JWT) signs its holder in ('vigil login oauth'): given
// where a file name or an id goes, it is as much a secret as a private key,
// yet its dots keep it from reading as one base64 word. It is recognised by
// its shape instead.

// looksJWT reports whether s is shaped like a JWT in compact form: three
// dot-separated base64url parts (five for an encrypted one), the first a
// JSON header (base64url of `{"`, so "eyJ") long enough to name an
// algorithm, the others non-empty but the last (an unsigned token's
// signature is empty). A file name such as eyJ.json is no such word.
func looksJWT(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 3 && len(parts) != 5 {
		return false
	}
	if !strings.HasPrefix(parts[0], "eyJ") || len(parts[0]) < minJWTHeader {
		return false
	}
	for i, p := range parts {
		if p == "" && i != len(parts)-1 {
			return false
		}
		if strings.ContainsFunc(p, func(r rune) bool { return !isBase64URL(r) }) {
			return false
		}
	}
	return true
}

// minJWTHeader is the length of the shortest header a token has,
// {"alg":"none"} in base64url.
const minJWTHeader = 19

func isBase64URL(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_'
}
