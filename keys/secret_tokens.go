package keys

import (
	"encoding/base64"
	"net/netip"
	"net/url"
	"strings"
	"unicode"
)

// A key is often pasted with what surrounded it: its JSON quotes, a comma,
// a line before it, a "key=" in front. Hiding and refusing it only when the
// whole argument is the key would print it again in every such case, so
// the checks also look at the tokens of an argument.

// SecretTokens are the parts of s that look like a private key
// (looksSecret): s itself, each field of s split at white space, commas,
// quotes, brackets and backslashes, and each part of a field split further
// at '=' and ':'. A fingerprint (sha256:<hex>, SHA256:<base64>) is a
// public value, never one of them.
func SecretTokens(s string) []string {
	var found []string
	if looksSecret(s) {
		found = append(found, s)
	}
	for _, field := range strings.FieldsFunc(s, isTokenSeparator) {
		if field != s && looksSecretToken(field) {
			found = append(found, field)
			continue
		}
		pieces := strings.Split(field, "=")
		for i, piece := range pieces {
			// --key=ssh-agent:SHA256:…; an '=' after the 43 characters
			// is base64's padding: a 32-byte key's, never a fingerprint's.
			if i == len(pieces)-1 && isFingerprint(piece) {
				continue
			}
			parts := strings.FieldsFunc(piece, func(r rune) bool { return r == ':' })
			for j, part := range parts {
				if part != field && looksSecretToken(part) && !(j > 0 && isHashAfterAlgorithm(parts[j-1], part)) {
					found = append(found, part)
				}
			}
		}
	}
	return found
}

// looksSecretToken is looksSecret for a part of a longer argument, where
// public hex stands often (a policy's `eth.tx.to == '0x…'` names a 40-digit
// address): hex there must be at least as long as a private key's 64 digits.
func looksSecretToken(t string) bool {
	if !looksSecret(t) {
		return false
	}
	h := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(t), "0x"), "0X")
	return !isHex(h) || len(h) >= 64
}

// isHashAfterAlgorithm reports whether part is hex written after sha256:
// at the end of the text before it, as an image is pinned
// (ghcr.io/acme/api@sha256:<hex>): a digest, as a lone sha256:<hex> is
// (isFingerprint).
func isHashAfterAlgorithm(before, part string) bool {
	return len(before) >= len("sha256") && strings.EqualFold(before[len(before)-len("sha256"):], "sha256") && isHex(part)
}

// TextSecretTokens are the SecretTokens of free text (a name, notes) held
// to looksSecretToken's rule, the text as a whole too: hex there must be a
// private key's 64 digits, as a shorter run is an id, a commit or an
// address (a contract labelled by its 0x address), never a key.
func TextSecretTokens(s string) []string {
	var found []string
	for _, t := range SecretTokens(s) {
		if looksSecretToken(t) {
			found = append(found, t)
		}
	}
	return found
}

// HasSecretToken reports whether any part of s looks like a private key
// (SecretTokens).
func HasSecretToken(s string) bool {
	return len(SecretTokens(s)) > 0
}

// isTokenSeparator reports whether r separates the fields of an argument.
func isTokenSeparator(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune(",;\"'`()[]{}<>\\", r)
}

// isFingerprint reports whether field is a fingerprint: sha256:<hex>, the
// form vigil prints and takes for key files, or OpenSSH's SHA256:<43 base64
// characters>, alone or in an agent key reference (ssh-agent:SHA256:…),
// whose base64 is otherwise taken for an Ed25519 key's.
func isFingerprint(field string) bool {
	prefix, rest, ok := strings.Cut(field, ":")
	if ok && strings.EqualFold(prefix, "sha256") && isHex(rest) {
		return true
	}
	return sha256FingerprintRE.MatchString(strings.TrimPrefix(field, AgentRefPrefix))
}

// URLHoldsSecret reports whether URL s holds what looks like a private key
// anywhere in it (HasSecretToken), or in one of its parts: a label of its
// host, its user name or password, a segment of its path, a name or value
// of its query, its fragment. A hex key as a host ("https://<hex>") hides
// from HasSecretToken behind the scheme's "//", and would go to the
// resolver and back in "cannot resolve the host …". Hex in a part must be a
// private key's 64 digits (looksSecretToken): a shorter run may be an id.
// What is an ordinary URL's is not taken for a key: an IPv6 literal's 32
// hex digits, nor ids in successive path segments (only a whole path that
// is one base64 key, its '/' the key's, is).
func URLHoldsSecret(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return HasSecretToken(s)
	}
	if HasSecretToken(withoutIPHost(s, u)) {
		return true
	}
	parts := strings.FieldsFunc(u.Host, func(r rune) bool { return strings.ContainsRune(".:[]", r) })
	if u.User != nil {
		password, _ := u.User.Password()
		parts = append(parts, u.User.Username(), password)
	}
	for _, p := range []string{u.Path, u.Opaque} {
		if whole := strings.Trim(p, "/"); strings.Contains(whole, "/") && isBase64Key(whole) {
			return true
		}
		parts = append(parts, strings.Split(p, "/")...)
	}
	query, _ := url.ParseQuery(u.RawQuery) // what parses is checked; the rest stays in s
	for name, values := range query {
		parts = append(parts, name)
		parts = append(parts, values...)
	}
	parts = append(parts, u.Fragment)
	for _, p := range parts {
		if p == "" {
			continue
		}
		if looksSecretToken(p) {
			return true
		}
		for _, t := range SecretTokens(p) {
			if looksSecretToken(t) {
				return true
			}
		}
	}
	return false
}

// withoutIPHost is s without its host when that is an IP address: an IPv6
// literal written out in full ([2001:0db8:…:7334]) is 32 hex digits
// separated by ':', which HasSecretToken takes for a key.
func withoutIPHost(s string, u *url.URL) string {
	if _, err := netip.ParseAddr(u.Hostname()); err != nil || u.Host == "" {
		return s
	}
	return strings.Replace(s, u.Host, "", 1)
}

// isBase64Key reports whether s looks like a private key (looksSecret) and
// is the standard base64 of one: 32 or 64 bytes.
func isBase64Key(s string) bool {
	if !looksSecret(s) {
		return false
	}
	b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	return err == nil && (len(b) == 32 || len(b) == 64)
}
