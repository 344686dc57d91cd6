package ui

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// The marks a wrapped line's rows end with, so that a row's end says what
// text the break hides: without them 'AAA…AB' broken inside the word and
// 'AAA…A B' broken at its space draw the same, and a condition on a
// near-identical id cannot be told from the real one.
const (
	// noSpace ends a row broken where the text has no space (inside a word
	// longer than the line, or after a "," or "&&" with no space after it).
	noSpace = "↩"
	// shownSpace is each space of a break at more than one: a break at one
	// space drops it (as prose reads), so more must show.
	shownSpace = "␣"
)

// markWidth is the narrowest width that keeps a column for the marks: below
// it, text takes every cell.
const markWidth = 8

// markEscapes shows the marks' own characters in the text escaped, as the
// sanitizer shows an invisible one: text that ends in ↩ before a space then
// reads as what it is, not as a word broken.
var markEscapes = strings.NewReplacer(noSpace, `\u21a9`, shownSpace, `\u2423`)

// escapeMarks is l with any mark character escaped.
func escapeMarks(l string) string {
	if isPlain(l) {
		return l
	}
	return markEscapes.Replace(l)
}

// WrapLines is text wrapped to width cells, a line at a time, as the detail
// pane and the confirm dialog wrap it: with the marks that say what each
// break hides, so that an id, a name or an error quoting a value is read as
// it is wherever it is shown (a list's preview, a form, a notice). Escape
// sequences (a style) are kept; no row is wider than width (unless one
// character is), and from markWidth cells on a row keeps a column for its
// mark.
func WrapLines(text string, width int) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, strings.Split(wrapLine(l, width), "\n")...)
	}
	return out
}

// newWrapper is a wrapper for width cells, with marks unless it is too
// narrow for them.
func newWrapper(width int) wrapper {
	return wrapper{width: width, marks: width >= markWidth}
}

// adjacentText reports whether the tokens that follow a word start with
// text, no space between (escape sequences aside).
func adjacentText(next []token) bool {
	for _, t := range next {
		if t.space {
			return false
		}
		if t.text {
			return true
		}
	}
	return false
}

// breakAt ends the row at a break over spaces spaces: none is marked ↩, one
// is dropped, more are each shown as ␣, at the row's end as far as they
// fit and at the next one's start after that — except after a label's
// colon that the line starts with, where they align the values and say
// nothing (a colon inside a value, 'ops:    admin', is no label).
func (w *wrapper) breakAt(spaces int) {
	switch {
	case !w.marks || spaces == 1 || spaces > 1 && len(w.lines) == 0 && isLabel(w.cur.String()):
		w.newLine("")
	case spaces == 0:
		w.newLine(noSpace)
	default:
		// As many as the row has room for, then on the next rows.
		for here := min(spaces, max(w.width-w.curW, 0)); ; here = min(spaces, max(w.width-w.curW, 1)) {
			w.cur.WriteString(strings.Repeat(shownSpace, here))
			w.curW += here
			if spaces -= here; spaces == 0 && w.curW < w.width {
				return
			}
			w.newLine("")
			if spaces == 0 {
				return
			}
		}
	}
}

// isLabel reports whether row, a line's first, is a label alone
// ("public key:"): words of letters, digits, spaces, '_', '-', '.' or '/'
// after the indentation, then a colon; no quote or operator, as in a value.
func isLabel(row string) bool {
	name, ok := strings.CutSuffix(strings.TrimLeft(ansi.Strip(row), " "), ":")
	if !ok || name == "" || !unicode.IsLetter([]rune(name)[0]) {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" _-./", r)
	})
}
