package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// A keystroke in an expression field does not compile it in Update: the
// check runs in a command (the field says "checking…" meanwhile), and a
// check of a value changed since is dropped, not shown.
func TestEndToEndPolicyEditorChecksOffTheEventLoop(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	p := h.toPolicies()
	h.key("n")
	h.key("tab")
	h.key("tab")
	cmdParen := p.editorUpdate(keyPress("("))
	if got := p.editor.form.Errors()["condition"]; got != "" {
		t.Fatalf("the keystroke compiled the condition in Update: %q", got)
	}
	if cmdParen == nil || !strings.Contains(h.frame(), "checking…") {
		t.Fatalf("no check started, or not said:\n%s", h.frame())
	}
	if cmd := p.editorUpdate(keyPress("backspace")); cmd != nil {
		t.Error("a second check started while the first runs")
	}
	h.run(cmdParen) // the check of "(" comes back after the text changed
	f := h.frame()
	if got := p.editor.form.Errors()["condition"]; got != "" || strings.Contains(f, "checking…") {
		t.Errorf("the stale check of \"(\" was shown (%q), or the newest value's never ran:\n%s", got, f)
	}
	// The newest value's check is shown when it comes back.
	h.send(keyPress("("))
	if got := p.editor.form.Errors()["condition"]; got == "" {
		t.Errorf("the check of \"(\" was never shown:\n%s", h.frame())
	}
}
