package policy

import (
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	src := `activity.resource == 'POLICY' && approvers.filter(u, u.tags.contains("ops")).count() >= 2 || x[0..3] in [1]`
	toks := Tokens(src)
	var joined strings.Builder
	kinds := map[string]TokenKind{}
	for _, tk := range toks {
		joined.WriteString(tk.Text)
		kinds[tk.Text] = tk.Kind
	}
	if joined.String() != src {
		t.Fatalf("tokens do not rebuild the source:\n%s\n%s", joined.String(), src)
	}
	want := map[string]TokenKind{"activity": TokenKeyword, "approvers": TokenKeyword, "in": TokenKeyword,
		"'POLICY'": TokenString, `"ops"`: TokenString, "2": TokenNumber, "resource": TokenIdent, "filter": TokenIdent,
		"==": TokenOperator, "&&": TokenOperator, ">=": TokenOperator, "||": TokenOperator, "..": TokenOperator}
	for text, kind := range want {
		if kinds[text] != kind {
			t.Errorf("%q is kind %d, want %d", text, kinds[text], kind)
		}
	}
	// A keyword used as a field name is a field.
	for _, tk := range Tokens("activity.params.wallet") {
		if tk.Text == "wallet" && tk.Kind != TokenIdent {
			t.Errorf("wallet after a dot is %d, want an identifier", tk.Kind)
		}
	}
	// Never fails, never loses text.
	for _, s := range []string{"'unterminated", `"a\"b`, "1..2", "é ∑ \x00", ""} {
		var b strings.Builder
		for _, tk := range Tokens(s) {
			b.WriteString(tk.Text)
		}
		if b.String() != s {
			t.Errorf("Tokens(%q) rebuilds %q", s, b.String())
		}
	}
}

// A comment is highlighted as a comment, never as the code it holds; `//`
// inside a string stays the string's.
func TestTokensComment(t *testing.T) {
	toks := Tokens("a == 'x//y' // tags only && b == 'ops'")
	last := toks[len(toks)-1]
	if last.Kind != TokenComment || last.Text != "// tags only && b == 'ops'" {
		t.Errorf("the comment is token %+v", last)
	}
	for _, tk := range toks {
		if tk.Kind == TokenString && tk.Text != "'x//y'" {
			t.Errorf("string token %q: a comment's quote read as a string", tk.Text)
		}
	}
}
