package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// wrapLine wraps one line to width cells for a detail pane or a dialog. It
// breaks at spaces and after the punctuation that ends a part of a condition
// or a list (",", "&&", "||"), so a word that fits on a line is never split;
// only a word longer than a whole line (a hex key, a fingerprint) is broken,
// where the width ends. Such a word starts beside what precedes it when at
// least a quarter of the line is left, so a long value stays next to its
// label. Nothing indivisible is ever split: an ANSI escape sequence, a
// sanitizer escape (\u001b, \U000e0041, \xff: split, it would stop reading
// as one), or a grapheme cluster (a wide character, an emoji with its
// modifiers). A line that wraps says exactly what text it breaks
// (wrap_marks.go): a row broken where there is no space ends in ↩, a
// break at one space drops it, as prose reads, and a break at several shows
// each as ␣; escape sequences among them are kept. An indented line's continuations keep its
// indentation (unless it takes half the width), so a wrapped line stays
// under what it belongs to: a policy evaluation under its activity, a key
// under its label.
func wrapLine(l string, width int) string {
	width = max(width, 1)
	l = escapeMarks(l)
	if ansi.StringWidth(l) <= width {
		return l
	}
	tokens := tokenize(l)
	w := newWrapper(width)
	for _, t := range tokens {
		if t.text && !t.space {
			break
		}
		if t.space {
			w.hang += t.w
		}
	}
	if !hangFits(w.hang, width) {
		w.hang = 0
	}
	for i, t := range tokens {
		w.add(t, adjacentText(tokens[i+1:]))
	}
	return w.finish()
}

// hangFits reports whether continuation lines indented by hang cells leave
// room enough in width: half of it, and at least the widest sanitizer escape
// (\U000e0041) with room to spare.
func hangFits(hang, width int) bool {
	return hang > 0 && width-hang >= max(width/2, 12)
}

// atom is an indivisible piece of a line: a grapheme cluster, a sanitizer
// escape, or an ANSI escape sequence (width 0, not text).
type atom struct {
	s    string
	w    int
	text bool
	// run: s is a run of printable ASCII, one cell a byte, that may be split
	// anywhere (plainRunLen). A long word is one such atom, not one a byte.
	run bool
}

// token is a run of atoms the wrapper places as one: a run of spaces, or a
// piece of a word that ends at a break point (the end of the word, or after
// ",", "&&" or "||"). A space token's atoms are its spaces and the escape
// sequences among them.
type token struct {
	atoms []atom
	w     int
	space bool
	text  bool // it holds text, not only escape sequences
}

// tokenize splits l into space runs and word pieces.
func tokenize(l string) []token {
	var out []token
	var cur token
	flush := func() {
		if len(cur.atoms) > 0 {
			out = append(out, cur)
		}
		cur = token{}
	}
	var state byte
	for rest := l; rest != ""; {
		var a atom
		if n := plainRunLen(rest); n > 0 && state == ansi.NormalState {
			a = atom{s: rest[:n], w: n, text: true, run: true}
		} else if n := escapeLen(rest); n > 0 && state == ansi.NormalState {
			// A combining mark after the escape joins its last character
			// in one cluster: it stays with the escape.
			g, _ := ansi.FirstGraphemeCluster(rest[n-1:], ansi.GraphemeWidth)
			n += max(len(g)-1, 0)
			a = atom{s: rest[:n], w: ansi.StringWidth(rest[:n]), text: true}
		} else {
			seq, w, _, st := ansi.DecodeSequence(rest, state, nil)
			state = st
			if w > 0 {
				// Text: a whole grapheme cluster, measured as lipgloss
				// measures lines (the decoder takes an ASCII letter alone,
				// without the mark that combines with it).
				seq, _ = ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
				w = ansi.StringWidth(seq)
			}
			if seq == "" { // cannot happen on a non-empty string; never loop forever
				seq = rest[:1]
			}
			r, _ := utf8.DecodeRuneInString(seq)
			a = atom{s: seq, w: w, text: w > 0 || !unicode.IsControl(r) && r != ansi.ESC}
		}
		rest = rest[len(a.s):]
		isSpace := a.s == " "
		// An escape sequence joins whatever run it is in.
		if a.text && isSpace != cur.space && len(cur.atoms) > 0 {
			flush()
		}
		if len(cur.atoms) == 0 {
			cur.space = isSpace
		}
		cur.atoms = append(cur.atoms, a)
		cur.w += a.w
		cur.text = cur.text || a.text && !isSpace
		if !cur.space && breaksAfter(cur) && !continuesBreak(rest) {
			flush()
		}
	}
	flush()
	return out
}

// plainRunLen is the length of the run of printable ASCII that starts s and
// holds nothing the wrapper must look at one by one: no space, no break
// punctuation (",", "&", "|"), no sanitizer escape. Every byte of it is a
// grapheme cluster one cell wide, so it can be split anywhere; its last byte
// is followed by ASCII or nothing, since a mark after it would join it.
func plainRunLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if c <= ' ' || c >= 0x7f || c == ',' || c == '&' || c == '|' || c == '\\' && escapeLen(s[n:]) > 0 {
			break
		}
		if n+1 < len(s) && s[n+1] >= utf8.RuneSelf {
			break // it may combine with what follows: decoded as a cluster
		}
		n++
	}
	return n
}

