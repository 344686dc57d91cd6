package screens

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
)

// A user named after another user's name and id, "carol (<carol's id>)",
// cannot pass for carol in the create user tag form: the picker quotes the
// name and shows the impostor's own id whole at the picker's width (the
// name is what is cut), and the form's picked line names the id picked.
func TestUserTagPickerTellsAnImpostorFromTheUserItNames(t *testing.T) {
	d := servertest.StartDemo(t)
	carol := memberID(t, d, "carol")
	fake := d.AddUserWithKeys("carol ("+carol+")", 0, 0)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create user tag")
	h.typeText("oncall")
	h.key("tab")
	h.typeText("carol")
	picker := h.frame()
	if row := rowHolding(picker, "…"+` (`+fake+`)`); !strings.Contains(row, `[ ] "carol (`) {
		t.Errorf("the impostor's row should quote its name and keep its id %s whole, the name cut:\n%s", fake, picker)
	}
	h.key("down")
	h.key("space")
	h.key("enter")
	f := &h.root.dialogs.Top().(*opFormDialog).form
	if got := f.Values()["userIds"]; got != fake {
		t.Fatalf("picked %q, want the impostor %s:\n%s", got, fake, h.frame())
	}
	form := h.frame()
	if !strings.Contains(pickedLine(form), "picked (1): \"carol ("+carol+")\" ("+fake+")") {
		t.Errorf("the picked line should quote the impostor's name and show its id %s:\n%s", fake, form)
	}
	if !strings.Contains(form, "…"+` (`+fake+`) ▸`) {
		t.Errorf("the form's choice row should keep the impostor's id %s whole:\n%s", fake, form)
	}
}

// The MFA policies screen's user picker (u) shows the impostor's own id whole
// too, its name quoted.
func TestMfaUserPickerTellsAnImpostorFromTheUserItNames(t *testing.T) {
	d := servertest.StartDemo(t)
	carol := memberID(t, d, "carol")
	fake := d.AddUserWithKeys("carol ("+carol+")", 0, 0)
	h := demoHarnessVia(t, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps})
	h.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	h.gotoScreen("MFA policies")
	h.key("u")
	h.typeText("carol")
	picker := h.frame()
	if row := rowHolding(picker, "…"+` (`+fake+`)`); !strings.Contains(row, ` "carol (`) {
		t.Errorf("the impostor should show quoted, with its id %s whole:\n%s", fake, picker)
	}
}

// pickedLine is the form's "picked" line of frame, its wrapped rows joined
// and the dialog's borders taken out.
func pickedLine(frame string) string {
	at := strings.Index(frame, "picked (")
	if at < 0 {
		return ""
	}
	rest, _, _ := strings.Cut(frame[at:], "Generate app proofs")
	return strings.Join(strings.Fields(strings.ReplaceAll(rest, "│", " ")), " ")
}

// rowHolding is the row of frame that holds text ("" when none does).
func rowHolding(frame, text string) string {
	for _, row := range strings.Split(frame, "\n") {
		if strings.Contains(row, text) {
			return row
		}
	}
	return ""
}
