package screens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The activity chosen under "Simulate over" stays chosen when the recent
// activities reload, even once newer ones push it out of the latest
// recentActivities: ctrl+r then still simulates the draft over that one
// activity, never silently over every recent one. Against the local service.
func TestEndToEndPolicyEditorKeepsTheChosenActivityAcrossReloads(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	if p.editor == nil {
		t.Fatal("n did not open the editor")
	}
	// Exactly recentActivities activities: the oldest shown is the next to go.
	// Each interface differs: the same request twice at once is one activity.
	submitted := 0
	submit := func(n int) {
		for range n {
			submitted++
			d.SubmitInterfaces(1, fmt.Sprintf(`["%d"]`, submitted), "bob")
		}
	}
	submit(recentActivities - len(p.editor.recent))
	h.send(orgChangedMsg{})
	if len(p.editor.recent) != recentActivities {
		t.Fatalf("%d recent activities offered, want %d", len(p.editor.recent), recentActivities)
	}
	oldest := p.editor.recent[len(p.editor.recent)-1].act.ID

	fillPolicyDraft(h, "Deny everything", true, "true", "")
	h.key("tab")                                  // notes
	h.key("tab")                                  // simulate over
	h.key("left")                                 // the last choice: the oldest activity
	shown := "◂ " + api.SanitizeID(oldest) + " ·" // the field shows the choice so
	if !strings.Contains(h.plainFrame(), shown) {
		t.Fatalf("simulate over is not the oldest activity %s:\n%s", oldest, h.plainFrame())
	}

	// A newer activity, and the reload after it: the chosen one is no longer
	// among the latest recentActivities.
	submit(1)
	h.send(orgChangedMsg{})
	for _, ra := range p.editor.recent {
		if ra.act.ID == oldest {
			t.Fatalf("the chosen activity %s is still among the recent ones: the test shows nothing", oldest)
		}
	}
	if out := h.plainFrame(); !strings.Contains(out, shown) || !strings.Contains(out, "no longer among the latest") {
		t.Errorf("after a reload simulate over is not the chosen activity %s, said to be kept:\n%s", oldest, out)
	}
	h.key("ctrl+r")
	if p.editor.simErr != "" {
		t.Fatalf("ctrl+r failed: %s", p.editor.simErr)
	}
	if len(p.editor.sim) != 1 || p.editor.sim[0].id != oldest {
		ids := make([]string, 0, len(p.editor.sim))
		for _, r := range p.editor.sim {
			ids = append(ids, r.id)
		}
		t.Errorf("ctrl+r simulated over %v, want the chosen activity %s alone:\n%s", ids, oldest, h.plainFrame())
	}
}