// breaksAfter reports whether a word may break after the piece so far: after
// a comma, or an "&&" or "||".
func breaksAfter(t token) bool {
	n := len(t.atoms)
	last := t.atoms[n-1].s
	if last == "," {
		return true
	}
	return n >= 2 && (last == "&" || last == "|") && t.atoms[n-2].s == last
}

// continuesBreak reports whether rest goes on with the break point's own
// punctuation ("&&&", ",,"), which is not split.
func continuesBreak(rest string) bool {
	return rest != "" && strings.ContainsRune(",&|", rune(rest[0]))
}

// wrapper places tokens on lines greedily.
type wrapper struct {
	width   int
	marks   bool // rows end with what a break hides (wrap_marks.go)
	lines   []string
	cur     strings.Builder
	curW    int
	hasWord bool  // the line holds a word (not only indentation)
	pending token // spaces seen since the last word, placed with the next one
	hang    int   // the indentation every line after the first starts with
}

// add places t; adj says the next text follows it with no space between,
// so a break after t needs a cell for its mark (↩).
func (w *wrapper) add(t token, adj bool) {
	if t.space || !t.text {
		// Spaces wait for the next word; so does an escape sequence alone,
		// which must not push them over the line.
		w.pending.atoms = append(w.pending.atoms, t.atoms...)
		w.pending.w += t.w
		return
	}
	// A mark after t takes a cell when what follows is broken from it.
	mark, inside := 0, 0
	if w.marks {
		inside = 1
		if adj {
			mark = 1
		}
	}
	switch room := w.width - w.curW - w.pending.w; {
	case t.w+mark <= room:
		w.place(w.pending)
		w.place(t)
	case t.w+mark <= w.width-w.hang && w.hasWord:
		// It fits on a line of its own: it goes there whole.
		w.breakLine()
		if w.curW+t.w+mark > w.width {
			w.newLine(noSpace) // after spaces shown as ␣ at its start
		}
		w.place(t)
	case t.w+mark <= w.width-w.curW:
		// The first word, after indentation too deep for it: the
		// indentation gives way, the word stays whole.
		w.place(w.pending.first(w.width - w.curW - t.w - mark))
		w.place(t)
	default:
		// Longer than a line (or than what indentation leaves of the first):
		// it is broken anyway, so it starts here unless little is left.
		switch {
		case w.hasWord && room < max(w.width/4, 1):
			w.breakLine()
		case room < 1:
			w.dropPending() // indentation as wide as the line
		default:
			w.place(w.pending)
		}
		for i, a := range t.atoms {
			// What of the word goes on a row that breaks inside it leaves
			// a cell for ↩; its last piece only when the next text follows.
			limit := w.width - inside
			last := w.width - mark
			if i < len(t.atoms)-1 {
				last = limit
			}
			for a.run && w.curW+a.w > last {
				// As many of the run's cells as the line has room for.
				if room := limit - w.curW; room > 0 {
					w.cur.WriteString(a.s[:room])
					a.s, a.w = a.s[room:], a.w-room
				}
				w.newLine(noSpace)
			}
			if w.curW+a.w > last && w.curW > 0 {
				w.newLine(noSpace)
			}
			w.cur.WriteString(a.s)
			w.curW += a.w
		}
		w.hasWord = true
	}
	w.pending = token{}
}

// first is the part of a run of spaces that is n cells wide, with every
// escape sequence of the run.
func (t token) first(n int) token {
	var out token
	for _, a := range t.atoms {
		if !a.text || out.w+a.w <= n {
			out.atoms = append(out.atoms, a)
			out.w += a.w
		}
	}
	out.space = true
	return out
}

// place appends t to the line as it is.
func (w *wrapper) place(t token) {
	for _, a := range t.atoms {
		w.cur.WriteString(a.s)
	}
	w.curW += t.w
	if t.text {
		w.hasWord = true
	}
}

// breakLine ends the line before the next word, marked with what it
// breaks at (breakMark).
func (w *wrapper) breakLine() {
	spaces := 0
	for _, a := range w.pending.atoms {
		if a.text {
			spaces++
		}
	}
	w.dropPending()
	w.breakAt(spaces)
}

// dropPending drops the spaces waiting for the next word, keeping their
// escape sequences (a style's end) on the line.
func (w *wrapper) dropPending() {
	for _, a := range w.pending.atoms {
		if !a.text {
			w.cur.WriteString(a.s)
		}
	}
	w.pending = token{}
}

// newLine ends the row with mark (in the column kept for it).
func (w *wrapper) newLine(mark string) {
	if w.marks {
		w.cur.WriteString(mark)
	}
	w.lines = append(w.lines, w.cur.String())
	w.cur.Reset()
	w.cur.WriteString(strings.Repeat(" ", w.hang))
	w.curW, w.hasWord = w.hang, false
}

// finish returns the wrapped lines; trailing spaces are dropped.
func (w *wrapper) finish() string {
	w.dropPending()
	w.lines = append(w.lines, w.cur.String())
	return strings.Join(w.lines, "\n")
}
