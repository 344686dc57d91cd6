package policy

import (
	"strings"
)

// OneLine makes a multi-line expression one line that means the same: each
// line's `//` comment is dropped before the lines are joined (joined, a
// comment would run on over every line after it), and the line breaks and
// tabs between tokens become spaces. Inside a quoted string, which may span
// lines ("""…""" or its single-quoted form), a line break or tab becomes its escape (\n, \t), so the
// string keeps its value; only a raw string (r"""…""") has no escapes, and
// there it becomes a space. `//` inside a string is not a comment.
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
	for _, t := range tokenize(rs) {
		gap(pos, t.start)
		raw := t.kind == tokString && strings.ContainsAny(t.text[:strings.IndexAny(t.text, `'"`)], "rR")
		for i := t.start; i < t.end; i++ {
			switch r := rs[i]; {
			case r == '\r' && i+1 < t.end && rs[i+1] == '\n':
				// the pair is one line break
			case t.kind == tokString && !raw && r == '\n':
				b.WriteString(`\n`)
			case t.kind == tokString && !raw && r == '\r':
				b.WriteString(`\r`)
			case t.kind == tokString && !raw && r == '\t':
				b.WriteString(`\t`)
			case r == '\r' || r == '\n' || r == '\t':
				b.WriteByte(' ')
			default:
				b.WriteRune(r)
			}
		}
		pos = t.end
	}
	gap(pos, len(rs))
	return b.String()
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
