package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// EncodeJSON writes v as indented JSON and a newline, for the --json output of
// every command. Values stay exact, and the output is safe to print: every
// character Sanitize would escape (controls, C1, bidi controls, zero-width and
// other invisible characters) is written as a \uXXXX escape, never stripped, so
// decoding the output gives back the original strings. encoding/json alone
// escapes only C0 controls and U+2028/U+2029, leaving \u202e or \u200b raw.
// (Invalid UTF-8 cannot be represented in JSON: encoding/json writes U+FFFD.)
func EncodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // a >= 2 reads better than a \u003e= 2 on a terminal
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSONRunes(buf.Bytes()))
	return err
}

// escapeJSONRunes rewrites each rune of valid JSON text that must not reach a
// terminal raw as its \u escape (a surrogate pair above U+FFFF). JSON's structure
// is ASCII, so such a rune can only sit inside a string, where the escape means
// the same rune; encoding/json has already escaped C0, the quote and the
// backslash.
func escapeJSONRunes(b []byte) []byte {
	clean := true
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == 0x7F || (r >= 0x80 && mustEscape(r)) || r == utf8.RuneError && n == 1 {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			// A byte that is not UTF-8 (a hostile service's raw reply can carry
			// one; 0x9b starts a control sequence on some terminals): JSON cannot
			// spell it, so it becomes U+FFFD, as encoding/json makes it.
			out = append(out, `\ufffd`...)
		case r == 0x7F || (r >= 0x80 && mustEscape(r)):
			if r > 0xFFFF {
				r -= 0x10000
				out = fmt.Appendf(out, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}
