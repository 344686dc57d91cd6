package api

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Everything a server sends is untrusted: a name, a policy note or an error message
// could carry escape sequences that recolour, move the cursor, set the window title,
// write the clipboard (OSC 52) or reorder text (bidi overrides). The client runs
// every decoded string through these functions, and ui/ runs them again at render
// time.

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

// unsafeRune reports runes that must not reach a terminal as they are.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0x9F) || IsBidiControl(r) ||
		r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == utf8.RuneError
}

// isClean reports whether s is valid UTF-8 without any unsafe rune, so that it can
// be shown as it is. (A literal U+FFFD in valid input is reported unclean too; it
// is cheap to be conservative here.)
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
	for _, r := range s {
		if unsafeRune(r) {
			return false
		}
	}
	return true
}

// Sanitize makes s safe to print on a terminal. Whole escape sequences (CSI, OSC,
// DCS, …) are removed with what they carry, then every remaining C0 control, DEL,
// C1 control (U+0080–U+009F), bidi control and zero-width no-break space (U+FEFF,
// which hides inside ids) is dropped, except that tab, newline,
// carriage return, form feed, vertical tab and U+2028/U+2029 each become one space
// so words do not run together. Invalid UTF-8 becomes U+FFFD, which is visible.
// Ordinary text, including non-Latin scripts and emoji, is unchanged.
func Sanitize(s string) string {
	if isClean(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.ContainsAny(s, "\x1b\u009b\u009d\u0090\u009e\u009f\u0098") {
		// Spell the C1 introducers as their 7-bit equivalents first, so a whole
		// sequence (U+009D … U+009C) is removed, not just its introducer.
		s = ansi.Strip(c1As7Bit.Replace(s))
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case r == utf8.RuneError:
			b.WriteRune(r)
		case unsafeRune(r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// c1As7Bit rewrites the C1 control introducers (as UTF-8 runes) to ESC sequences.
var c1As7Bit = strings.NewReplacer(
	"\u0090", "\x1bP", "\u0098", "\x1bX", "\u009b", "\x1b[", "\u009c", "\x1b\\",
	"\u009d", "\x1b]", "\u009e", "\x1b^", "\u009f", "\x1b_",
)

// SanitizeID returns an identifier unchanged when it is clean, and otherwise its
// Go-quoted ASCII form (e.g. "act\u202e1"), so that a tampered id stays visibly
// different from the id it imitates instead of being silently cleaned into it.
func SanitizeID(s string) string {
	if isClean(s) {
		return s
	}
	return strconv.QuoteToASCII(s)
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
// Signature, Kid) use SanitizeID; everything else uses Sanitize. json.RawMessage is
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
		if f.IsExported() {
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
	type entry struct{ key, val reflect.Value }
	var entries []entry
	iter := v.MapRange()
	for iter.Next() {
		k := reflect.New(iter.Key().Type()).Elem()
		k.Set(iter.Key())
		val := reflect.New(iter.Value().Type()).Elem()
		val.Set(iter.Value())
		entries = append(entries, entry{k, val})
	}
	for _, e := range entries {
		oldKey := reflect.New(e.key.Type()).Elem()
		oldKey.Set(e.key)
		// Keys are names chosen by the sender: quote a tampered one rather than let it
		// collide with (and overwrite) a clean key it imitates.
		w.walk(e.key, true)
		w.walk(e.val, id)
		if !e.key.Equal(oldKey) {
			v.SetMapIndex(oldKey, reflect.Value{})
		}
		v.SetMapIndex(e.key, e.val)
	}
}
