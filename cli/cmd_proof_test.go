package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/proof"
)

const proofFixtures = "testdata/bootproof/"

func runProof(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), c, append([]string{"proof"}, args...))
	return code, out.String(), errOut.String()
}

func TestProofVerifyProductionFixture(t *testing.T) {
	code, out, errOut := runProof(t, "", "verify", "--boot-proof", proofFixtures+"turnkey_boot_proof_1.json", "--app-proofs", proofFixtures+"turnkey_app_proof_1.json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"Verdict: VERIFIED", "Anchor:  AWS Nitro Enclaves Root-G1", "✓ app-proof[0]", "preprod/signer (nonce 20250902)", "– pcr17", "manifest set: 2 of 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestProofVerifyJSON(t *testing.T) {
	code, out, _ := runProof(t, "", "verify", "--json", "--boot-proof", proofFixtures+"turnkey_boot_proof_1.json",
		"--allow-manifest", "24a9e2c0b0ce26bcbc3e65172f8b06b100d5e712591f604832cbea9ff5ce02be")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var rep struct {
		Verdict  string
		Checks   []proof.Check
		Manifest struct {
			Namespace struct{ Name string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if rep.Verdict != "VERIFIED" || rep.Manifest.Namespace.Name != "preprod/signer" {
		t.Errorf("verdict %s namespace %q", rep.Verdict, rep.Manifest.Namespace.Name)
	}
	for _, c := range rep.Checks {
		if c.ID == proof.CheckPins && c.Status != proof.Pass {
			t.Errorf("pins = %s: %s", c.Status, c.Reason)
		}
	}
}

func TestProofVerifyFailuresExit1(t *testing.T) {
	// The third-party document, validated in 2026: its certificates had expired.
	code, out, errOut := runProof(t, "", "verify", "--attestation", proofFixtures+"nitro_attestation_blocky.cbor", "--at", "2026-03-01T00:00:00Z")
	if code != 1 || !strings.Contains(out, "✗ cert-chain") || !strings.Contains(out, "expired") || !strings.Contains(errOut, "cert-chain") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	// At its own time it chains to AWS: no failure, PARTIAL, exit 0.
	code, out, _ = runProof(t, "", "verify", "--attestation", proofFixtures+"nitro_attestation_blocky.cbor")
	if code != 0 || !strings.Contains(out, "Verdict: PARTIAL") {
		t.Errorf("own time: exit %d\n%s", code, out)
	}
	// A script that checks only the exit status asks for VERIFIED.
	code, out, errOut = runProof(t, "", "verify", "--attestation", proofFixtures+"nitro_attestation_blocky.cbor", "--require-verified")
	if code != 1 || !strings.Contains(out, "Verdict: PARTIAL") || !strings.Contains(errOut, "PARTIAL, not VERIFIED (--require-verified)") {
		t.Errorf("--require-verified on PARTIAL: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, _ = runProof(t, "", "verify", "--boot-proof", proofFixtures+"turnkey_boot_proof_1.json", "--require-verified"); code != 0 || !strings.Contains(out, "Verdict: VERIFIED") {
		t.Errorf("--require-verified on VERIFIED: exit %d\n%s", code, out)
	}
	// A pinned PCR that differs.
	code, out, _ = runProof(t, "", "verify", "--boot-proof", proofFixtures+"turnkey_boot_proof_1.json", "--expect-pcr", "0="+strings.Repeat("00", 48))
	if code != 1 || !strings.Contains(out, "✗ pins") {
		t.Errorf("pin: exit %d\n%s", code, out)
	}
}

func TestProofVerifyBase64AttestationFromStdin(t *testing.T) {
	raw, err := os.ReadFile(proofFixtures + "nitro_attestation_blocky.cbor")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runProof(t, base64.StdEncoding.EncodeToString(raw)+"\n", "verify", "--attestation", "-")
	if code != 0 || !strings.Contains(out, "✓ cose-signature") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestProofVerifyDemoRoot(t *testing.T) {
	auth, err := proof.NewDemoAuthority(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	enc, err := proof.NewDemoEnclave(auth, "signer", "demo-org", "demo", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bootFile := filepath.Join(dir, "boot.json")
	b, _ := json.Marshal(api.BootProofResponse{BootProof: enc.BootProof})
	os.WriteFile(bootFile, b, 0o600)
	rootFile := filepath.Join(dir, "root.pem")
	os.WriteFile(rootFile, auth.RootPEM(), 0o600)

	code, out, _ := runProof(t, "", "verify", "--boot-proof", bootFile, "--root", rootFile)
	if code != 0 || !strings.Contains(out, "Anchor:  demo root: ") || !strings.Contains(out, "✓ pcr17") {
		t.Errorf("with the demo root: exit %d\n%s", code, out)
	}
	code, out, _ = runProof(t, "", "verify", "--boot-proof", bootFile)
	if code != 1 || !strings.Contains(out, "✗ cert-chain") {
		t.Errorf("AWS root only: exit %d\n%s", code, out)
	}
}

// TestProofVerifySanitizes: unattested labels and attested strings from a hostile
// boot proof must not reach the terminal with escape sequences or bidi controls.
func TestProofVerifySanitizes(t *testing.T) {
	auth, _ := proof.NewDemoAuthority(time.Now())
	enc, err := proof.NewDemoEnclave(auth, "signer", "o", "l", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	bp := enc.BootProof
	bp.Owner = "evil\x1b]52;c;ZWNobyBwd25lZA==\x07owner"
	bp.DeploymentLabel = "label\u202eesrever\r\x1b[2J"
	dir := t.TempDir()
	f := filepath.Join(dir, "boot.json")
	b, _ := json.Marshal(bp)
	os.WriteFile(f, b, 0o600)
	for _, args := range [][]string{{"verify", "--boot-proof", f}, {"verify", "--json", "--boot-proof", f}} {
		_, out, errOut := runProof(t, "", args...)
		for _, bad := range []string{"\x1b", "\u202e", "\r", "\x07"} {
			if strings.Contains(out+errOut, bad) {
				t.Errorf("%v: output contains %q", args, bad)
			}
		}
		// Shown escaped, never stripped.
		for _, want := range []string{`evil\u001b]52;c;ZWNobyBwd25lZA==\u0007owner`, `label\u202eesrever\r\u001b[2J`} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %s:\n%s", args, want, out)
			}
		}
	}
	// --json keeps the values exact.
	_, out, _ := runProof(t, "", "verify", "--json", "--boot-proof", f)
	var rep struct {
		BootProof struct{ Owner, DeploymentLabel string } `json:"bootProof"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.BootProof.Owner != bp.Owner || rep.BootProof.DeploymentLabel != bp.DeploymentLabel {
		t.Errorf("--json changed the labels: %q %q", rep.BootProof.Owner, rep.BootProof.DeploymentLabel)
	}
}

func TestProofUsageErrors(t *testing.T) {
	cases := [][]string{
		{},
		{"bogus"},
		{"verify"},
		{"verify", "--boot-proof", "a", "--attestation", "b"},
		{"verify", "--boot-proof", "a", "--at", "yesterday"},
		{"verify", "--boot-proof", "a", "--expect-pcr", "40=00"},
		{"verify", "--boot-proof", "a", "--expect-pcr", "0=zz"},
		{"verify", "--boot-proof", "a", "--allow-manifest", "abcd"},
		{"verify", "--boot-proof", "a", "extra"},
		{"fetch"},
	}
	for _, args := range cases {
		if code, _, errOut := runProof(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 with a message", args, code, errOut)
		}
	}
	for _, args := range [][]string{{"-h"}, {"verify", "-h"}, {"fetch", "-h"}} {
		code, out, _ := runProof(t, "", args...)
		if code != 0 || !strings.Contains(out, "vigil proof") {
			t.Errorf("%v: exit %d, out %q", args, code, out)
		}
	}
}

func TestProofVerifyBadFiles(t *testing.T) {
	dir := t.TempDir()
	notProof := filepath.Join(dir, "x.json")
	os.WriteFile(notProof, []byte(`{"hello":1}`), 0o600)
	// A file that is not there is a mistake in the command (2), as on
	// every flag naming an input file; one that is not a proof fails (1).
	if code, _, errOut := runProof(t, "", "verify", "--boot-proof", filepath.Join(dir, "missing.json")); code != 2 || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing boot proof: exit %d, stderr %q; want 2 naming the file", code, errOut)
	}
	for _, args := range [][]string{
		{"verify", "--boot-proof", notProof},
		{"verify", "--boot-proof", proofFixtures + "turnkey_boot_proof_1.json", "--app-proofs", notProof},
		{"verify", "--boot-proof", proofFixtures + "turnkey_boot_proof_1.json", "--root", notProof},
	} {
		code, _, errOut := runProof(t, "", args...)
		if code != 1 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 1 with a message", args, code, errOut)
		}
	}
}

// TestProofFetch fetches the production fixture from a stand-in service, with a
// real profile, key and stamped request, pins from the profile, and --out.
func TestProofFetch(t *testing.T) {
	raw, err := os.ReadFile(proofFixtures + "turnkey_boot_proof_1.json")
	if err != nil {
		t.Fatal(err)
	}
	// A hostile, unattested label: --json must give it back exactly.
	var reply api.BootProofResponse
	if err := json.Unmarshal(raw, &reply); err != nil {
		t.Fatal(err)
	}
	const owner = "owner\u202e\u200b\x1b[2J\u0085"
	reply.BootProof.Owner = owner
	fixture, _ := json.Marshal(reply)
	var gotApp string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/public/v1/query/get_latest_boot_proof" || r.Header.Get("X-Stamp") == "" {
			http.Error(w, `{"code":5,"message":"not found"}`, http.StatusNotFound)
			return
		}
		var req api.GetLatestBootProofRequest
		json.NewDecoder(r.Body).Decode(&req)
		gotApp = req.AppName
		w.Header().Set("Content-Type", "application/json")
		w.Write(fixture)
	}))
	defer srv.Close()

	dir := t.TempDir()
	keysDir := filepath.Join(dir, "keys")
	if _, err := (keys.Store{Dir: keysDir}).Generate("k", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.toml")
	pcr0 := "f67076a8f9796b90d7f0eb148ec6926f66fe04c80861151916961f7dec715b3c8a36e5908e9551c20048719da134b207"
	os.WriteFile(cfg, []byte(`[profiles.t]
base_url = "`+srv.URL+`"
organization_id = "org-1"
key = "k"
keys_dir = "`+keysDir+`"
allowed_manifest_hashes = ["24a9e2c0b0ce26bcbc3e65172f8b06b100d5e712591f604832cbea9ff5ce02be"]
[profiles.t.expected_pcrs.signer]
0 = "`+pcr0+`"
`), 0o600)
	out := filepath.Join(dir, "saved.json")
	code, stdout, errOut := runProof(t, "", "fetch", "--app", "signer", "--config", cfg, "--out", out)
	if code != 0 || gotApp != "signer" || !strings.Contains(stdout, "✓ pins") || !strings.Contains(stdout, "Verdict: VERIFIED") {
		t.Fatalf("exit %d app %q\n%s\n%s", code, gotApp, stdout, errOut)
	}
	// The saved reply verifies again offline.
	if code, stdout, _ := runProof(t, "", "verify", "--boot-proof", out); code != 0 {
		t.Errorf("saved reply: exit %d\n%s", code, stdout)
	}
	// Fetching again replaces the file whole, never writes into the earlier
	// one: a full disk mid-write then leaves the earlier proof as it was.
	// (A second name of the earlier file shows whether it was written in.)
	earlier := filepath.Join(dir, "earlier.json")
	if err := os.Link(out, earlier); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(earlier)
	if err := os.WriteFile(out, append(want, "   "...), 0o644); err != nil { // through both names
		t.Fatal(err)
	}
	want, _ = os.ReadFile(earlier)
	if code, stdout, errOut := runProof(t, "", "fetch", "--app", "signer", "--config", cfg, "--out", out); code != 0 {
		t.Fatalf("fetch again: exit %d\n%s\n%s", code, stdout, errOut)
	}
	if got, _ := os.ReadFile(earlier); string(got) != string(want) {
		t.Errorf("fetch --out wrote into the earlier file in place (its other name now holds %d bytes, had %d)", len(got), len(want))
	}
	// --out through a symbolic link (latest.json -> a dated file) writes the
	// file it points at, which keeps its mode; the link stays a link, so
	// what reads it never sees a stale proof.
	dated := filepath.Join(dir, "proof-dated.json")
	if err := os.WriteFile(dated, []byte("stale"), 0o640); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dated, 0o640)
	latest := filepath.Join(dir, "latest.json")
	if err := os.Symlink("proof-dated.json", latest); err != nil {
		t.Fatal(err)
	}
	if code, stdout, errOut := runProof(t, "", "fetch", "--app", "signer", "--config", cfg, "--out", latest); code != 0 {
		t.Fatalf("fetch --out LINK: exit %d\n%s\n%s", code, stdout, errOut)
	}
	if fi, err := os.Lstat(latest); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("fetch --out LINK replaced the link with a file (%v)", err)
	}
	if fi, err := os.Stat(dated); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("the link's target lost its mode 0640: %v %v", fi.Mode(), err)
	}
	if code, stdout, _ := runProof(t, "", "verify", "--boot-proof", dated); code != 0 {
		t.Errorf("the link's target does not hold the fetched proof: exit %d\n%s", code, stdout)
	}
	// --json: the label exact, escaped for the terminal.
	code, stdout, _ = runProof(t, "", "fetch", "--app", "signer", "--config", cfg, "--json")
	var rep struct {
		BootProof struct{ Owner string } `json:"bootProof"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 0 {
		t.Fatalf("fetch --json: exit %d, %v\n%s", code, err, stdout)
	}
	if rep.BootProof.Owner != owner || !strings.Contains(stdout, `owner\u202e\u200b\u001b[2J\u0085`) {
		t.Errorf("fetch --json owner = %q, want %q escaped as \\uXXXX:\n%s", rep.BootProof.Owner, owner, stdout)
	}
	// A pin from the command line wins over the profile's, and fails here.
	code, stdout, _ = runProof(t, "", "fetch", "--app", "signer", "--config", cfg, "--expect-pcr", "0="+strings.Repeat("00", 48))
	if code != 1 || !strings.Contains(stdout, "✗ pins") {
		t.Errorf("flag pin: exit %d\n%s", code, stdout)
	}
}
