package api

import (
	"math"
	"testing"
)

// Sorted by order, ties kept as given, and orders at the ends of int (a
// hostile reply's) sorted right: a subtraction would overflow.
func TestMfaPoliciesInOrder(t *testing.T) {
	in := []MfaPolicy{{MfaPolicyID: "max", Order: math.MaxInt}, {MfaPolicyID: "tie-a", Order: 1}, {MfaPolicyID: "min", Order: math.MinInt}, {MfaPolicyID: "tie-b", Order: 1}}
	got := MfaPoliciesInOrder(in)
	want := []string{"min", "tie-a", "tie-b", "max"}
	for i, p := range got {
		if p.MfaPolicyID != want[i] {
			t.Fatalf("position %d: %s, want %s (all: %+v)", i, p.MfaPolicyID, want[i], got)
		}
	}
	if in[0].MfaPolicyID != "max" {
		t.Errorf("the policies given were reordered in place: %+v", in)
	}
	if MfaPoliciesInOrder(nil) != nil {
		t.Errorf("nil (not read) became a list")
	}
}

// A known type shows without its prefix; another, however it reads, quoted
// with its look-alikes escaped and marked unknown.
func TestAuthTypeText(t *testing.T) {
	if got := AuthTypeText(AuthPasskey); got != "PASSKEY" {
		t.Errorf("known type: %q", got)
	}
	if got, want := AuthTypeText("AUTHENTICATION_TYPE_\u0410PI_KEY"), `"AUTHENTICATION_TYPE_\u0410PI_KEY" (unknown type: no vote vigil knows of proves it)`; got != want {
		t.Errorf("look-alike type: %q, want %q", got, want)
	}
}
