package api

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// The bounds of what IntentLines shows. An intent is at most a reply's size
// (16 MiB), but drawn naively it is not: indentation grows with depth and
// siblings are padded to the widest key, so 18 kB nested 9,000 deep would be
// 81 MB of text. Past a bound the rest is cut, with a mark where, and the
// intent is not shown whole (IntentShown.Doubts).
const (
	// maxShownDepth is as deep as the strict decoder reads (maxStrictJSONDepth).
	maxShownDepth = maxStrictJSONDepth
	// maxLabelRunes is the longest key shown whole as a label.
	maxLabelRunes = 64
	// maxPadWidth is the widest label siblings are aligned to; a longer one
	// is followed by one space.
	maxPadWidth = 32
	// maxQuoteExpansion is the most bytes Quote writes for one byte of
	// text: a control character (1 byte) is written \u0001 (6 bytes).
	// TestQuoteExpansionIsBounded checks it over every rune.
	maxQuoteExpansion = 6
	// maxLineHead is room on a line for its indentation, label and padding
	// (a label is at most maxLabelRunes), and Quote's script note.
	maxLineHead = 4 << 10
	// maxLineBytes fits a line holding the longest text the service accepts
	// that vigil shows whole (free text is shortened): a condition or
	// consensus of MaxExpressionLength characters (each up to utf8.UTFMax
	// bytes), at Quote's worst expansion. So a valid expression, which is
	// what decides, is never cut; one of thousands of lines (shown a line
	// each) can reach maxShownLines, and is then cut with a doubt.
	maxLineBytes = maxLineHead + maxQuoteExpansion*utf8.UTFMax*MaxExpressionLength
	// maxShownLines and maxShownBytes bound the whole. maxShownBytes holds a
	// policy's condition, consensus and time at maxLineBytes each, and more.
	maxShownLines = 5000
	maxShownBytes = 2 << 20
)

// IntentShown is an intent as a person deciding on it reads it.
type IntentShown struct {
	// Lines are IntentLinesWithUsers'.
	Lines []string
	// Doubts say why Lines are not the intent faithfully and whole: it holds
	// several operations (the service runs one activity), or part of it was
	// cut (too deep, too long, a key too long). Empty when they are. A member
	// must not approve on Lines with doubts without saying explicitly that
	// they mean to (the CLI's --yes).
	Doubts []string
}

// ShowIntent is IntentLinesWithUsers with the doubts that keep its lines
// from being the whole intent.
func ShowIntent(in Intent, users []User) IntentShown {
	l := intentLister{users: users}
	keys := in.Keys()
	if len(keys) > 1 {
		l.doubt(fmt.Sprintf("it holds %d operations (%s)", len(keys), strings.Join(labels(keys), ", ")))
		l.add(fmt.Sprintf("WARNING: this intent holds %d operations, each shown next under its own key; an activity runs one, and vigil cannot tell which of them, or whether all, would run", len(keys)))
		iv := reflect.ValueOf(in)
		for _, key := range keys {
			if raw, ok := in.Other[key]; ok {
				l.appendUnknown(key, raw)
				continue
			}
			l.add(KeyLabel(key) + ":")
			l.appendFields(iv.Field(intentFieldIndex(key)).Elem(), 1)
		}
	} else if _, params := in.Params(); params != nil {
		l.appendFields(reflect.ValueOf(params).Elem(), 0)
	} else {
		for _, key := range in.UnknownKeys() {
			l.appendUnknown(key, in.Other[key])
		}
	}
	return IntentShown{Lines: l.lines, Doubts: l.doubts}
}

// Keys are the operation keys the intent holds, known and kept as sent
// (Other), sorted. An intent should hold one; a reply may hold more.
func (in Intent) Keys() []string {
	keys := in.UnknownKeys()
	iv := reflect.ValueOf(in)
	for i := range iv.NumField() {
		if f := iv.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			name, _, _ := strings.Cut(iv.Type().Field(i).Tag.Get("json"), ",")
			keys = append(keys, name)
		}
	}
	slices.Sort(keys)
	return keys
}

// intentFieldIndex is the index of the Intent field of the wire name key.
func intentFieldIndex(key string) int {
	t := reflect.TypeFor[Intent]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == key {
			return i
		}
	}
	panic("api: no Intent field " + key) // Keys gave key from these fields
}

func labels(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = shortLabel(k)
	}
	return out
}

// add appends a line within the bounds: a line longer than maxLineBytes is
// cut with a mark; past maxShownLines or maxShownBytes one last line says the
// rest is cut, and nothing more is added.
func (l *intentLister) add(line string) {
	if l.full {
		return
	}
	if len(l.lines) >= maxShownLines-1 || l.bytes+len(line) > maxShownBytes {
		l.full = true
		l.doubt("it is longer than vigil shows")
		l.lines = append(l.lines, fmt.Sprintf("(cut here: the intent is longer than vigil shows (%d lines or %d bytes); the rest is in the activity's JSON)", maxShownLines, maxShownBytes))
		return
	}
	if len(line) > maxLineBytes {
		cut := maxLineBytes
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		l.doubt("a line is longer than vigil shows")
		line = line[:cut] + fmt.Sprintf("… (cut: the line is %d bytes, %d shown; the rest is in the activity's JSON)", len(line), cut)
	}
	l.bytes += len(line)
	l.lines = append(l.lines, line)
}

// doubt notes once why the lines are not the whole intent.
func (l *intentLister) doubt(why string) {
	if !slices.Contains(l.doubts, why) {
		l.doubts = append(l.doubts, why)
	}
}

// shortLabel is keyLabel of a key shortened to maxLabelRunes characters,
// visibly.
func shortLabel(key string) string {
	n := utf8.RuneCountInString(key)
	if n <= maxLabelRunes {
		return KeyLabel(key)
	}
	return Quote(string([]rune(key)[:maxLabelRunes])) + fmt.Sprintf("…(%d characters)", n)
}

// padTo is the padding after a label of n characters among siblings whose
// widest is width, aligned up to maxPadWidth.
func padTo(width, n int) string {
	return strings.Repeat(" ", max(0, min(width, maxPadWidth)-n))
}

// indentOf is the indentation of a line depth levels deep.
func indentOf(depth int) string { return strings.Repeat("  ", min(depth, maxShownDepth+1)) }
