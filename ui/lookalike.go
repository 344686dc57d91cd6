package ui

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// lookalike is a string of a JSON document that api.Quote shows otherwise
// than the JSON does: where it is, and how Quote shows it.
type lookalike struct {
	path   string // createPolicyIntentV3.policyName, invitations[0].receiverUserName
	quoted string // "deploym\u0435nts"
}

// jsonQuoting is what JSON (and Quote) escape in every string.
var jsonQuoting = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// LooksAlike reports whether Quote shows s with more than the escapes the
// cleaned JSON shows (a look-alike letter escaped, a script named), and how:
// the console shows some text bare (JSON, expressions) and flags it with this.
func LooksAlike(s string) (string, bool) {
	q := api.Quote(s)
	plain := `"` + Clean(jsonQuoting.Replace(s)) + `"`
	if q == plain {
		return q, false
	}
	return shortenQuoted(q, plain, utf8.RuneCountInString(s)), true
}

// The warning shows at most this many bytes of a quoted string: a whole
// contract interface would double the detail text (and its wrapping).
const (
	quotedKeep   = 240
	quotedBefore = 80 // of them, before the first look-alike letter
)

// shortenQuoted cuts q, as Quote shows a string of n characters, to the part
// around where it first differs from plain (the cleaned JSON spelling): the
// first look-alike letter's escape and its neighbours, with "…" where text
// was cut and the length after it. No escape or combining mark is split off.
func shortenQuoted(q, plain string, n int) string {
	end := strings.LastIndexByte(q, '"') // Quote escapes the quotes within
	if len(q) <= quotedKeep+quotedBefore || end < 1 {
		return q
	}
	body, suffix := q[1:end], q[end+1:]
	at := 0
	for at < len(body) && at+1 < len(plain) && body[at] == plain[at+1] {
		at++
	}
	// Unit boundaries: an escape or a rune, and a mark stays with what it
	// follows.
	start, stop := -1, len(body)
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRuneInString(body[i:])
		if body[i] == '\\' {
			size = max(escapeLen(body[i:]), 2)
		}
		if !unicode.IsMark(r) {
			if start < 0 && i >= at-quotedBefore {
				start = i
			}
			if start >= 0 && i >= start+quotedKeep {
				stop = i
				break
			}
		}
		i += min(size, len(body)-i)
	}
	start = max(start, 0)
	var b strings.Builder
	b.WriteByte('"')
	if start > 0 {
		b.WriteString("…")
	}
	b.WriteString(body[start:stop])
	if stop < len(body) {
		b.WriteString("…")
	}
	b.WriteByte('"')
	b.WriteString(suffix)
	if start > 0 || stop < len(body) {
		b.WriteString(" (" + strconv.Itoa(n) + " characters)")
	}
	return b.String()
}

// lookalikeStrings walks a JSON document in order and returns its string
// values that look alike (LooksAlike), with their paths. A document that
// does not decode yields what was read before the error.
func lookalikeStrings(doc []byte) []lookalike {
	type frame struct {
		array   bool
		index   int
		key     string
		wantKey bool // in an object, the next string is a key
	}
	var stack []*frame
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.array {
				b.WriteString("[" + strconv.Itoa(f.index) + "]")
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		}
		return b.String()
	}
	// valueDone moves past a value of the innermost container.
	valueDone := func() {
		if len(stack) == 0 {
			return
		}
		if f := stack[len(stack)-1]; f.array {
			f.index++
		} else {
			f.wantKey = true
		}
	}
	var out []lookalike
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{wantKey: true})
			case '[':
				stack = append(stack, &frame{array: true})
			default:
				if len(stack) == 0 {
					return out // the decoder refuses this first; never panic
				}
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = t, false
				continue
			}
			if q, ok := LooksAlike(t); ok {
				out = append(out, lookalike{path: path(), quoted: q})
			}
			valueDone()
		default:
			valueDone()
		}
	}
}
