package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// voteInFlight confirms a vote on the selected activity and leaves its
// command unrun: the vote is in flight from the moment y is handled.
func voteInFlight(t *testing.T, h *harness) {
	t.Helper()
	h.key("a")
	h.armDialogs()               // a moment passes: y counts
	h.root.Update(keyPress("y")) // starts the vote; its command is not run
	if h.activities().voting == "" {
		t.Fatalf("no vote in flight:\n%s", h.frame())
	}
}

// q while a vote is in flight asks, No by default, naming the vote and how
// to check it; only y quits. With nothing in flight q quits at once.
func TestQuitAsksWhileAVoteIsInFlight(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	id := h.activities().selected().ID
	voteInFlight(t, h)
	h.key("q")
	out := strings.Join(strings.Fields(h.frame()), " ")
	for _, want := range []string{"Quit with a submit in flight?", "a vote on", "is still in flight; quit anyway?", "check with:", "vigil activity get " + id} {
		if !strings.Contains(out, want) {
			t.Errorf("the question lacks %q:\n%s", want, h.frame())
		}
	}
	if h.quit() {
		t.Fatal("q quit with a vote in flight")
	}
	h.key("enter") // No
	h.key("q")
	h.key("q") // q answers No too
	if h.quit() || h.root.dialogs.Len() != 0 {
		t.Fatalf("enter or q answered yes (quit %v, dialogs %d)", h.quit(), h.root.dialogs.Len())
	}
	h.key("q")
	h.key("y")
	if !h.quit() {
		t.Fatal("y did not quit")
	}
	if got := h.root.InFlight(); len(got) != 1 || !strings.Contains(got[0].Check, id) {
		t.Errorf("InFlight = %+v, want the vote on %s", got, id)
	}
}

func TestQuitAtOnceWithNothingInFlight(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("q")
	if !h.quit() || h.root.dialogs.Len() != 0 {
		t.Errorf("q with nothing in flight: quit %v, dialogs %d", h.quit(), h.root.dialogs.Len())
	}
}

// The palette's quit asks as q does; ctrl+c quits at once, and the root
// still says what was in flight (the CLI prints it on exit).
func TestPaletteQuitAsksAndCtrlCQuitsAtOnce(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	voteInFlight(t, h)
	h.key(":")
	h.typeText("quit")
	h.key("enter")
	if h.quit() || !strings.Contains(h.frame(), "Quit with a submit in flight?") {
		t.Fatalf("the palette's quit did not ask:\n%s", h.frame())
	}
	h.send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !h.quit() {
		t.Fatal("ctrl+c did not quit")
	}
	if len(h.root.InFlight()) != 1 {
		t.Errorf("InFlight = %+v after ctrl+c", h.root.InFlight())
	}
}

// An operation form's submit counts as in flight from the moment it is sent
// until its answer.
func TestQuitAsksWhileAnOperationIsInFlight(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	openOperation(h, "create invitations")
	h.typeText("dave <dave@example.com>")
	h.key("ctrl+s") // the confirm; its yes sends
	h.armDialogs()
	h.root.Update(keyPress("y")) // counted at once; its submit is not run
	if out := h.frame(); !strings.Contains(out, "submitting create_invitations (from its form)…") {
		t.Errorf("the status bar does not say the operation is being submitted:\n%s", out)
	}
	h.key("q")
	if out := strings.Join(strings.Fields(h.frame()), " "); !strings.Contains(out, "create_invitations (from its form) is still in flight") ||
		!strings.Contains(out, "vigil activity list --type create_invitations") {
		t.Errorf("the question does not name the operation:\n%s", h.frame())
	}
	if h.quit() {
		t.Error("q quit with an operation in flight")
	}
}

// The question closes when the vote it named ends while it shows: its outcome
// is on screen, and q then quits at once.
func TestQuitQuestionClosesWhenTheVoteEnds(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	act := *h.activities().selected()
	voteInFlight(t, h)
	h.key("q")
	if d := h.root.dialogs.Top(); d == nil || d.ID() != quitDialogID {
		t.Fatalf("no quit question:\n%s", h.frame())
	}
	act.Status = "ACTIVITY_STATUS_COMPLETED"
	h.send(activityVotedMsg{id: act.ID, approve: true, activity: &act})
	if h.root.dialogs.Len() != 0 || !h.toasted("nothing is in flight any more: q quits") {
		t.Fatalf("the question stayed after the vote ended:\n%s", h.frame())
	}
	h.key("q")
	if !h.quit() {
		t.Error("q did not quit with nothing in flight")
	}
}

// y then q in one burst (before the vote's command has run): the vote is in
// flight when q is handled, so q asks instead of quitting with it unsent.
func TestQuitRightAfterYesAsks(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("a")
	h.armDialogs() // a moment passes: y counts
	_, voteCmd := h.root.Update(keyPress("y"))
	h.root.Update(keyPress("q"))
	if h.quit() || h.root.dialogs.Top() == nil || h.root.dialogs.Top().ID() != quitDialogID {
		t.Fatalf("q right after y did not ask:\n%s", h.frame())
	}
	if voteCmd == nil {
		t.Error("y returned no command to send the vote")
	}
}

