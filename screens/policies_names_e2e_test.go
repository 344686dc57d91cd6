package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// A policy's consensus that names a tag by its id says which tag it is: the
// reader of user.tags.contains('01a2…') should not have to look it up.
func TestEndToEndPolicyDetailNamesTheTagsItRefersTo(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	h := memberConsole(t, alice)
	h.gotoScreen("Policies")
	p := h.policies()
	const name = "Operator changes need two ops approvers"
	for range p.data.policies {
		if pol := p.selectedPolicy(); pol != nil && pol.PolicyName == name {
			break
		}
		h.key("j")
	}
	if pol := p.selectedPolicy(); pol == nil || pol.PolicyName != name {
		t.Fatalf("the demo's policy %q is not listed:\n%s", name, h.frame())
	}
	h.key("enter")
	opsID := demoTagID(t, d, "ops")
	if out := h.frame(); !strings.Contains(out, opsID+" is tag ops") {
		t.Errorf("the consensus's tag %s is not named:\n%s", opsID, out)
	}
}
