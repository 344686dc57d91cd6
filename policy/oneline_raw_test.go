package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// onTag evaluates c on a create-user-tag activity naming the tag name.
func onTag(t *testing.T, c *Compiled, name string) bool {
	t.Helper()
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, &api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})}
	got, _, err := c.Evaluate(in)
	if err != nil {
		t.Fatalf("on a tag named %q: %v", name, err)
	}
	return got
}

// In a raw string a line break, tab or hidden character is part of the
// value, and a backslash is just a backslash. Made one line, the pasted
// condition must still compare against that value, not one with a space
// where the break was (or without the hidden character).
func TestOneLineKeepsRawStringValue(t *testing.T) {
	cases := []struct {
		src   string
		value string // the tag name the pasted condition holds for
	}{
		{"activity.params.userTagName == r'''ops\noncall'''", "ops\noncall"},
		{"activity.params.userTagName == R'''ops\r\noncall''' ||\n false", "ops\noncall"},
		{`activity.params.userTagName == r'''C:\new\` + "\n" + `dir\'''`, "C:\\new\\\ndir\\"},
		{"activity.params.userTagName == r'''it's \"quoted\"\n''this'''", "it's \"quoted\"\n''this"},
		{"activity.params.userTagName == r'a\tb\\t'", "a\tb\\t"},
		{"activity.params.userTagName == r'a\u202eb\\u202e' &&\n true", "a\u202eb\\u202e"},
		{"activity.params.userTagName == r'''\u200b\n\t\\'''", "\u200b\n\t\\"},
		{"string(bR'''a\\\n\u202e''') == activity.params.userTagName", "a\\\n\u202e"},
		{"string(BR'a\\\t\u202e\"') == activity.params.userTagName", "a\\\t\u202e\""},
		{"activity.params.userTagName == r'''ends in ''\n''' + '\\''", "ends in ''\n'"},
		{"activity.params.userTagName == r'''a\rb'''", "a\nb"},
	}
	for _, c := range cases {
		before, err := Compile(c.src, "")
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if !onTag(t, before, c.value) {
			t.Fatalf("%q does not hold for %q; the case is wrong", c.src, c.value)
		}
		line := OneLine(c.src)
		if strings.ContainsAny(line, "\r\n\t") {
			t.Errorf("OneLine(%q) = %q: still more than one line", c.src, line)
		}
		for _, r := range line {
			if hiddenInString(r) {
				t.Errorf("OneLine(%q) = %q: keeps %U, which the field drops", c.src, line, r)
			}
		}
		after, err := Compile(line, "")
		if err != nil {
			t.Errorf("OneLine(%q) = %q does not compile: %v", c.src, line, err)
			continue
		}
		names := []string{c.value, strings.NewReplacer("\n", " ", "\t", " ").Replace(c.value),
			strings.NewReplacer("\u202e", "", "\u200b", "").Replace(c.value), strings.ReplaceAll(c.value, `\`, `\\`), "ops"}
		for _, name := range names {
			if want, got := onTag(t, before, name), onTag(t, after, name); got != want {
				t.Errorf("on a tag named %q, %q gives %v but its one line %q gives %v", name, c.src, want, line, got)
			}
		}
	}
}

// A raw single-quoted string hard-wrapped over two lines is one string, as
// a plain one is: its break is kept (\n), never a space that makes it a
// valid condition about another name, nor its second half read as code.
func TestOneLineKeepsBreakInHardWrappedRawString(t *testing.T) {
	for _, pasted := range []string{
		"activity.params.userTagName == r'ops\noncall'",
		"activity.params.userTagName == r'ops\r\noncall' && activity.params.userTagName != 'x'",
		"activity.params.userTagName == R'ops\noncall' || false",
	} {
		line := OneLine(pasted)
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("OneLine(%q) = %q: still more than one line", pasted, line)
		}
		c, err := Compile(line, "")
		if err != nil {
			t.Fatalf("OneLine(%q) = %q does not compile: %v", pasted, line, err)
		}
		for name, want := range map[string]bool{"ops\noncall": true, "ops oncall": false, "opsoncall": false} {
			if got := onTag(t, c, name); got != want {
				t.Errorf("%q (from %q) on a tag named %q: %v, want %v", line, pasted, name, got, want)
			}
		}
	}
}

// A raw string that is never closed stays an error made one line: it must
// not become a valid condition.
func TestOneLineUnclosedRawStringStaysInvalid(t *testing.T) {
	for _, src := range []string{
		"activity.params.userTagName == r'''ops\noncall",
		"activity.params.userTagName == r'ops\noncall",
		"activity.params.userTagName == r'ops\\\noncall",
	} {
		if _, err := Compile(src, ""); err == nil {
			t.Fatalf("%q compiles as pasted; the case is wrong", src)
		}
		if line := OneLine(src); func() bool { _, err := Compile(line, ""); return err == nil }() {
			t.Errorf("OneLine(%q) = %q compiles: an invalid paste became a valid condition", src, line)
		}
	}
}