// openKeyDeletionConfirm opens the confirm of deleting alice's old laptop key.
func openKeyDeletionConfirm(t *testing.T) *harness {
	h, _ := usersHarness(t, false)
	h.key("enter")
	h.key("j") // old laptop
	h.key("d")
	return h
}

// y then q in one burst on a submit's confirm (before any command of the y
// has run): the submit is in flight when q is handled, so q asks, naming it,
// instead of quitting with the confirmed submit never sent.
func TestQuitRightAfterASubmitsYesAsks(t *testing.T) {
	tests := []struct {
		name    string
		confirm func(t *testing.T) *harness // opens the submit's confirm
		what    string                      // how the quit question names it
	}{
		{"operation form", func(t *testing.T) *harness {
			h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
			openOperation(h, "create invitations")
			h.typeText("dave <dave@example.com>")
			h.key("ctrl+s")
			return h
		}, "create_invitations (from its form) is still in flight"},
		{"key deletion", openKeyDeletionConfirm, "delete_api_keys (1 API key(s) of alice) is still in flight"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.confirm(t)
			if _, ok := h.root.dialogs.Top().(*ConfirmDialog); !ok {
				t.Fatalf("no confirm:\n%s", h.frame())
			}
			h.armDialogs()
			_, yes := h.root.Update(keyPress("y"))
			_, q := h.root.Update(keyPress("q")) // typed right after y
			h.run(q)
			if h.quit() {
				t.Fatal("q right after y quit: the confirmed submit was never sent")
			}
			if d := h.root.dialogs.Top(); d == nil || d.ID() != quitDialogID {
				t.Fatalf("q right after y did not ask:\n%s", h.frame())
			}
			if out := strings.Join(strings.Fields(h.frame()), " "); !strings.Contains(out, tt.what) {
				t.Errorf("the question does not name the submit (%q):\n%s", tt.what, h.frame())
			}
			if yes == nil {
				t.Error("y returned no command to send the submit")
			}
		})
	}
}

// The submit key typed again right after a confirm's y, in the same burst:
// the first submit is in flight by then, so it is refused with a word
// instead of asking a second confirm of the same submit (whose y would send
// a second one), and one submit is sent.
func TestSubmitKeyRightAfterItsYesAsksNoSecondConfirm(t *testing.T) {
	tests := []struct {
		name    string
		confirm func(t *testing.T) *harness // opens the submit's confirm
		again   tea.KeyPressMsg             // the key that asked for it
		sent    func(f *fakeClient) int
	}{
		{"policy editor", func(t *testing.T) *harness {
			h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
			openEditor(t, h)
			h.typeText("Burst policy")
			h.send(ctrlS)
			return h
		}, ctrlS, func(f *fakeClient) int { return len(f.created) }},
		{"MFA editor", func(t *testing.T) *harness {
			h, _ := mfaHarness(t, false)
			h.key("n")
			h.typeText("burst")
			h.send(ctrlS)
			return h
		}, ctrlS, func(f *fakeClient) int { return len(f.mfaCreates) }},
		{"organization feature", func(t *testing.T) *harness {
			h := newHarness(t, &fakeClient{}, false, 0)
			h.gotoScreen("Organization")
			h.key("s")
			h.pickFeature(api.FeatureWebhook)
			h.key("tab")
			h.typeText("https://hooks.example.com/v")
			h.send(ctrlS)
			return h
		}, ctrlS, func(f *fakeClient) int { return len(f.featureSets) }},
		{"key deletion", openKeyDeletionConfirm, keyPress("d"), func(f *fakeClient) int { return len(f.keyDeletes) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.confirm(t)
			if _, ok := h.root.dialogs.Top().(*ConfirmDialog); !ok {
				t.Fatalf("no confirm:\n%s", h.frame())
			}
			h.armDialogs()
			_, yes := h.root.Update(keyPress("y"))
			h.send(tt.again) // typed right after y
			if _, ok := h.root.dialogs.Top().(*ConfirmDialog); ok {
				t.Errorf("the key typed right after y asked a second confirm of the submit in flight:\n%s", h.frame())
			}
			h.run(yes)
			h.key("y") // a second confirm, if any, answered once it is armed
			h.fake.mu.Lock()
			n := tt.sent(h.fake)
			h.fake.mu.Unlock()
			if n != 1 {
				t.Errorf("%d submits sent for one confirmed", n)
			}
		})
	}
}

// Two yeses for one deletion reach Users (two confirms were open): the
// second is refused while the first is in flight, not sent again.
func TestKeyDeletionRefusedWhileOneIsInFlight(t *testing.T) {
	h, fake := usersHarness(t, false)
	confirmed := deleteKeysConfirmedMsg{userID: "u-alice", keyIDs: []string{"k-alice-old"}}
	_, first := h.root.Update(confirmed)
	_, second := h.root.Update(confirmed)
	h.run(first)
	h.run(second)
	fake.mu.Lock()
	n := len(fake.keyDeletes)
	fake.mu.Unlock()
	if n != 1 {
		t.Errorf("%d delete_api_keys sent for one deletion: %+v", n, fake.keyDeletes)
	}
	if !h.toasted("delete_api_keys is already being submitted") {
		t.Error("the second deletion was refused without a word")
	}
}
