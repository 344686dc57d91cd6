package screens

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/fxamacker/cbor/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

const fixtureDir = "testdata/bootproof/"

// fixtureBootProof is the production boot proof of the shared fixtures.
func fixtureBootProof(t testing.TB) *api.BootProof {
	t.Helper()
	b, err := os.ReadFile(fixtureDir + "turnkey_boot_proof_1.json")
	if err != nil {
		t.Fatal(err)
	}
	var r api.BootProofResponse
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r.BootProof
}

// fixtureAppProof is the production app proof signed by fixtureBootProof's key.
func fixtureAppProof(t *testing.T) api.AppProof {
	t.Helper()
	b, err := os.ReadFile(fixtureDir + "turnkey_app_proof_1.json")
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ AppProofs []api.AppProof }
	if err := json.Unmarshal(b, &r); err != nil || len(r.AppProofs) != 1 {
		t.Fatalf("app proof fixture: %v", err)
	}
	return r.AppProofs[0]
}

// tamperedBootProof flips the last byte of the document's COSE signature: the
// document still decodes, only its signature is wrong.
func tamperedBootProof(t *testing.T) *api.BootProof {
	t.Helper()
	bp := *fixtureBootProof(t)
	doc, err := base64.StdEncoding.DecodeString(bp.AwsAttestationDocB64)
	if err != nil {
		t.Fatal(err)
	}
	doc[len(doc)-1] ^= 0x01
	bp.AwsAttestationDocB64 = base64.StdEncoding.EncodeToString(doc)
	return &bp
}

// fixturePCRs decodes the document's PCRs with the CBOR library directly, not
// through proof/, so the test's expectations do not come from the code under test.
func fixturePCRs(t *testing.T) map[uint64][]byte {
	t.Helper()
	doc, err := base64.StdEncoding.DecodeString(fixtureBootProof(t).AwsAttestationDocB64)
	if err != nil {
		t.Fatal(err)
	}
	var sign1 []cbor.RawMessage
	if err := cbor.Unmarshal(doc, &sign1); err != nil || len(sign1) != 4 {
		t.Fatalf("COSE_Sign1: %v", err)
	}
	var payload []byte
	if err := cbor.Unmarshal(sign1[2], &payload); err != nil {
		t.Fatal(err)
	}
	var att struct {
		PCRs map[uint64][]byte `cbor:"pcrs"`
	}
	if err := cbor.Unmarshal(payload, &att); err != nil {
		t.Fatal(err)
	}
	return att.PCRs
}

func newProofHarness(t *testing.T, fake *fakeClient, apps ...string) *harness {
	t.Helper()
	return newProofHarnessTheme(t, fake, theme.Options{Dark: true, NoColor: true}, apps...)
}

func newProofHarnessTheme(t *testing.T, fake *fakeClient, th theme.Options, apps ...string) *harness {
	t.Helper()
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: th,
		Now: func() time.Time { return testNow }, Static: true,
		Tick:   func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Proofs: ProofSettings{Apps: apps}})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(r.Init())
	h.key("2")
	if h.root.ActiveTitle() != "Boot proofs" {
		t.Fatalf("screen 2 is %s", h.root.ActiveTitle())
	}
	return h
}

func (h *harness) plain() string { return ansi.Strip(h.root.Render()) }

func (h *harness) bootProofs() *BootProofs { return h.root.screens[1].(*BootProofs) }

// rowOf returns the list line of app.
func rowOf(t *testing.T, out, app string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, app+" ") {
			return l
		}
	}
	t.Fatalf("no row for %s in\n%s", app, out)
	return ""
}

func proofFake(t *testing.T) *fakeClient {
	return &fakeClient{activities: sampleActivities(), bootByApp: map[string]*api.BootProof{
		"signer": fixtureBootProof(t), "tampered": tamperedBootProof(t)}}
}

func TestBootProofsVerdictPerApp(t *testing.T) {
	h := newProofHarness(t, proofFake(t), "signer", "tampered", "missing")
	out := h.plain()
	if r := rowOf(t, out, "signer"); !strings.Contains(r, "VERIFIED") || !strings.Contains(r, "AWS Nitro Enclaves Root-G1") {
		t.Errorf("real proof anchored at AWS: %q", r)
	}
	if r := rowOf(t, out, "tampered"); !strings.Contains(r, "FAILED") {
		t.Errorf("tampered proof: %q", r)
	}
	if r := rowOf(t, out, "missing"); !strings.Contains(r, "CANNOT VERIFY") || strings.Contains(r, "VERIFIED ") {
		t.Errorf("unfetchable proof: %q", r)
	}
	// Selecting the tampered app shows which check failed, under the list.
	h.key("j")
	if out := h.plain(); !strings.Contains(out, "✗ cose-signature") {
		t.Errorf("failing check not shown for the selected app:\n%s", out)
	}
	h.key("j")
	if out := h.plain(); !strings.Contains(out, "cannot verify: no boot proof for enclave app") {
		t.Errorf("fetch error not shown:\n%s", out)
	}
}

