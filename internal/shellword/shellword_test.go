package shellword

import (
	"os/exec"
	"testing"
)

// A quoted word must reach a real shell as exactly the string quoted: a
// suggested command that a shell splits, expands or runs differently would
// act on another file, or run what a hostile name carries.
func TestQuotedWordReachesTheShellUnchanged(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	words := []string{
		"plain-name_1.private",
		"with space",
		"it's",
		"''",
		"$(touch /nonexistent)",
		"`id`",
		"a;b|c&d",
		"~/keys",
		"*",
		"-n",
		"new\nline",
		"tab\there",
		"back\\slash",
		`"double"`,
		"!bang",
		"ümlaut",
		"",
	}
	for _, w := range words {
		// printf's own argument: "%s" prints the word as the shell passed it.
		out, err := exec.Command(sh, "-c", "printf '%s' "+Quote(w)).Output()
		if err != nil {
			t.Errorf("sh -c printf %s: %v", Quote(w), err)
			continue
		}
		if string(out) != w {
			t.Errorf("Quote(%q) = %s reached the shell as %q", w, Quote(w), out)
		}
	}
}

func TestPlainWordsStayUnquoted(t *testing.T) {
	for _, w := range []string{"alice", "/home/alice/.config/vigil/keys/ops.private", "user@host:1", "a=b,c+d%"} {
		if got := Quote(w); got != w {
			t.Errorf("Quote(%q) = %q, want it as is", w, got)
		}
	}
}
