package screens

import (
	"slices"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// A completion both the root's org watch and the Activities list see (a
// policy among the newest activities, listed waiting) loads the
// organization once: the second sighting finds the load the first started
// after the completion was seen, which reads it. Against the local service.
func TestOneCompletionSeenTwiceLoadsTheOrganizationOnce(t *testing.T) {
	d := servertest.StartDemo(t)
	pol := proposeCarolAlonePolicy(t, d)
	h := memberConsole(t, d.Client("carol"))
	a := h.activities()
	h.selectActivityID(pol.ID) // listed, so the list holds it as waiting
	if !a.waiting.waiting(pol.ID) {
		t.Fatal("set-up: the list does not hold the policy as waiting")
	}
	if _, watched := h.root.orgWatch.seen[pol.ID]; !watched {
		t.Fatal("set-up: the org watch did not see the policy waiting")
	}

	completeElsewhere(t, d, pol)
	before, seenFrom := h.root.orgLoads.started, len(h.msgs)
	h.key("r") // the list reads again, and the org watch looks
	sightings := 0
	for _, msg := range h.msgs[seenFrom:] {
		if changed, ok := msg.(orgChangedMsg); ok && slices.Contains(changed.completed, pol.ID) {
			sightings++
		}
	}
	if sightings != 2 {
		t.Fatalf("set-up: %d sightings of the completion, want the org watch's and the list's", sightings)
	}
	if !h.holdsPolicy("carol alone allows tags") {
		t.Fatalf("the organization was not reloaded for the completion: %d policies held", len(h.root.common.Org.Policies))
	}
	if loads := h.root.orgLoads.started - before; loads != 1 {
		t.Errorf("one completion seen by the org watch and the list loaded the organization %d times, want 1", loads)
	}
}
