package policy

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/vigil-console/vigil/api"
)

// OneLine makes a multi-line expression one line that means the same: each
// line's `//` comment is dropped before the lines are joined (joined, a
// comment would run on over every line after it), and the line breaks and
// tabs between tokens become spaces. Inside a quoted string a line break or
// tab becomes its escape (\n, \t), and so does any other control, bidi or
// invisible character (\u202e; in a bytes literal, b'…', its UTF-8 bytes
// \xe2\x80\xae): the string keeps its value, and the one-line field, which
// drops such characters, shows it. A single-quoted string cut by
// a line break (a hard-wrapped paste) goes on after the break, which becomes
// \n, rather than ending there. A backslash right before a break or hidden
// character is no escape in CEL: the character becomes a space after it, so
// the line still fails to compile (never a valid `\\n` with another value).
// A pair \r\n, or a lone \r, is one break (as CEL reads it). A raw string
// (r'…', also triple-quoted) has no escapes: one holding a break or hidden
// character is written as the plain string with the same value ('…', its
// backslashes and quotes escaped; a bytes one stays bytes). `//` inside a
// string is not a comment.
func OneLine(src string) string {
	rs := []rune(strings.Trim(src, "\r\n\t"))
	var b strings.Builder
	gap := func(from, to int) {
		for i := from; i < to; i++ {
			switch r := rs[i]; {
			case r == '/' && i+1 < to && rs[i+1] == '/':
				for i+1 < to && rs[i+1] != '\n' {
					i++
				}
			case r == '\r' && i+1 < to && rs[i+1] == '\n':
				// one space for the pair
			case r == '\r' || r == '\n' || r == '\t' || r == '\f' || r == '\v':
				b.WriteByte(' ')
			default:
				b.WriteRune(r)
			}
		}
	}
	pos := 0
	toks := tokenize(rs)
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		gap(pos, t.start)
		var prefix string
		if t.kind == tokString {
			prefix = t.text[:strings.IndexAny(t.text, `'"`)]
		}
		raw := strings.ContainsAny(prefix, "rR")
		// CEL refuses \u in a bytes literal (b'…'): there a hidden character
		// is written as its UTF-8 bytes, \xHH each.
		bytesLit := strings.ContainsAny(prefix, "bB")
		if t.kind == tokString {
			if end := stringEndAcrossLines(rs, t.start+len([]rune(prefix)), raw); end > t.end {
				// The rest of the text was tokenized as code after the
				// break; tokenize it again from the string's true end.
				t.end = end
				rest := tokenize(rs[end:])
				for i := range rest {
					rest[i].start += end
					rest[i].end += end
				}
				toks = append(toks[:k+1], rest...)
			}
		}
		if t.kind == tokString && raw {
			// A raw string has no escapes to keep its break or hidden
			// character on one line: the same value as a plain string does.
			if lit, ok := unraw(string(rs[t.start:t.end])); ok {
				b.WriteString(lit)
				pos = t.end
				continue
			}
		}
		// escaping: the rune before was a backslash that escapes this one.
		escaping := false
		for i := t.start; i < t.end; i++ {
			r := rs[i]
			inString := t.kind == tokString && !raw
			switch {
			case r == '\r' && i+1 < t.end && rs[i+1] == '\n':
				// the pair is one line break
				continue
			case inString && escaping && (r == '\n' || r == '\r' || r == '\t' || hiddenInString(r)):
				// No CEL escape starts with a break or a hidden character,
				// so the pasted text does not compile. Writing the rune as
				// an escape after the backslash would make `\\n`, a valid
				// string with another value: a space keeps it invalid, and
				// the field shows the compile error.
				b.WriteByte(' ')
			case inString && (r == '\n' || r == '\r'):
				// CEL reads a lone \r in a literal as a line break too
				b.WriteString(`\n`)
			case inString && r == '\t':
				b.WriteString(`\t`)
			case inString && hiddenInString(r) && bytesLit:
				for _, c := range []byte(string(r)) {
					fmt.Fprintf(&b, `\x%02x`, c)
				}
			case inString && hiddenInString(r):
				if r <= 0xFFFF {
					fmt.Fprintf(&b, `\u%04x`, r)
				} else {
					fmt.Fprintf(&b, `\U%08x`, r)
				}
			case r == '\r' || r == '\n' || r == '\t':
				b.WriteByte(' ')
			default:
				b.WriteRune(r)
			}
			escaping = inString && r == '\\' && !escaping
		}
		pos = t.end
	}
	gap(pos, len(rs))
	return b.String()
}

// hiddenInString reports the characters a one-line field would drop or that
// would not show: inside a string literal they are written as escapes.
func hiddenInString(r rune) bool {
	return unicode.IsControl(r) || api.IsBidiControl(r) || api.IsInvisible(r)
}

// stringEndAcrossLines is the offset just past the string literal whose
// opening quote is rs[i], reading a single-quoted string on over line breaks
// (which CEL does not, and skipString stops at): a pasted string that was
// hard-wrapped is one string, not a string cut short and code after it. In
// a raw string (r'…') a backslash escapes nothing.
func stringEndAcrossLines(rs []rune, i int, raw bool) int {
	q := rs[i]
	if i+2 < len(rs) && rs[i+1] == q && rs[i+2] == q {
		return skipString(rs, i, raw)
	}
	for i++; i < len(rs); i++ {
		switch {
		case rs[i] == '\\' && !raw:
			i++
		case rs[i] == q:
			return i + 1
		}
	}
	return len(rs)
}

// CommentColumn is the 1-based column (in characters) of the first `//`
// comment of src that has text after it on its line, or 0 when there is
// none. In a one-line field such a comment hides everything after it.
func CommentColumn(src string) int {
	rs := []rune(src)
	pos := 0
	check := func(from, to int) int {
		for i := from; i+1 < to; i++ {
			if rs[i] == '/' && rs[i+1] == '/' {
				end := i
				for end < to && rs[end] != '\n' {
					end++
				}
				if strings.TrimSpace(string(rs[i+2:end])) != "" {
					return i + 1
				}
				i = end
			}
		}
		return 0
	}
	for _, t := range tokenize(rs) {
		if c := check(pos, t.start); c > 0 {
			return c
		}
		pos = t.end
	}
	return check(pos, len(rs))
}
