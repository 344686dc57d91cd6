package policy

import (
	"fmt"
	"strings"
)

// unraw writes lit, a raw string literal (prefix and quotes included), as
// the plain single-quoted literal with the same value, every character the
// one-line field would turn or drop written as its escape: a raw string has
// no escapes, so a break inside one could only become a space, another
// string. ok is false when lit needs no escape (it is kept as written) or is
// not closed (it does not compile either way).
func unraw(lit string) (out string, ok bool) {
	at := strings.IndexAny(lit, `'"`)
	if at < 0 {
		return "", false
	}
	prefix, body := lit[:at], lit[at:]
	q := body[:1]
	var content string
	switch {
	case strings.HasPrefix(body, q+q+q):
		if len(body) < 6 || !strings.HasSuffix(body, q+q+q) {
			return "", false
		}
		content = body[3 : len(body)-3]
	case len(body) >= 2 && strings.HasSuffix(body, q):
		content = body[1 : len(body)-1]
	default:
		return "", false
	}
	if !strings.ContainsFunc(content, hiddenInString) {
		return "", false
	}
	// CEL refuses \u in a bytes literal: there a hidden character is its
	// UTF-8 bytes, \xHH each.
	bytesLit := strings.ContainsAny(prefix, "bB")
	var b strings.Builder
	b.WriteString(strings.Trim(prefix, "rR"))
	b.WriteString(q)
	rs := []rune(content)
	for i, r := range rs {
		switch {
		case r == '\r' && i+1 < len(rs) && rs[i+1] == '\n':
			// the pair is one line break, as CEL reads it
		case r == '\\':
			b.WriteString(`\\`)
		case string(r) == q:
			b.WriteString(`\` + q)
		case r == '\n' || r == '\r':
			// CEL reads a lone \r in a literal as a line break too
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case hiddenInString(r) && bytesLit:
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		case hiddenInString(r):
			if r <= 0xFFFF {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(q)
	return b.String(), true
}
