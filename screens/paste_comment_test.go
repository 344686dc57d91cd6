package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// commentedPaste is a condition as copied from an editor: a comment ends its
// first line. Joined blindly into one line, the comment would swallow the
// second line and the condition would allow every tag, not only 'ops'.
const commentedPaste = "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' // tags only\n&& activity.params.userTagName == 'ops'"

// sameDecisions fails unless held decides as pasted does on tag creations
// that tell a swallowed second line apart.
func sameDecisions(t *testing.T, pasted, held string) {
	t.Helper()
	want, err := policy.Compile(pasted, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := policy.Compile(held, "")
	if err != nil {
		t.Fatalf("the field holds %q, which does not compile: %v", held, err)
	}
	for _, name := range []string{"ops", "anything"} {
		in := policy.Input{Activity: policy.ActivityFor(api.TypeCreateUserTag, &api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})}
		w, _, _ := want.Evaluate(in)
		g, _, _ := got.Evaluate(in)
		if w != g {
			t.Errorf("on a tag named %q the pasted condition gives %v; what the field holds and would submit, %q, gives %v", name, w, held, g)
		}
	}
}

// A multi-line condition pasted into the policy editor means what it meant:
// each line's comment is dropped before the lines are joined.
func TestPastedPolicyConditionKeepsItsMeaning(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	p := openEditor(t, h)
	for i := 0; p.editor.form.Focused() != "condition"; i++ {
		if i > 10 {
			t.Fatal("tab never reaches the condition")
		}
		h.key("tab")
	}
	h.key("ctrl+u")
	h.send(tea.PasteMsg{Content: commentedPaste})
	if msg := p.editor.form.Errors()["condition"]; msg != "" {
		t.Errorf("the pasted condition is refused: %s", msg)
	}
	sameDecisions(t, commentedPaste, p.editor.form.Values()["condition"])
}

// The MFA policy editor's condition takes pastes the same way.
func TestPastedMfaConditionKeepsItsMeaning(t *testing.T) {
	h, _ := mfaHarness(t, false)
	h.key("n")
	if h.mfa().editor == nil {
		t.Fatal("n did not open the editor")
	}
	h.typeText("p")
	h.key("tab")
	h.key("ctrl+u")
	h.send(tea.PasteMsg{Content: commentedPaste})
	sameDecisions(t, commentedPaste, h.mfa().editor.form.Values()["condition"])
}

// Typed into a one-line field, a comment followed by text hides that text:
// the field says so instead of letting the draft go out broader than it reads.
func TestTypedCommentInAConditionIsFlagged(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	p := openEditor(t, h)
	for p.editor.form.Focused() != "condition" {
		h.key("tab")
	}
	h.typeText("activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' // tags only && activity.params.userTagName == 'ops'")
	if msg := p.editor.form.Errors()["condition"]; !strings.Contains(msg, "comment") {
		t.Errorf("a comment hiding code in the one-line condition is not flagged (error %q):\n%s", msg, h.plainFrame())
	}
	// `//` in a string is no comment.
	h.key("ctrl+u")
	h.typeText("activity.params.userTagName == 'a//b'")
	if msg := p.editor.form.Errors()["condition"]; msg != "" {
		t.Errorf("'a//b' flagged: %s", msg)
	}
}
