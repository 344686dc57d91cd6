package screens

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The type filter offers the types vigil knows and takes any well-formed
// type typed in it, read as the CLI's --type reads one (the service lists by
// any type); a value not shaped like a type is refused with what to type,
// and the picker stays open. Against the local service.
func TestEndToEndTypeFilterTakesAWellFormedTypeAsTyped(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	a := h.activities()
	h.key("v") // All activities
	h.key("t")
	h.typeText("create users!")
	h.key("enter")
	if h.root.dialogs.Len() != 1 || !strings.Contains(h.frame(), "is not an activity type") {
		t.Fatalf("a malformed type was not refused in the picker:\n%s", h.frame())
	}
	if len(a.types) != 0 {
		t.Fatalf("the malformed type changed the filter to %v", a.types)
	}
	h.key("esc")

	want, _, _ := api.ParseActivityType("create_users_v3")
	h.key("t")
	h.typeText("create_users_v3")
	if out := h.frame(); !strings.Contains(out, "enter applies, as typed:") || !strings.Contains(out, want) {
		t.Errorf("the picker does not say enter applies the typed type:\n%s", out)
	}
	h.key("enter")
	if h.root.dialogs.Len() != 0 || !slices.Equal(a.types, []string{want}) {
		t.Fatalf("typed type not applied: filter %v\n%s", a.types, h.frame())
	}
	out := h.frame()
	if !strings.Contains(out, "type: "+shortType(want)) {
		t.Errorf("the heading does not show the typed type:\n%s", out)
	}
	if len(a.items) != 0 || h.toasted("error") {
		t.Errorf("the service should list no activity of %s, without an error: %d listed\n%s", want, len(a.items), out)
	}
	// Reopened, the typed type is listed, ticked, and can be unticked.
	h.key("t")
	if out := h.frame(); !strings.Contains(out, "[x] "+shortType(want)) {
		t.Errorf("the typed type is not listed ticked on reopening:\n%s", out)
	}
	h.key("ctrl+x")
	h.key("enter")
	if len(a.types) != 0 {
		t.Errorf("ctrl+x left the filter %v", a.types)
	}
}
