package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui"
)

// openConfirm is the confirm dialog on top of h's dialogs, or nil.
func openConfirm(h *harness) *ConfirmDialog {
	var c *ConfirmDialog
	for _, d := range h.root.dialogs.dialogs {
		if cd, ok := d.(*ConfirmDialog); ok {
			c = cd
		}
	}
	return c
}

// unflaggedWarnings are the lines of c that read as warnings (⚠, WARNING,
// a doubt's ?) and are not marked so: drawn as plain text, and left out of
// the "↓ N more lines (k warnings)" count.
func unflaggedWarnings(c *ConfirmDialog) []string {
	var out []string
	for i, l := range c.confirm.Lines {
		t := strings.TrimSpace(l)
		if (strings.HasPrefix(t, "⚠") || strings.HasPrefix(t, "WARNING") || strings.HasPrefix(t, "? ")) && !c.confirm.Warn[i] {
			out = append(out, l)
		}
	}
	return out
}

// The create-policy confirm's lock-out line ("the costliest mistake here")
// is a warning: drawn in the warning style and counted among the warnings
// below, as the CANNOT BE UNDONE line above it is.
func TestPolicyConfirmLockOutLineIsAWarning(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	addWalletsPolicy(t, d)
	h := memberConsole(t, alice)
	h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
	h.gotoScreen("Policies")
	h.key("n")
	if h.policies().editor == nil {
		t.Fatal("n did not open the editor")
	}
	h.typeText("No policy changes")
	h.key("tab")
	h.key("right") // EFFECT_DENY
	h.key("tab")
	h.typeText("activity.resource == 'POLICY'")
	h.key("ctrl+r")
	h.key("ctrl+s")
	c := openConfirm(h)
	if c == nil {
		t.Fatalf("ctrl+s did not ask:\n%s", h.plainFrame())
	}
	if !strings.Contains(strings.Join(c.confirm.Lines, "\n"), "locks the organization out") {
		t.Fatalf("set-up: the confirm has no lock-out line:\n%s", strings.Join(c.confirm.Lines, "\n"))
	}
	if bad := unflaggedWarnings(c); len(bad) > 0 {
		t.Errorf("confirm lines that warn but are not warnings (not styled, not counted): %q", bad)
	}
}

// The vote dialog lists at most five of a proposed policy's condition
// warnings, then "⚠ … and N more warnings": its ↓ line counts that one as
// the N it stands for, so the approver is told how many there are.
func TestVoteDialogCountsEveryConditionWarning(t *testing.T) {
	d := servertest.StartDemo(t)
	cond := "activity.action == 'delete' || activity.action == 'create' || activity.action == 'update' || activity.action == 'approve' || " +
		"activity.action == 'reject' || activity.action == 'export' || activity.action == 'import' || activity.action == 'sign'"
	if n := len(policy.PolicyWarningTexts(cond, "", ui.Clean)); n != 8 {
		t.Fatalf("set-up: the condition has %d warnings, want 8", n)
	}
	pol, err := d.Client("bob").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "many warnings",
		Effect: api.EffectDeny, Condition: cond, Consensus: "true", Notes: "n"})
	if err != nil {
		t.Fatal(err)
	}
	h := memberConsole(t, d.Client("carol"))
	h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
	h.selectActivityID(pol.ID)
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("no vote dialog:\n%s", h.frame())
	}
	// Every condition warning is below the window, and no other warning:
	// "(6 warnings)" would count the summary as one.
	frame := h.frame()
	if !strings.Contains(frame, "(8 warnings)") {
		t.Errorf("the condition has 8 warnings; the dialog's ↓ line counts otherwise:\n%s", frame)
	}
}

// checkEarlierRequestWarned fails t unless the confirm on top of h says,
// as warnings (styled, and counted among those below), that the earlier
// request may have been recorded and that both may take effect.
func checkEarlierRequestWarned(t *testing.T, h *harness, confirm string) {
	t.Helper()
	c := openConfirm(h)
	if c == nil {
		t.Fatalf("%s: no confirm:\n%s", confirm, h.frame())
	}
	said := 0
	for i, l := range c.confirm.Lines {
		if strings.Contains(l, "it may have been recorded and be waiting for votes") || strings.Contains(l, "if both are approved, both take effect") {
			said++
			if !c.confirm.Warn[i] {
				t.Errorf("%s: %q is not a warning: not styled, not counted among the warnings below", confirm, l)
			}
		}
	}
	if said != 2 {
		t.Errorf("%s: %d of the 2 lines on the earlier request:\n%s", confirm, said, strings.Join(c.confirm.Lines, "\n"))
	}
	if bad := unflaggedWarnings(c); len(bad) > 0 {
		t.Errorf("%s: lines that warn but are not warnings: %q", confirm, bad)
	}
}

// A new request while an earlier one got no clear answer may make both take
// effect: every confirm that asks for one says so as a warning.
func TestConfirmsOfANewRequestWarnThatTheEarlierMayBeRecorded(t *testing.T) {
	t.Run("operation form", func(t *testing.T) {
		h, _, g := gatewayHarness(t)
		openOperation(h, "create user tag")
		h.typeText("probe tag")
		submitWithNoClearAnswer(h, g)
		h.typeText(" two") // a new request
		h.key("ctrl+s")
		checkEarlierRequestWarned(t, h, "create_user_tag")
	})
	t.Run("MFA editor", func(t *testing.T) {
		h, _, g := gatewayHarness(t)
		h.gotoScreen("MFA policies")
		h.key("n")
		h.typeText("MFA probe")
		submitWithNoClearAnswer(h, g)
		h.typeText(" two")
		h.send(ctrlS)
		checkEarlierRequestWarned(t, h, "create_mfa_policy")
	})
	t.Run("policy editor", func(t *testing.T) {
		h, _, g := gatewayHarness(t)
		h.gotoScreen("Policies")
		h.key("n")
		h.typeText("First draft")
		submitWithNoClearAnswer(h, g)
		h.typeText(" changed")
		h.send(ctrlS)
		checkEarlierRequestWarned(t, h, "create_policy")
	})
}

// The "Discard this draft?" confirm's line on an earlier request that got
// no clear answer is a warning too: styled, and counted among those below.
func TestDiscardConfirmWarnsThatTheEarlierMayBeRecorded(t *testing.T) {
	h, _, g := gatewayHarness(t)
	h.gotoScreen("Policies")
	h.key("n")
	h.typeText("First draft")
	submitWithNoClearAnswer(h, g)
	h.key("esc")
	c := openConfirm(h)
	if c == nil || c.confirm.Title != "Discard this draft?" {
		t.Fatalf("esc did not ask to discard the draft:\n%s", h.plainFrame())
	}
	said := 0
	for i, l := range c.confirm.Lines {
		if strings.Contains(l, "The earlier create_policy got no clear answer") {
			said++
			if !c.confirm.Warn[i] {
				t.Errorf("%q is not a warning: not styled, not counted among the warnings below", l)
			}
		}
	}
	if said != 1 {
		t.Errorf("the confirm says nothing of the earlier create_policy:\n%s", strings.Join(c.confirm.Lines, "\n"))
	}
}
