package screens

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The draft's simulation over an activity whose intent's params the console
// cannot read (here an intent of two operations) tells no outcome: a draft
// denying on those params would otherwise read as harmless to it. The row
// says the console cannot tell, and is shown among the changes.
func TestPolicyEditorSimulationOnAnIntentItCannotReadSaysItCannotTell(t *testing.T) {
	acts := sampleActivities()
	var in api.Intent
	if err := json.Unmarshal([]byte(`{"createPolicyIntentV3":{"policyName":"allow treasury","effect":"EFFECT_ALLOW","condition":"true","consensus":"true"},"deleteApiKeysIntent":{"userId":"u-carol","apiKeyIds":["key-1"]}}`), &in); err != nil {
		t.Fatal(err)
	}
	acts[0].Intent = in
	fake := &fakeClient{activities: acts, policies: []api.Policy{{PolicyID: "pol-open", PolicyName: "Policies are free",
		Effect: api.EffectAllow, Condition: "activity.resource == 'POLICY'"}}}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.typeText("Deny named")
	h.key("tab")
	h.key("right") // DENY
	h.key("ctrl+r")
	if p.editor.sim == nil {
		t.Fatalf("ctrl+r did not simulate: %q", p.editor.simErr)
	}
	for _, r := range p.editor.sim {
		if r.id != acts[0].ID {
			continue
		}
		if r.today != "" || r.withDraft != "" || r.locksOut || !strings.HasPrefix(r.why, "cannot tell: vigil cannot read this intent's parameters") {
			t.Errorf("the simulation predicts on params it cannot read: %+v", r)
		}
		if rank(r) != rank(simRow{today: "a", withDraft: "b"}) {
			t.Errorf("the row is not shown among the changes: rank %d", rank(r))
		}
	}
	if out := h.plainFrame(); !strings.Contains(out, "cannot tell: vigil cannot read this intent's parameters") {
		t.Errorf("the panel does not say it cannot tell:\n%s", out)
	}
}
