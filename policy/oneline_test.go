package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A multi-line condition made one line (a paste into the console's one-line
// expression fields) means what its lines meant: a comment at the end of a
// line must not swallow the lines after it, and `//` inside a string is text.
func TestOneLineMeansWhatTheLinesMeant(t *testing.T) {
	sources := []string{
		"activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' // tags only\n&& activity.params.userTagName == 'ops'",
		"activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' // tags only\r\n&& activity.params.userTagName == 'ops' // and only ops\r\n",
		"activity.params.userTagName != 'a//b' // a '//' in a string is no comment\n&& activity.params.userTagName != 'x // y'",
		"// leading comment\n\tactivity.params.userTagName == '''multi\nline''' || activity.params.userTagName == 'ops'",
		"activity.params.userTagName == r'a//b' //\n|| activity.params.userTagName == 'ops'",
	}
	// Tag names that tell the intended conditions from what a swallowing
	// comment or a changed string would leave.
	names := []string{"ops", "anything", "a//b", "x // y", "multi\nline", "multi line"}
	for _, src := range sources {
		line := OneLine(src)
		if strings.ContainsAny(line, "\r\n\t") {
			t.Errorf("OneLine(%q) = %q: still more than one line", src, line)
		}
		want, err := Compile(src, "")
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		got, err := Compile(line, "")
		if err != nil {
			t.Errorf("OneLine(%q) = %q does not compile: %v", src, line, err)
			continue
		}
		for _, name := range names {
			in := Input{Activity: ActivityFor(api.TypeCreateUserTag, &api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})}
			w, _, werr := want.Evaluate(in)
			g, _, gerr := got.Evaluate(in)
			if w != g || (werr == nil) != (gerr == nil) {
				t.Errorf("on a tag named %q, %q gives %v (%v) but its one line %q gives %v (%v)", name, src, w, werr, line, g, gerr)
			}
		}
	}
}

// CommentColumn finds a comment with text after it, never `//` in a string.
func TestCommentColumn(t *testing.T) {
	for src, want := range map[string]int{
		"a == 'x' // b && c":   10,
		"a == 'x//y'":          0,
		"a == 'x' //":          0,
		"a == 'x' //   ":       0,
		"a == '//' // more":    11,
		"a == r'//' && b // c": 17,
	} {
		if got := CommentColumn(src); got != want {
			t.Errorf("CommentColumn(%q) = %d, want %d", src, got, want)
		}
	}
}

// A hard-wrapped single-quoted string pasted as a condition keeps its line
// break as \n: it must not become a valid condition about another string
// (one with a space where the break was).
func TestOneLineKeepsLineBreakInSingleQuotedString(t *testing.T) {
	for _, pasted := range []string{
		"activity.params.user_tag_name == 'ops\noncall'",
		"activity.params.user_tag_name == 'ops\r\noncall' && activity.params.user_tag_name != 'x'",
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
			in := Input{Activity: ActivityFor(api.TypeCreateUserTag, &api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})}
			if got, _, err := c.Evaluate(in); err != nil || got != want {
				t.Errorf("%q (from %q) on a tag named %q: %v (%v), want %v", line, pasted, name, got, err, want)
			}
		}
	}
}
