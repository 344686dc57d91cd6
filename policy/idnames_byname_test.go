package policy

import (
	"strings"
	"testing"
)

// A consensus naming a tag or user by its name where an id is expected
// (user.tags.contains('ops'), u.id == 'alice') never matches: IDRefs says so,
// naming the id to write (audit 212, F2).
func TestIDRefsWarnsOfANameWhereAnIDIsExpected(t *testing.T) {
	const (
		opsID   = "3f0c2f1e-9a0b-4c55-8e7d-1a2b3c4d5e6f"
		aliceID = "01a22133-8b86-76f3-83c1-234ad42ced23"
	)
	tags := map[string]string{opsID: "ops", "01a22133-8b86-76f3-83c1-234ad42ced99": "op\x1b[2Js"}
	users := map[string]string{aliceID: "alice"}
	for _, tc := range []struct {
		src, name, kind, meant string
		want                   []string
	}{
		{"approvers.any(u, u.tags.contains('ops'))", "ops", "tag", opsID,
			[]string{`"ops" is the NAME of tag ` + opsID, "user.tags holds tag ids", "write '" + opsID + "'"}},
		{"approvers.filter(user, 'ops' in user.tags).count() >= 2", "ops", "tag", opsID, []string{"NAME of tag"}},
		{"approvers.any(u, u.id == 'alice')", "alice", "user", aliceID,
			[]string{`"alice" is the NAME of user ` + aliceID, "write '" + aliceID + "'"}},
		{`approvers.any(u, u.tags.contains('op\x1b[2Js'))`, "op\x1b[2Js", "tag", "01a22133-8b86-76f3-83c1-234ad42ced99", []string{`"op\u001b[2Js" is the NAME`}},
	} {
		refs := IDRefs(tc.src, tags, users)
		if len(refs) != 1 {
			t.Errorf("%s: %d refs %+v, want 1", tc.src, len(refs), refs)
			continue
		}
		r := refs[0]
		if r.ID != tc.name || r.Kind != tc.kind || r.Meant != tc.meant || !r.Warns() {
			t.Errorf("%s: got %+v, want a warning that %q is the name of %s %s", tc.src, r, tc.name, tc.kind, tc.meant)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.String(), w) {
				t.Errorf("%s: %q lacks %q", tc.src, r.String(), w)
			}
		}
		if strings.ContainsRune(r.String(), '\x1b') {
			t.Errorf("%s: a name reaches the terminal unescaped: %q", tc.src, r.String())
		}
	}
	// The tag's id itself is right: named, not warned of. A name compared
	// with something that holds no tag or user id (an activity's parameter,
	// a plain string) is not a mistake IDRefs can know of.
	for _, src := range []string{
		"approvers.any(u, u.tags.contains('" + opsID + "'))",
		"activity.params.user_tag_name == 'ops'",
		"approvers.any(u, u.name == 'alice')",
	} {
		for _, r := range IDRefs(src, tags, users) {
			if r.Warns() {
				t.Errorf("%s: warned %q", src, r)
			}
		}
	}
	if !NeedsIDNames("approvers.any(u, u.tags.contains('ops'))") {
		t.Errorf("NeedsIDNames is false for a consensus comparing a literal with tag ids: the tags would not be read")
	}
}
