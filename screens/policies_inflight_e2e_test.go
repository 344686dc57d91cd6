package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// A create_policy in flight from an editor discarded meanwhile, and a second
// one from a new editor: the first's answer ends only the first, so q still
// asks and names the second, and the discard question said the first was in
// flight.
func TestEndToEndSecondPolicySubmitStaysInFlight(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	p := h.toPolicies()
	h.key("n")
	h.typeText("First")
	h.key("ctrl+s")
	h.armDialogs()
	_, cmdFirst := h.root.Update(keyPress("y")) // in flight, its answer held back
	if p.editor == nil || p.editor.sending == "" {
		t.Fatalf("the first create_policy is not in flight:\n%s", h.frame())
	}
	h.key("esc")
	if f := h.frame(); !strings.Contains(f, `create_policy "First" from this draft is still in flight`) {
		t.Errorf("the discard question does not say the draft's create_policy is in flight:\n%s", f)
	}
	h.armDialogs()
	h.key("y")
	if p.editor != nil {
		t.Fatalf("the editor is still open:\n%s", h.frame())
	}
	h.key("n")
	h.typeText("Second")
	h.key("ctrl+s")
	h.armDialogs()
	_, cmdSecond := h.root.Update(keyPress("y"))
	if got := h.root.InFlight(); len(got) != 2 {
		t.Fatalf("in flight before any answer: %+v", got)
	}
	h.run(cmdFirst)
	got := h.root.InFlight()
	if len(got) != 1 || !strings.Contains(got[0].What, `"Second"`) {
		t.Fatalf("after the first answer, the second create_policy is not counted in flight: %+v", got)
	}
	h.send(quitMsg{}) // q, or the palette's quit: the editor takes a typed q
	if h.quit() {
		t.Fatal(`quit at once while create_policy "Second" is in flight`)
	}
	if f := h.frame(); !strings.Contains(f, "Quit with a submit in flight?") || !strings.Contains(f, `create_policy "Second" is still in flight`) {
		t.Errorf("the quit question does not name the second create_policy:\n%s", f)
	}
	h.run(cmdSecond)
	if got := h.root.InFlight(); len(got) != 0 {
		t.Errorf("in flight after both answers: %+v", got)
	}
}
