package policy

import (
	"strings"
	"testing"
)

// A raw string keeps its backslashes (r'\' is one backslash) and a
// triple-quoted string may hold its quote: the highlighter must end each
// where the compiler does, or the code after it, on the following lines
// too, is coloured as part of a string and reads as inert text.
func TestTokensStringEndsWhereTheCompilerEndsIt(t *testing.T) {
	for _, src := range []string{
		"activity.resource == r'\\'\n|| true",
		"activity.resource == R'\\'\n|| true",
		"activity.resource == '''it's'''\n|| true",
		"b'\\x00' == br'\\'\n|| true",
	} {
		if _, err := Compile(src, ""); err != nil {
			t.Fatalf("premise: %q should compile: %v", src, err)
		}
		var rebuilt strings.Builder
		kinds := map[string]TokenKind{}
		for _, tk := range Tokens(src) {
			rebuilt.WriteString(tk.Text)
			kinds[tk.Text] = tk.Kind
		}
		if rebuilt.String() != src {
			t.Errorf("Tokens(%q) rebuilds %q", src, rebuilt.String())
		}
		if kinds["||"] != TokenOperator || kinds["true"] != TokenKeyword {
			t.Errorf("in %q, `|| true` after the string is coloured %v and %v, want an operator and a keyword (the string ends before it): %v",
				src, kinds["||"], kinds["true"], Tokens(src))
		}
	}
}