func TestBootProofsWithoutAppsSaysHowToConfigure(t *testing.T) {
	fake := proofFake(t)
	h := newProofHarness(t, fake)
	out := h.plain()
	if !strings.Contains(out, "No enclave apps are configured") || !strings.Contains(out, `enclave_apps = ["signer"]`) {
		t.Errorf("no guidance:\n%s", out)
	}
	h.key("r")
	h.key("enter")
	if len(fake.bootCalls) != 0 {
		t.Errorf("fetched with no apps: %v", fake.bootCalls)
	}
}

func TestBootProofsRefreshRefetchesAndReverifies(t *testing.T) {
	fake := proofFake(t)
	h := newProofHarness(t, fake, "signer")
	if !strings.Contains(rowOf(t, h.plain(), "signer"), "VERIFIED") {
		t.Fatal("not verified at start")
	}
	fake.mu.Lock()
	fake.bootByApp["signer"] = tamperedBootProof(t)
	calls := len(fake.bootCalls)
	fake.mu.Unlock()
	h.key("r")
	if len(fake.bootCalls) != calls+1 {
		t.Errorf("r made %d calls, want 1", len(fake.bootCalls)-calls)
	}
	if r := rowOf(t, h.plain(), "signer"); !strings.Contains(r, "FAILED") {
		t.Errorf("after r the tampered proof shows %q", r)
	}
	// A proof that can no longer be fetched is not left showing its old verdict.
	fake.mu.Lock()
	delete(fake.bootByApp, "signer")
	fake.mu.Unlock()
	h.key("r")
	if r := rowOf(t, h.plain(), "signer"); !strings.Contains(r, "CANNOT VERIFY") || strings.Contains(r, "FAILED") {
		t.Errorf("after a failed re-fetch: %q", r)
	}
}

func TestBootProofsStaleReplyIsDropped(t *testing.T) {
	fake := proofFake(t)
	h := newProofHarness(t, fake, "signer")
	b := h.bootProofs()
	old := b.gen
	b.load() // a newer load is in flight; the reply of the old one arrives late
	h.send(bootProofLoadedMsg{gen: old, app: "signer", err: fmt.Errorf("late failure")})
	if strings.Contains(h.plain(), "late failure") {
		t.Error("a reply of a superseded load was applied")
	}
}

func TestBootProofsDetailNavigationAndCopy(t *testing.T) {
	h := newProofHarness(t, proofFake(t), "tampered", "signer")
	h.key("j") // signer
	h.key("enter")
	out := h.plain()
	for _, want := range []string{"Boot proof signer  VERIFIED", "✓ cert-chain", "AWS Nitro Enclaves Root-G1"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	bp := fixtureBootProof(t)
	manifest, err := base64.StdEncoding.DecodeString(bp.QosManifestB64)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(manifest)
	pcrs := fixturePCRs(t)

	// The cursor starts on the first copyable line, user_data = SHA-256(manifest).
	h.key("y")
	// Then the public key, then PCR0.
	h.key("down")
	h.key("y")
	h.key("j")
	h.key("y")
	h.key("k")
	h.key("k")
	h.key("k") // already at the top: stays
	h.key("y")
	want := []string{hex.EncodeToString(sum[:]), strings.ToLower(bp.EphemeralPublicKeyHex),
		hex.EncodeToString(pcrs[0]), hex.EncodeToString(sum[:])}
	got := h.clipboard()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("copied\n%q\nwant\n%q", got, want)
	}
	// Moving far down scrolls the pane so the focused line stays on screen.
	for range 30 {
		h.key("down")
	}
	h.key("y")
	got = h.clipboard()
	last := got[len(got)-1]
	pane := ansi.Strip(h.bootProofs().View()) // the screen without toasts over it
	// A value that fits on a line of its own is not broken: it may start
	// on the line after its label.
	if !strings.Contains(strings.Join(strings.Fields(pane), " "), "▸ manifest PCR3: "+last[:40]) {
		t.Errorf("focused value %s… is not on screen:\n%s", last[:40], pane)
	}

	h.key("esc")
	if out := h.plain(); !strings.Contains(out, "APP") || strings.Contains(out, "Checks") {
		t.Errorf("esc did not go back to the list:\n%s", out)
	}
	h.key("k") // tampered
	h.key("enter")
	out = h.plain()
	if !strings.Contains(out, "FAILED — failed: cose-signature") || !strings.Contains(out, "✗ cose-signature") {
		t.Errorf("tampered detail:\n%s", out)
	}
}

