package screens

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// unknownIntent decodes an intent of a type the real service has and this
// console does not know (the local service never produces one).
func unknownIntent(t *testing.T, raw string) api.Intent {
	t.Helper()
	var in api.Intent
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

// The vote dialog and the detail of an activity of a type the console does
// not know show its intent field by field, escaped, never as no intent.
func TestVoteDialogAndDetailShowAnIntentOfAnUnknownType(t *testing.T) {
	in := unknownIntent(t, `{"createUsersIntentV3":{"users":[{"userName":"mallory\u001b[2J","userEmail":"m@evil.example",
	 "apiKeys":[{"apiKeyName":"k","publicKey":"02aa"}]}]}}`)
	act := pendingActivity("act-users", "bob", time.Minute, in, "ACTIVITY_TYPE_CREATE_USERS_V3")
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{"does not know", "createUsersIntentV3:", `userName: "mallory\u001b[2J"`, `userEmail: "m@evil.example"`, "publicKey: 02aa"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, h.frame())
		}
	}
	if strings.Contains(h.root.Render(), "\x1b[2J") {
		t.Errorf("the dialog draws the intent's escape")
	}
	h.key("esc")
	h.key("enter")
	detail := h.detailText()
	for _, want := range []string{"createUsersIntentV3", "mallory", "m@evil.example", "does not know"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail lacks %q:\n%s", want, detail)
		}
	}
}

// An activity whose reply holds no intent the console can read: the dialog
// says the console cannot show it (not that the service sent none), and
// enter, the default, does not approve.
func TestVoteDialogWithNoIntentToShowDoesNotApproveByDefault(t *testing.T) {
	act := pendingActivity("act-blank", "bob", time.Minute, api.Intent{}, "ACTIVITY_TYPE_CREATE_USERS_V3")
	fake := &fakeClient{activities: []api.Activity{act}}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	if !strings.Contains(flat, "this console cannot show the intent") || strings.Contains(flat, "service sent no intent") {
		t.Errorf("the dialog does not say the console cannot show the intent:\n%s", h.frame())
	}
	h.armDialogs()
	h.key("enter")
	if h.voteDialogOpen() {
		t.Fatalf("enter left the dialog open:\n%s", h.frame())
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.approvals) != 0 {
		t.Errorf("enter approved an activity whose intent the console cannot show: %v", fake.approvals)
	}
}
