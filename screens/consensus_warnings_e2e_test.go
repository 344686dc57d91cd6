package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// consensusReadingName reads an approver's name, which the real service's
// User does not have (only id, tags, email and alias): there the consensus
// errors, so the allow never allows. vigil's local service reads it.
const consensusReadingName = "approvers.any(u, u.name == 'alice')"

// typeAllowDraft opens alice's policy editor on the demo service and types
// an allow policy's name, condition and consensus, leaving the focus on the
// consensus.
func typeAllowDraft(t *testing.T, name, condition, consensus string) (*harness, *Policies) {
	t.Helper()
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	if p.editor == nil {
		t.Fatal("n did not open the editor")
	}
	h.typeText(name)
	h.key("tab") // effect: EFFECT_ALLOW
	h.key("tab") // condition
	h.typeText(condition)
	h.key("tab") // consensus
	h.typeText(consensus)
	return h, p
}

// The editor warns of it under the consensus while it is typed and again in
// the confirm, as it does of a condition's, and still lets it be submitted.
func TestEndToEndPolicyEditorWarnsOfAConsensusReadingName(t *testing.T) {
	h, p := typeAllowDraft(t, "Alice approves", "activity.resource == 'WALLET'", consensusReadingName)
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if out := flat(h.frame()); !strings.Contains(out, "warning: column 19: .name: the real service's User has no field name") {
		t.Errorf("no warning under the consensus while typing it:\n%s", h.frame())
	}
	if errs := p.editor.form.Errors(); errs["consensus"] != "" {
		t.Errorf("the warning was shown as the consensus's error: %q", errs["consensus"])
	}
	h.key("ctrl+s")
	out := flat(h.frame())
	if !strings.Contains(out, "Create policy") {
		t.Fatalf("ctrl+s asked for no confirm (a warning must not block the submit):\n%s", h.frame())
	}
	if !strings.Contains(out, "⚠ warning: column 19: .name: the real service's User has no field") {
		t.Errorf("the confirm before the vote does not carry the consensus's warning:\n%s", h.frame())
	}
}

// The root member voting on the policy is told too, in the activity's detail
// and in the vote dialog: the warning never stopped the submit.
func TestEndToEndVoteDialogShowsConsensusWarnings(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "alice approves",
		Effect: api.EffectAllow, Condition: "activity.resource == 'WALLET'", Consensus: consensusReadingName})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	h := memberConsole(t, d.Client("bob"))
	h.selectActivityID(act.ID)
	const want = `⚠ warning: column 19: .name: the real service's User has no field name`
	h.key("enter")
	if f := strings.Join(strings.Fields(h.frame()), " "); !strings.Contains(f, "consensus: "+want) {
		t.Errorf("the activity's detail does not show the consensus's warning:\n%s", h.frame())
	}
	h.key("esc")
	if flat := approveDialogText(t, h); !strings.Contains(flat, want) {
		t.Errorf("the vote dialog does not show the consensus's warning:\n%s", flat)
	}
}

// A consensus comparing a credential's type with a misspelt type never
// matches: the editor warns of it under the consensus while it is typed,
// naming the type meant, and does not block the submit.
func TestEndToEndPolicyEditorWarnsOfAnUnknownCredentialType(t *testing.T) {
	h, p := typeAllowDraft(t, "Passkeys approve", "activity.resource == 'WALLET'", "credentials.any(c, c.type == 'CREDENTIAL_TYPE_WEBAUTHN')")
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	const want = `warning: column 30: "CREDENTIAL_TYPE_WEBAUTHN" is never a credential's type: did you mean 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR'?`
	if out := flat(h.frame()); !strings.Contains(out, want) {
		t.Errorf("no warning under the consensus while typing it:\n%s", h.frame())
	}
	if errs := p.editor.form.Errors(); errs["consensus"] != "" {
		t.Errorf("the warning was shown as the consensus's error: %q", errs["consensus"])
	}
	h.key("ctrl+s")
	// The confirm wraps the warning inside its border: its head is enough.
	if out := flat(h.frame()); !strings.Contains(out, "Create policy") || !strings.Contains(out, `⚠ warning: column 30: "CREDENTIAL_TYPE_WEBAUTHN" is never a`) {
		t.Errorf("the confirm is missing, or does not carry the consensus's warning:\n%s", h.frame())
	}
}

// A condition and consensus of several lines are shown one source line per
// line, so their warnings in the detail and the vote dialog say the line:
// column 22 and 21 of the first line would point at "'WALLET' &&" and
// "1 &&", not at the literal and the .name of line 2.
func TestEndToEndVoteDialogSaysTheLineOfAMultilinePolicysWarnings(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "alice approves",
		Effect: api.EffectAllow, Condition: "activity.resource == 'WALLET' &&\n  activity.action == 'delete'",
		Consensus: "approvers.count() >= 1 &&\n  approvers.any(u, u.name == 'alice')"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	// As vigil console reads: strings exact, escaped where drawn.
	h := memberConsole(t, d.ClientAt(d.URL, "bob", api.WithExactStrings()))
	h.selectActivityID(act.ID)
	wants := []string{
		`⚠ warning: line 2, column 22: "delete" is never an activity.action`,
		`⚠ warning: line 2, column 21: .name: the real service's User has no field name`,
	}
	h.key("enter")
	detail := strings.Join(strings.Fields(h.frame()), " ")
	h.key("esc")
	dialog := approveDialogText(t, h)
	for _, want := range wants {
		if !strings.Contains(detail, want) {
			t.Errorf("the activity's detail lacks %q:\n%s", want, detail)
		}
		if !strings.Contains(dialog, want) {
			t.Errorf("the vote dialog lacks %q:\n%s", want, dialog)
		}
	}
}