// Raw hostile strings (as if the api client's sanitizer were bypassed) in every
// field the service controls never reach the screen or the clipboard.
func TestBootProofsHostileStringsAreCleaned(t *testing.T) {
	for i := range hostile {
		bp := fixtureBootProof(t)
		bp.EnclaveApp, bp.Owner, bp.DeploymentLabel = hostileText(i), hostileText(i+1), hostileText(i+2)
		ap := fixtureAppProof(t)
		payload, err := json.Marshal(map[string]string{"note": hostileText(i)}) // bidi and C1 stay raw
		if err != nil {
			t.Fatal(err)
		}
		ap.ProofPayload = string(payload)
		bad := ap
		bad.Scheme, bad.PublicKey, bad.Signature, bad.ProofPayload = hostileText(i), hostileText(i+1), hostileText(i+2), hostileText(i+3)
		fake := &fakeClient{activities: sampleActivities(), bootByApp: map[string]*api.BootProof{"signer": bp},
			bootByKey: map[string]*api.BootProof{ap.PublicKey: bp}, appProofs: []api.AppProof{ap, bad}}
		h := newProofHarness(t, fake, "signer", hostileText(i))
		checkClean(t, "boot proofs list", h.root.Render())
		h.key("enter")
		checkClean(t, "boot proof detail", h.root.Render())
		for range 3 { // the copyable values are hex from the verifier; copy a few
			h.key("down")
			h.key("y")
		}
		checkClean(t, "boot proof detail, end", h.root.Render())
		for _, c := range h.clipboard() {
			checkClean(t, "clipboard", c)
		}
		h.key("1")
		h.key("enter")
		h.activities().detail.pane.SetSize(200, 1000)
		checkClean(t, "app proofs", h.activities().detail.pane.View())
	}
}

func TestGoldenBootProofs(t *testing.T) {
	views := []struct {
		name string
		apps []string
		keys []string
	}{
		{"list", []string{"signer", "tampered", "missing"}, nil},
		{"list-failed", []string{"signer", "tampered", "missing"}, []string{"j"}},
		{"detail", []string{"signer"}, []string{"enter"}},
		{"detail-pcr0", []string{"signer"}, []string{"enter", "down", "down"}},
		{"detail-failed", []string{"tampered"}, []string{"enter"}},
		{"no-apps", nil, nil},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, v := range views {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], v.name), func(t *testing.T) {
				h := newProofHarness(t, proofFake(t), v.apps...)
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				for _, k := range v.keys {
					h.key(k)
				}
				golden.RequireEqual(t, screenFrame(h.root))
			})
		}
	}
}

// Verdicts in colour (dark theme): VERIFIED green, FAILED and CANNOT VERIFY red.
func TestGoldenBootProofsColour(t *testing.T) {
	h := newProofHarnessTheme(t, proofFake(t), theme.Options{Dark: true}, "signer", "tampered", "missing")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	golden.RequireEqual(t, screenFrame(h.root))
}

// openSignerReport is a 160x48 console whose Boot proofs screen has opened
// the report of proof, the boot proof of the app "signer", with its clock at
// now() and no ticks of its own.
func openSignerReport(proof *api.BootProof, now func() time.Time) *Root {
	fake := &fakeClient{bootByApp: map[string]*api.BootProof{"signer": proof}}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Theme: theme.Options{Dark: true}, Now: now,
		Static: true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Proofs: ProofSettings{Apps: []string{"signer"}}})
	r.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for _, m := range collect(r.Init()) {
		r.Update(m)
	}
	r.Update(keyPress("2"))
	r.Update(keyPress("enter"))
	return r
}

// A cursor move rebuilds and re-wraps the whole report; it must stay far below a
// frame (16 ms) so ↑/↓ feel instant. Measured with the frame render included.
func BenchmarkBootProofsCursorMove(b *testing.B) {
	r := openSignerReport(fixtureBootProof(b), func() time.Time { return testNow })
	if !strings.Contains(ansi.Strip(r.Render()), "▸ user data") {
		b.Fatalf("report not open:\n%s", r.Render())
	}
	down, up := keyPress("down"), keyPress("up")
	for i := 0; b.Loop(); i++ {
		k := down
		if i/20%2 == 1 {
			k = up
		}
		r.Update(k)
		_ = r.Render()
	}
}

// Boot proofs is a ui.ListDetail like Activities: a click selects an app (its
// failed checks show under the list) and o/O sort the apps.
func TestBootProofsListClicksAndSorts(t *testing.T) {
	h := newProofHarness(t, proofFake(t), "signer", "tampered", "missing")
	h.root.mouse = true
	lines := strings.Split(h.plain(), "\n")
	y := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "tampered ") {
			y = i
		}
	}
	if y < 0 {
		t.Fatalf("no tampered row:\n%s", h.plain())
	}
	h.send(tea.MouseClickMsg{X: 3, Y: y, Button: tea.MouseLeft})
	if got := h.bootProofs().list.Table.SelectedID(); got != "tampered" {
		t.Fatalf("the click selected %q, want tampered", got)
	}
	if !strings.Contains(h.plain(), "✗ cose-signature") {
		t.Errorf("the clicked app's failed check is not under the list:\n%s", h.plain())
	}
	h.key("o") // by APP, ascending
	var order []string
	for _, l := range strings.Split(h.plain(), "\n") {
		for _, app := range []string{"signer", "tampered", "missing"} {
			if strings.HasPrefix(l, app+" ") {
				order = append(order, app)
			}
		}
	}
	if strings.Join(order, ",") != "missing,signer,tampered" || !strings.Contains(h.plain(), "APP ▲") {
		t.Errorf("sorted by APP: %v\n%s", order, h.plain())
	}
}
