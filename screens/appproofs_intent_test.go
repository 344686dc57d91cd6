package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui/theme"
)

// A genuine app proof binds the activity's id, type, fingerprint and result,
// not the intent the detail shows above it (the fingerprint hashes a request
// body the service does not return). Beside a VERIFIED proof the detail says
// so, before the proof's checks, so the verdict is not read as covering the
// intent.
func TestActivityAppProofSaysTheIntentIsNotCovered(t *testing.T) {
	auth, err := proof.NewDemoAuthority(testNow)
	if err != nil {
		t.Fatal(err)
	}
	enclave, err := proof.NewDemoEnclave(auth, "signer", "o", "l", testNow)
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeClient{activities: sampleActivities(),
		bootByKey: map[string]*api.BootProof{enclave.BootProof.EphemeralPublicKeyHex: &enclave.BootProof}}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true,
		Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Proofs: ProofSettings{Roots: []proof.Root{auth.Root()}}})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())
	h.key("enter")
	a := h.activities()
	if a.detail == nil {
		t.Fatal("no detail open")
	}
	act := a.detail.activity
	payload := fmt.Sprintf(`{"activityId":%q,"type":%q,"fingerprint":%q}`, act.ID, act.Type, act.Fingerprint)
	good, err := enclave.SignAppProof([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	h.send(activityDetailMsg{id: act.ID, gen: a.detail.extrasGen, proofs: &[]api.AppProof{good}})
	out := appProofsSection(t, h)
	if !strings.Contains(out, "#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  VERIFIED") {
		t.Fatalf("precondition: the genuine proof verifies:\n%s", out)
	}
	intent := strings.Index(out, "intent:")
	if intent < 0 || !strings.Contains(out[intent:], "not covered: this proof binds") || !strings.Contains(out, "the intent shown is the service's") {
		t.Fatalf("the detail does not say the intent is not covered by the proof:\n%s", out)
	}
	if checks := strings.Index(out, "app proof:"); checks >= 0 && checks < intent {
		t.Errorf("the intent note is not beside the verdict (it comes after the checks):\n%s", out)
	}
}
