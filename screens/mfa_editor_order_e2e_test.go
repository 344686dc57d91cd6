package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A user whose last MFA policy has the largest order the service takes
// (10000): the editor proposes 10000, which it and the service take, and
// says the new policy ties with that one and comes after it; not 10001,
// which its own check refuses. Against the local service.
func TestEndToEndMfaEditorProposesTheLargestOrderAfterOneThere(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	var alice string
	for _, m := range d.Info.Members {
		if m.Name == "alice" {
			alice = m.UserID
		}
	}
	act, err := d.Client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: alice, MfaPolicyName: "at the end",
		Condition: "false", Order: api.MaxMfaPolicyOrder,
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthSession}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if act = approvedByBob(t, d, act); act.Status != api.StatusCompleted {
		t.Fatalf("create_mfa_policy is %s", act.Status)
	}

	h := demoHarnessVia(t, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps})
	h.gotoScreen("MFA policies")
	if !strings.Contains(h.frame(), "at the end") {
		t.Fatalf("alice's policy at order 10000 is not listed:\n%s", h.frame())
	}
	h.key("n")
	e := h.mfa().editor
	if e == nil {
		t.Fatalf("n opened no editor:\n%s", h.frame())
	}
	order := e.form.Values()["order"]
	if order != "10000" {
		t.Errorf("the editor proposes order %q; want 10000, the largest the service takes", order)
	}
	if err := checkOrder(order); err != nil {
		t.Errorf("the editor proposes order %q, which it refuses itself: %v", order, err)
	}
	if out := h.frame(); !strings.Contains(out, `10000 at the end  (same order as the new one: evaluated before it)`) {
		t.Errorf("the editor does not say the new policy comes after the one at 10000:\n%s", out)
	}
}
