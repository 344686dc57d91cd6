package ui

import (
	"strings"
	"testing"
	"unicode"

	"github.com/vigil-console/vigil/api"
)

// Whatever goes in, nothing unsafe comes out, a second pass changes nothing, and
// text without controls is left alone.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]52;c;aGk=\x07x", "\u009d0;t\u009c", "a\rb\u202ec", "\x1b[", "\u009b", "\xff", "日本\t語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		for _, r := range out {
			if unicode.IsControl(r) || api.IsInvisible(r) {
				t.Fatalf("Clean(%q) = %q keeps %U", s, out, r)
			}
		}
		if again := Clean(out); again != out {
			t.Fatalf("Clean is not idempotent: %q -> %q -> %q", s, out, again)
		}
		if isPlain(s) && out != s {
			t.Fatalf("Clean changed plain %q to %q", s, out)
		}
		block := CleanBlock(s)
		for _, line := range strings.Split(block, "\n") {
			if line != Clean(line) {
				t.Fatalf("CleanBlock(%q) line %q is not clean", s, line)
			}
		}
	})
}
