package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui/theme"
)

// appProofsSection is the App proofs part of the open activity's detail.
func appProofsSection(t *testing.T, h *harness) string {
	t.Helper()
	a := h.activities()
	if a.detail == nil {
		t.Fatal("no detail open")
	}
	a.detail.pane.SetSize(200, 1000)
	out := plainDetail(a)
	i := strings.Index(out, "App proofs (")
	if i < 0 {
		t.Fatalf("no app proofs section:\n%s", out)
	}
	return out[i:]
}

func plainDetail(a *Activities) string {
	var b strings.Builder
	for _, l := range strings.Split(a.detail.pane.View(), "\n") {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// fixtureOrg is the organization the production app proof's payload names.
const fixtureOrg = "3a2de333-972b-45bf-8a7a-83c4167b81e2"

// fixtureOrgActivities are the sample activities in the organization of the
// production app proof, so that only what its payload cannot say is missing.
func fixtureOrgActivities() []api.Activity {
	acts := sampleActivities()
	for i := range acts {
		acts[i].OrganizationID = fixtureOrg
	}
	return acts
}

// The production app proof verifies (boot proof and signature), but its
// payload (an address derivation) names no activity: PARTIAL, never VERIFIED.
func TestActivityAppProofVerified(t *testing.T) {
	bp, ap := fixtureBootProof(t), fixtureAppProof(t)
	other := ap // same key, payload changed: its signature no longer matches
	other.ProofPayload = strings.Replace(ap.ProofPayload, "m/44'", "m/45'", 1)
	fake := &fakeClient{activities: fixtureOrgActivities(), appProofs: []api.AppProof{ap, other},
		bootByKey: map[string]*api.BootProof{ap.PublicKey: bp}}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	out := appProofsSection(t, h)
	for _, want := range []string{
		"#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  PARTIAL",
		"#2 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  FAILED",
		"app proof:      ✓ signed by the attested ephemeral key",
		"activity:       – the payload (type APP_PROOF_TYPE_ADDRESS_DERIVATION) names no activity",
		"boot proof:     VERIFIED",
		"anchor:         AWS Nitro Enclaves Root-G1",
		`"derivationPath": "m/44'/60'/0'/0/0"`, // the payload, pretty
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	// The boot proof is fetched once per key for the session, not once per proof.
	h.key("esc")
	h.key("enter")
	h.key("r")
	n := 0
	for _, c := range fake.bootCalls {
		if c == "key:"+ap.PublicKey {
			n++
		}
	}
	if n != 1 {
		t.Errorf("boot proof fetched %d times, want once: %v", n, fake.bootCalls)
	}
	if out := appProofsSection(t, h); !strings.Contains(out, "P256  PARTIAL") {
		t.Errorf("cached verification:\n%s", out)
	}
}

func TestActivityAppProofTamperedPayloadFails(t *testing.T) {
	bp, ap := fixtureBootProof(t), fixtureAppProof(t)
	ap.ProofPayload = strings.Replace(ap.ProofPayload, "0xb84b", "0xb84c", 1)
	fake := &fakeClient{activities: sampleActivities(), appProofs: []api.AppProof{ap},
		bootByKey: map[string]*api.BootProof{ap.PublicKey: bp}}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	out := appProofsSection(t, h)
	if !strings.Contains(out, "#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  FAILED") || !strings.Contains(out, "app proof:      ✗ signature over the payload") {
		t.Errorf("tampered payload:\n%s", out)
	}
	if !strings.Contains(out, "boot proof:     VERIFIED") {
		t.Errorf("the boot proof itself is fine:\n%s", out)
	}
}

func TestActivityAppProofOfTamperedBootProofFails(t *testing.T) {
	ap := fixtureAppProof(t)
	fake := &fakeClient{activities: sampleActivities(), appProofs: []api.AppProof{ap},
		bootByKey: map[string]*api.BootProof{ap.PublicKey: tamperedBootProof(t)}}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	out := appProofsSection(t, h)
	if !strings.Contains(out, "#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  FAILED") || !strings.Contains(out, "boot proof:     FAILED failed: cose-signature") {
		t.Errorf("app proof of a tampered boot proof:\n%s", out)
	}
	// A boot proof that failed is not kept for the session: once the service
	// sends the genuine one, a refresh verifies with it.
	fake.mu.Lock()
	fake.bootByKey = map[string]*api.BootProof{ap.PublicKey: fixtureBootProof(t)}
	fake.mu.Unlock()
	h.key("r")
	if out := appProofsSection(t, h); !strings.Contains(out, "boot proof:     VERIFIED") {
		t.Errorf("after r, with the genuine boot proof served:\n%s", out)
	}
}

func TestActivityAppProofWithoutBootProofIsNeverVerified(t *testing.T) {
	ap := fixtureAppProof(t)
	fake := &fakeClient{activities: fixtureOrgActivities(), appProofs: []api.AppProof{ap}}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	out := appProofsSection(t, h)
	if !strings.Contains(out, "CANNOT VERIFY") || !strings.Contains(out, "cannot verify: fetch the boot proof of its key: no boot proof") {
		t.Errorf("unfetchable boot proof:\n%s", out)
	}
	if strings.Contains(out, "VERIFIED") {
		t.Errorf("shown as verified:\n%s", out)
	}
	// A failure is not cached: once the service has it, the next open verifies.
	fake.mu.Lock()
	fake.bootByKey = map[string]*api.BootProof{ap.PublicKey: fixtureBootProof(t)}
	fake.mu.Unlock()
	h.key("r")
	if out := appProofsSection(t, h); !strings.Contains(out, "P256  PARTIAL") {
		t.Errorf("after r:\n%s", out)
	}
}

// TestAppProofsFetchedAgainAreNotShownWithTheOldVerdict: when an open
// activity's app proofs are fetched again and the service now sends a
// forgery (signed by a key no boot proof attests), the forgery is shown as
// being verified, never with the verdict of the genuine proof it replaced,
// however long the service stalls the boot-proof fetch that verifies it.
func TestAppProofsFetchedAgainAreNotShownWithTheOldVerdict(t *testing.T) {
	auth, err := proof.NewDemoAuthority(testNow)
	if err != nil {
		t.Fatal(err)
	}
	genuine, err := proof.NewDemoEnclave(auth, "signer", "o", "l", testNow)
	if err != nil {
		t.Fatal(err)
	}
	attacker, err := proof.NewDemoEnclave(auth, "signer", "o", "l", testNow) // never attested to the console
	if err != nil {
		t.Fatal(err)
	}
	// The genuine proof arrives and is verified.
	h, a, act, payload := detailWithVerifiedAppProof(t, auth, genuine)

	// The service now answers the next list_app_proofs with a forgery signed
	// by a key no boot proof attests; the verification command the screen
	// returns is what the service stalls (its boot-proof fetch).
	forged, err := attacker.SignAppProof([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	a.Update(activityDetailMsg{id: act.ID, gen: a.detail.extrasGen, proofs: &[]api.AppProof{forged}})
	out := appProofsSection(t, h)
	if strings.Contains(out, "VERIFIED") || !strings.Contains(out, "verifying…") || !strings.Contains(out, forged.PublicKey[:40]) {
		t.Errorf("the forgery should show as being verified, not with the genuine proof's verdict:\n%s", out)
	}
}

// detailWithVerifiedAppProof opens the first sample activity's detail in a
// console that trusts auth and knows enclave's boot proof, and gives it an
// app proof of that activity signed by enclave, which it verifies. It
// returns the activity and the proof's payload.
func detailWithVerifiedAppProof(t *testing.T, auth *proof.DemoAuthority, enclave *proof.DemoEnclave) (*harness, *Activities, api.Activity, string) {
	t.Helper()
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
	resultHash, err := proof.ResultHash(act.Result)
	if err != nil {
		t.Fatal(err)
	}
	payload := fmt.Sprintf(`{"activityId":%q,"type":%q,"fingerprint":%q,"resultHash":%q}`, act.ID, act.Type, act.Fingerprint, resultHash)
	good, err := enclave.SignAppProof([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	h.send(activityDetailMsg{id: act.ID, gen: a.detail.extrasGen, proofs: &[]api.AppProof{good}})
	if out := appProofsSection(t, h); !strings.Contains(out, "#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  VERIFIED") {
		t.Fatalf("precondition: the genuine proof verifies:\n%s", out)
	}
	return h, a, act, payload
}
