package screens

import (
	"unicode"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// The heading shows 70 cells of what an intent does; a name in it is
// quoted (api.Quote, which reads every letter) from its start only: quoting
// 10,000 characters to keep 70 cells of them cost a frame on every render.
// The intent's JSON under the heading shows the name whole.

// headBytes is how much of a name the heading quotes: more than 70 cells of
// any text (a quoted character takes at least one cell, except marks).
const headBytes = 256

// quoteHead is api.Quote(s) for the heading: s's start, quoted, with "…"
// after it when s goes on.
func quoteHead(s string) string {
	head, cut := nameHead(s, headBytes)
	if !cut {
		return api.Quote(s)
	}
	return api.Quote(head) + "…"
}

// nameHead is s's first limit bytes or fewer, cut before a character,
// never between a letter and a mark on it (which would show another letter);
// cut reports whether anything was left off.
func nameHead(s string, limit int) (head string, cut bool) {
	if len(s) <= limit {
		return s, false
	}
	end := limit
	for !utf8.RuneStart(s[end]) {
		end--
	}
	// Back to before the letter the marks at the cut sit on (and out of a
	// sequence joined by U+200D).
	i := end
	for i > 0 {
		next, _ := utf8.DecodeRuneInString(s[i:])
		prev, n := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.IsMark(next) && next != zwj && prev != zwj {
			break
		}
		i -= n
	}
	if i == 0 {
		// One letter with hundreds of marks: its start, the marks escaped
		// by Quote where they stand out.
		i = end
	}
	return s[:i], true
}

const zwj = '\u200d'
