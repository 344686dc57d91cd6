package cli

import (
	"strings"
	"testing"
)

// A genuine app proof of its activity binds the id, type, fingerprint and
// result, not the intent the service shows for the activity: `activity
// proofs` says so beside the binding, so a ✓ is not read as covering what
// the activity asked for.
func TestActivityProofsSayTheIntentIsNotCovered(t *testing.T) {
	e := newVerbEnv(t)
	act := featureWithAppProofs(t, e, "https://hooks.example.com/plain")
	code, out, errOut := e.run("", "activity", "proofs", act.ID)
	wantExit(t, "activity proofs of its own genuine app proof", code, 0, out, errOut)
	if !strings.Contains(out, "✓ the payload names this activity") {
		t.Fatalf("precondition: the genuine proof is bound to its activity:\n%s\n%s", out, errOut)
	}
	l := lineOf(t, out, "intent:")
	if !strings.Contains(l, "not covered") || !strings.Contains(l, "the intent shown is the service's") {
		t.Errorf("intent line %q does not say the intent is not covered by the proof", l)
	}
}
