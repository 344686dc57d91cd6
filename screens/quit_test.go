package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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
	_, cmd := h.root.Update(keyPress("y"))
	for _, m := range collect(cmd) {
		if s, ok := m.(opSendMsg); ok {
			h.root.Update(s) // counted; its submit is not run
		}
	}
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
