package api

// appendTokenClaims adds, under an oidcToken of an operation shown
// generically, the lines the typed renderer adds (OIDCTokenLines): whose
// identity the token carries, and the member linked to it. Hidden whole as
// a secret, it would let an unknown operation link an attacker's identity
// to a member unseen. Unreadable claims are a doubt here: vigil does not
// know what the service does with such a token in an operation it does not
// know.
func (l *intentLister) appendTokenClaims(token string, depth int) {
	if _, err := ReadOIDCTokenClaims(token); err != nil {
		l.doubt("an OIDC token's claims cannot be read, so whose identity it carries cannot be shown")
	}
	indent := indentOf(depth + 1)
	for _, t := range OIDCTokenLines(token, l.users) {
		l.add(indent + t)
	}
}
