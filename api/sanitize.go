package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Everything a server sends is untrusted: a name, a policy note or an error message
// could carry escape sequences that recolour, move the cursor, set the window title,
// write the clipboard (OSC 52) or reorder text (bidi overrides), or invisible
// characters that make two different names look the same. The client runs every
// decoded string through these functions, and ui/ runs them again at render time:
// this file is the one display path for server strings.

// IsBidiControl reports the Unicode bidirectional formatting characters, which can
// make text display in an order other than the one it is stored in.
func IsBidiControl(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F:
		return true
	case r >= 0x202A && r <= 0x202E:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// IsInvisible reports the characters that take no visible space or change how
// their neighbours look without being seen themselves: format characters (Cf:
// zero-width space and joiners, bidi controls, soft hyphen, U+FEFF, tag
// characters…), variation selectors, the other default-ignorable code points
// (Hangul fillers, combining grapheme joiner…), and the line and paragraph
// separators.
func IsInvisible(r rune) bool {
	switch {
	case r < 0x600 && r != 0xAD && r != 0x34F, r >= 0x2070 && r < 0x3164, r > 0x3164 && r < 0xFE00:
		// Latin, Greek, Cyrillic, Armenian, Hebrew, and CJK and most other
		// scripts of the BMP: none there (checked against the tables below for
		// every rune by a test). Spares the table lookups for the text most
		// names are written in.
		return false
	}
	return invisibleByTable(r)
}

func invisibleByTable(r rune) bool {
	return IsBidiControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// mustEscape reports runes that must not reach a terminal as they are: C0
// controls, DEL, C1 controls, and every invisible character.
func mustEscape(r rune) bool {
	return r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0x9F) || (r >= 0xA0 && IsInvisible(r))
}

// isClean reports whether s is valid UTF-8 without any rune to escape, so that it
// can be shown as it is.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x20 || b == 0x7F {
			return false
		}
		if b >= 0x80 {
			return isCleanUnicode(s[i:])
		}
	}
	return true
}

func isCleanUnicode(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return false // an invalid byte, not a literal U+FFFD
			}
		}
		if mustEscape(r) {
			return false
		}
	}
	return true
}

// Sanitize makes s safe to print on a terminal, on one line, without hiding
// anything: every control character (C0, DEL, C1), invisible character (zero-width
// space and joiners, bidi controls, U+FEFF, variation selectors, line separators…)
// and invalid byte is shown escaped, as JSON and Go spell it: \n, \t, \r, \u001b,
// \u200b, \u202e, \U000e0041, \xff. An escape sequence is thus shown as text
// (\u001b[31m) and does nothing, and two names that differ only by invisible
// characters never look the same. Ordinary text, including non-Latin scripts and
// emoji, is unchanged. Sanitize is idempotent: its output is clean.
func Sanitize(s string) string {
	if isClean(s) {
		return s
	}
	return escape(s, false)
}

// escape writes s with every rune to escape escaped; quoting also escapes the
// backslash and the double quote, so that the result between quotes is a Go
// string literal.
func escape(s string, quoting bool) string { return escapeWhere(s, quoting, mustEscape) }

// escapeWhere is escape with the runes to escape chosen by esc; bytes that are
// not UTF-8 are always escaped.
func escapeWhere(s string, quoting bool, esc func(rune) bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			writeHex(&b, rune(s[i]), 2)
		case esc(r):
			writeEscaped(&b, r)
		case quoting && (r == '\\' || r == '"'):
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// writeEscaped writes r's visible escape, spelt as encoding/json spells it
// (except above U+FFFF, where JSON would write a surrogate pair).
func writeEscaped(b *strings.Builder, r rune) {
	switch r {
	case '\b':
		b.WriteString(`\b`)
	case '\f':
		b.WriteString(`\f`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		if r > 0xFFFF {
			b.WriteString(`\U`)
			writeHex(b, r, 8)
		} else {
			b.WriteString(`\u`)
			writeHex(b, r, 4)
		}
	}
}

// writeHex writes r as digits lower-case hex digits, zero-padded.
func writeHex(b *strings.Builder, r rune, digits int) {
	const hex = "0123456789abcdef"
	for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
		b.WriteByte(hex[(r>>shift)&0xF])
	}
}

// SanitizeID returns an identifier unchanged when it is printable ASCII, and
// otherwise quoted, every other rune escaped (e.g. "act\u202e1", "\u0430cc1"),
// so that a tampered id stays visibly different from the id it imitates
// instead of being silently cleaned into it. Ids are ASCII: any other rune in
// one, even one that draws as text (a Cyrillic а, a no-break or ideographic
// space, the blank Braille pattern, a combining mark), is a sign of
// tampering. The quoted form is a Go string literal of the id.
func SanitizeID(s string) string {
	if isPrintableASCII(s) {
		return s
	}
	return `"` + escapeWhere(s, true, func(r rune) bool { return r < 0x20 || r >= 0x7F }) + `"`
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7F {
			return false
		}
	}
	return true
}

