package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// A known intent with a field this console does not know inside it: the
// dialog shows the field and says the console does not know this shape.
func TestVoteDialogShowsAFieldTheConsoleDoesNotKnowInsideAKnownIntent(t *testing.T) {
	in := unknownIntent(t, `{"createUserTagIntent":{"userTagName":"harmless","userIds":[],"grantRootQuorum":true}}`)
	act := pendingActivity("act-extra", "bob", time.Minute, in, "ACTIVITY_TYPE_CREATE_USER_TAG")
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{"grantRootQuorum", "in a shape it does not know"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the vote dialog lacks %q:\n%s", want, flat)
		}
	}
}

// Two operations in one intent: the dialog shows both, each under its key,
// warns first that the member cannot read all the activity does, and enter
// (the default) does not approve.
func TestVoteDialogShowsEveryOperationOfAnIntentAndWarns(t *testing.T) {
	in := unknownIntent(t, `{"createUserTagIntent":{"userTagName":"harmless","userIds":[]},"updateOauth2CredentialIntent":{"oauth2CredentialId":"cred-1","provider":"OAUTH2_PROVIDER_X","clientId":"attacker-client","encryptedClientSecret":"xx"}}`)
	act := pendingActivity("act-two", "bob", time.Minute, in, "ACTIVITY_TYPE_CREATE_USER_TAG")
	fake := &fakeClient{activities: []api.Activity{act}}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 60})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{"WARNING: you cannot read all", "2 operations", "createUserTagIntent:", "harmless", "updateOauth2CredentialIntent:", "attacker-client", "enter does not approve"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the vote dialog lacks %q:\n%s", want, flat)
		}
	}
	if w, o := strings.Index(flat, "WARNING"), strings.Index(flat, "if you approve"); o >= 0 && w > o {
		t.Errorf("the warning comes after what approving would do:\n%s", flat)
	}
	h.armDialogs()
	h.key("enter")
	fake.mu.Lock()
	approvals := len(fake.approvals)
	fake.mu.Unlock()
	if approvals != 0 {
		t.Errorf("enter approved an intent of two operations")
	}
	h.key("enter")
	if detail := h.detailText(); !strings.Contains(detail, "attacker-client") || !strings.Contains(detail, "cannot show this intent faithfully and whole") {
		t.Errorf("the detail hides an operation or does not warn:\n%s", detail)
	}
}

// An intent nested 6,000 deep: the dialog and the detail are bounded (a
// few screens of text, not megabytes of indentation) and say the intent is
// cut.
func TestVoteDialogAndDetailOfADeeplyNestedIntentAreBounded(t *testing.T) {
	depth := 6000
	raw := `{"unknownOp":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
	act := pendingActivity("act-deep", "bob", time.Minute, unknownIntent(t, raw), "ACTIVITY_TYPE_CREATE_USERS_V3")
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	h.selectActivityID(act.ID)
	h.key("a")
	if !h.voteDialogOpen() || !strings.Contains(h.frame(), "WARNING: you cannot read all") {
		t.Errorf("the dialog does not open with its warning first:\n%s", h.frame())
	}
	// The lines the dialog holds (it scrolls through them).
	d := newPendingVote(h.activities().c, &act, true)
	text := strings.Join(d.dialog.Lines, "\n")
	if len(text) > 10*len(raw) || len(d.dialog.Lines) > depth/10 {
		t.Errorf("the dialog holds %d lines, %d bytes for a %d-byte intent", len(d.dialog.Lines), len(text), len(raw))
	}
	if !strings.Contains(text, "nested deeper than") {
		t.Errorf("the dialog does not say the intent is cut:\n%s", text)
	}
	h.key("esc")
	h.key("enter")
	detail := h.detailText()
	text = "" // without the pane's padding
	for _, l := range strings.Split(detail, "\n") {
		if l = strings.TrimRight(l, " "); l != "" {
			text += l + "\n"
		}
	}
	if len(text) > 10*len(raw) || !strings.Contains(text, "nested deeper than") {
		t.Errorf("the detail holds %d bytes for a %d-byte intent, or does not say it is cut:\n%s", len(text), len(raw), text)
	}
}
