package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A backslash right before a line break (or a tab, or a hidden character)
// inside a string is no CEL escape, so the pasted condition does not
// compile. Made one line it must still not compile: written `\\n`, it would
// be a valid condition on a tag name with a real backslash in it, one the
// user never wrote, accepted without a word.
func TestOneLineBackslashBeforeBreakStaysInvalid(t *testing.T) {
	for _, src := range []string{
		"activity.params.userTagName == 'abc\\\ndef'",
		"activity.params.userTagName == 'abc\\\r\ndef'",
		"activity.params.userTagName == '''abc\\\ndef'''",
		"activity.params.userTagName == '''abc\\\r\ndef''' ||\n false",
		"activity.params.userTagName == 'abc\\\tdef'",
		"activity.params.userTagName == 'abc\\\u200bdef'",
		"activity.params.userTagName == 'abc\\\u202edef' ||\n true",
	} {
		if _, err := Compile(src, ""); err == nil {
			t.Fatalf("%q compiles as pasted; the case is wrong", src)
		}
		line := OneLine(src)
		if strings.ContainsAny(line, "\r\n") {
			t.Errorf("OneLine(%q) = %q: still more than one line", src, line)
		}
		if _, err := Compile(line, ""); err == nil {
			t.Errorf("OneLine(%q) = %q compiles: an invalid paste became a valid condition", src, line)
		}
	}
}

// A line break inside a triple-quoted string is legal CEL and part of the
// value; made one line, the string keeps that value.
func TestOneLineKeepsBreakInTripleQuotedString(t *testing.T) {
	for _, pasted := range []string{
		"activity.params.userTagName == '''ops\noncall'''",
		"activity.params.userTagName == '''ops\r\noncall''' ||\n false",
	} {
		before, err := Compile(pasted, "")
		if err != nil {
			t.Fatalf("%q: %v", pasted, err)
		}
		line := OneLine(pasted)
		after, err := Compile(line, "")
		if err != nil {
			t.Fatalf("OneLine(%q) = %q does not compile: %v", pasted, line, err)
		}
		for _, name := range []string{"ops\noncall", "ops oncall", "opsoncall"} {
			in := Input{Activity: ActivityFor(api.TypeCreateUserTag, &api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})}
			want, _, err1 := before.Evaluate(in)
			got, _, err2 := after.Evaluate(in)
			if err1 != nil || err2 != nil || got != want {
				t.Errorf("%q (from %q) on a tag named %q: %v (%v), the paste says %v (%v)", line, pasted, name, got, err2, want, err1)
			}
		}
	}
}

// A bytes literal holding a control or invisible character compiles; made
// one line, it must keep compiling and keep its bytes (CEL refuses \u in
// bytes, so a \u escape there would turn a valid paste into an error).
func TestOneLineKeepsBytesLiteralWithHiddenCharacter(t *testing.T) {
	for _, src := range []string{
		"b'a\u200bb' == b'x' ||\n true",
		"b'a\x01b' == b'x' ||\n true",
		"string(b'a\u202eb') == 'a\u202eb' &&\n true",
		"string(B'\U000e0041\x01') == '\U000e0041\x01' &&\n true",
	} {
		before, err := Compile(src, "")
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		line := OneLine(src)
		if strings.ContainsAny(line, "\r\n") {
			t.Errorf("OneLine(%q) = %q: still more than one line", src, line)
		}
		after, err := Compile(line, "")
		if err != nil {
			t.Errorf("OneLine(%q) = %q no longer compiles: %v", src, line, err)
			continue
		}
		in := Input{Activity: ActivityFor(api.TypeCreateUserTag, &api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{}})}
		want, _, err1 := before.Evaluate(in)
		got, _, err2 := after.Evaluate(in)
		if err1 != nil || err2 != nil || got != want {
			t.Errorf("OneLine(%q) = %q: %v (%v), the paste says %v (%v)", src, line, got, err2, want, err1)
		}
	}
}

// CEL reads a lone carriage return inside a string literal as a line break
// (\n), as it does \r\n: made one line, a plain string holding one must keep
// that value, not become the escape \r, another character.
func TestOneLineLoneCarriageReturnIsALineBreak(t *testing.T) {
	for _, src := range []string{
		"activity.params.userTagName == '''ops\roncall'''",
		"activity.params.userTagName == 'ops\roncall' ||\n false",
	} {
		line := OneLine(src)
		c, err := Compile(line, "")
		if err != nil {
			t.Fatalf("OneLine(%q) = %q does not compile: %v", src, line, err)
		}
		for name, want := range map[string]bool{"ops\noncall": true, "ops\roncall": false, "ops oncall": false} {
			if got := onTag(t, c, name); got != want {
				t.Errorf("%q (from %q) on a tag named %q: %v, want %v", line, src, name, got, want)
			}
		}
	}
	if before, err := Compile("activity.params.userTagName == '''ops\roncall'''", ""); err != nil || !onTag(t, before, "ops\noncall") {
		t.Fatalf("the pasted triple-quoted string is not read as ops\\noncall (%v); the case is wrong", err)
	}
}
