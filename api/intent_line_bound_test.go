// Not under the race detector: this test walks every rune through Quote, a
// pure function, in one goroutine, so the race build has nothing to find
// here and makes the walk 15 times slower (66 s against 5 s). go test ./...
// runs it.
//
//go:build !race

package api

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// maxLineBytes is sized from Quote's worst expansion per byte of text: no
// rune, nor a byte that is not UTF-8, adds more than maxQuoteExpansion bytes
// per byte to a quoted text, alone or inside a word of another script (where
// look-alike letters are escaped too). (What Quote adds once, the quotes and
// a script's name, is in maxLineHead.)
func TestQuoteExpansionIsBounded(t *testing.T) {
	worst, worstText := 0.0, ""
	// grows is how many bytes one more s adds to the quoted text around.
	grows := func(around, s string) {
		one := strings.Replace(around, "*", s, 1)
		two := strings.Replace(around, "*", s+s, 1)
		if e := float64(len(Quote(two))-len(Quote(one))) / float64(len(s)); e > worst {
			worst, worstText = e, s
		}
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		grows("*", s)
		grows("ор*ѕ", s) // a Cyrillic word: other look-alike letters escaped
	}
	grows("*", "\xff")
	if worst > maxQuoteExpansion {
		t.Errorf("Quote writes %q in %.1f bytes per byte, more than maxQuoteExpansion (%d): a valid expression could be cut", worstText, worst, maxQuoteExpansion)
	}
}
