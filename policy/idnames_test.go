package policy

import (
	"strings"
	"testing"
)

func TestIDRefsNamesTagsAndUsersAndFlagsUnknownIDs(t *testing.T) {
	const (
		opsTag   = "01a22133-8b86-76f3-83c1-234ad42ced22"
		carol    = "01a22133-8b86-76f3-83c1-234ad42ced23"
		unknown  = "01a22133-8b86-76f3-83c1-234ad42ced24"
		escaped  = `\u0030` + "1a22133-8b86-76f3-83c1-234ad42ced22" // opsTag, its first digit escaped
		hostile  = "op\x1b[2Js\u202e"
		typedEsc = `op\x1b[2Js`
	)
	tags := map[string]string{opsTag: hostile, "t2": typedEsc}
	users := map[string]string{carol: "carol"}
	src := "approvers.any(u, u.tags.contains('" + opsTag + "')) && approvers.any(u, u.id == \"" + carol + "\") && " +
		"approvers.any(u, u.id == '" + unknown + "') && approvers.any(u, u.tags.contains('" + escaped + "')) && " +
		"approvers.any(u, u.tags.contains('t2')) && activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS'"
	refs := IDRefs(src, tags, users)
	var lines []string
	for _, r := range refs {
		lines = append(lines, r.String())
	}
	if len(refs) != 4 {
		t.Fatalf("want the tag (once, though written twice), the user, the unknown id and the tag t2; got:\n%s", strings.Join(lines, "\n"))
	}
	want := []struct {
		id, kind, name string
	}{{opsTag, "tag", hostile}, {carol, "user", "carol"}, {unknown, "", ""}, {"t2", "tag", typedEsc}}
	for i, w := range want {
		if refs[i].ID != w.id || refs[i].Kind != w.kind || refs[i].Name != w.name {
			t.Errorf("ref %d: got %+v, want %+v", i, refs[i], w)
		}
	}
	if refs[2].Known() || !strings.Contains(lines[2], "not a tag or user") {
		t.Errorf("an unknown id reads %q", lines[2])
	}
	for _, l := range lines {
		if strings.ContainsAny(l, "\x1b\u202e") {
			t.Errorf("a name reaches the terminal unescaped: %q", l)
		}
	}
	if lines[0] == lines[3] || strings.TrimPrefix(lines[0], opsTag) == strings.TrimPrefix(lines[3], "t2") {
		t.Errorf("a real escape and a typed one read the same: %q and %q", lines[0], lines[3])
	}
}

func TestIDRefsTakesAnyText(t *testing.T) {
	for _, src := range []string{"", "'", `'\`, "'''", "r'\\d'", "\"unterminated", "approvers.any(u, u.tags.contains('01a2"} {
		_ = IDRefs(src, nil, nil)
	}
	// An unterminated literal (the tokenizer runs it to the end) names nothing.
	const tag = "01a22133-8b86-76f3-83c1-234ad42ced22"
	if got := IDRefs("activity.type == '"+tag, map[string]string{tag: "ops"}, nil); len(got) != 0 {
		t.Errorf("an unterminated literal resolved to %+v", got)
	}
}