// idField reports struct fields holding identifiers or key material, which are
// sanitised with SanitizeID.
func idField(name string) bool {
	for _, suffix := range []string{"ID", "IDs", "Id", "Ids", "Fingerprint", "PublicKey", "PublicKeyHex", "Signature", "Kid"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// SanitizeValue sanitises, in place, every string reachable from v, which should be
// a pointer (a non-pointer is walked but cannot be changed). It follows pointers,
// interfaces, structs, slices, arrays and maps, including map keys. Fields whose
// name marks an identifier or key material (…ID, …IDs, Fingerprint, PublicKey,
// Signature, Kid) use SanitizeID; everything else uses Sanitize, except a field
// tagged sanitize:"exact" (Vote.Message), left as sent. json.RawMessage is
// left alone: it is bytes, not text, and is decoded (and sanitised) when used.
func SanitizeValue(v any) {
	if v == nil {
		return
	}
	w := walker{seen: map[seenKey]bool{}, fields: map[reflect.Type][]field{}}
	w.walk(reflect.ValueOf(v), false)
}

type walker struct {
	seen   map[seenKey]bool // pointers already walked, so a cycle cannot loop forever
	fields map[reflect.Type][]field
}

// field is an exported struct field to walk and whether it holds an identifier.
type field struct {
	index int
	id    bool
}

// fieldsOf lists t's exported fields, computed once per type per walk (a list of
// a hundred activities repeats the same few types).
func (w *walker) fieldsOf(t reflect.Type) []field {
	if fs, ok := w.fields[t]; ok {
		return fs
	}
	var fs []field
	for i := range t.NumField() {
		f := t.Field(i)
		// A field tagged sanitize:"exact" holds bytes a signature covers
		// (Vote.Message): escaped, they no longer verify. Whoever shows it
		// cleans it then.
		if f.IsExported() && f.Tag.Get("sanitize") != "exact" {
			fs = append(fs, field{index: i, id: idField(f.Name)})
		}
	}
	w.fields[t] = fs
	return fs
}

type seenKey struct {
	typ reflect.Type
	ptr uintptr
}

func (w *walker) clean(s string, id bool) string {
	if id {
		return SanitizeID(s)
	}
	return Sanitize(s)
}

func (w *walker) walk(v reflect.Value, id bool) {
	if !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		k := seenKey{v.Type(), v.Pointer()}
		if w.seen[k] {
			return
		}
		w.seen[k] = true
		w.walk(v.Elem(), id)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		inner := v.Elem()
		if inner.Kind() == reflect.Pointer {
			w.walk(inner, id)
			return
		}
		// The value inside an interface is not addressable: copy, clean, put back.
		cp := reflect.New(inner.Type()).Elem()
		cp.Set(inner)
		w.walk(cp, id)
		if v.CanSet() {
			v.Set(cp)
		}
	case reflect.String:
		if v.CanSet() {
			if s := v.String(); !isClean(s) {
				v.SetString(w.clean(s, id))
			}
		}
	case reflect.Struct:
		for _, f := range w.fieldsOf(v.Type()) {
			w.walk(v.Field(f.index), f.id)
		}
	case reflect.Slice:
		if v.Type() == rawMessageType || v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			w.walk(v.Index(i), id)
		}
	case reflect.Array:
		for i := range v.Len() {
			w.walk(v.Index(i), id)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		w.walkMap(v, id)
	}
}

func (w *walker) walkMap(v reflect.Value, id bool) {
	type entry struct{ oldKey, key, val reflect.Value }
	var entries, renamed []entry
	kept := make(map[string]bool) // string keys that sanitising leaves as they are
	iter := v.MapRange()
	for iter.Next() {
		e := entry{reflect.New(iter.Key().Type()).Elem(), reflect.New(iter.Key().Type()).Elem(), reflect.New(iter.Value().Type()).Elem()}
		e.oldKey.Set(iter.Key())
		e.key.Set(iter.Key())
		e.val.Set(iter.Value())
		// Keys are names chosen by the sender: quote a tampered one rather than
		// let it pass for a clean key it imitates.
		w.walk(e.key, true)
		w.walk(e.val, id)
		switch {
		case !e.key.Equal(e.oldKey):
			renamed = append(renamed, e)
		case e.key.Kind() == reflect.String:
			kept[e.key.String()] = true
		}
		entries = append(entries, e)
	}
	for _, e := range entries {
		if e.key.Equal(e.oldKey) {
			v.SetMapIndex(e.key, e.val)
		}
	}
	// A quoted key is a clean string, which the sender may also have sent as a
	// key of its own: number the quoted one rather than lose either. Sorted, so
	// that the numbers do not depend on the map's order.
	slices.SortFunc(renamed, func(a, b entry) int { return strings.Compare(a.oldKey.String(), b.oldKey.String()) })
	for _, e := range renamed {
		v.SetMapIndex(e.oldKey, reflect.Value{})
	}
	for _, e := range renamed {
		if e.key.Kind() == reflect.String {
			e.key.SetString(distinctKey(e.key.String(), kept))
		}
		v.SetMapIndex(e.key, e.val)
	}
}

// distinctKey is key, or when that is taken, key marked " (look-alike N)"
// with the first N free; it marks the result taken.
func distinctKey(key string, taken map[string]bool) string {
	k := key
	for n := 2; taken[k]; n++ {
		k = key + " (look-alike " + strconv.Itoa(n) + ")"
	}
	taken[k] = true
	return k
}
