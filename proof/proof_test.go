package proof

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

const fixtureDir = "testdata/"

// Facts from fixtures/README.md, checked independently of this package.
const (
	fixtureManifestHash = "24a9e2c0b0ce26bcbc3e65172f8b06b100d5e712591f604832cbea9ff5ce02be"
	fixtureDocTime      = "2025-09-16T21:25:49.422Z"
	blockyDocTime       = "2024-09-07T14:37:39.545Z"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(fixtureDir + name)
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return b
}

func fixturePair(t testing.TB) (api.BootProof, []api.AppProof) {
	t.Helper()
	var bp api.BootProofResponse
	if err := json.Unmarshal(readFixture(t, "turnkey_boot_proof_1.json"), &bp); err != nil {
		t.Fatal(err)
	}
	var ap api.ListAppProofsResponse
	if err := json.Unmarshal(readFixture(t, "turnkey_app_proof_1.json"), &ap); err != nil {
		t.Fatal(err)
	}
	return bp.BootProof, ap.AppProofs
}

func statuses(r *Report) map[string]Status {
	m := map[string]Status{}
	for _, c := range r.Checks {
		m[c.ID] = c.Status
	}
	return m
}

func TestProductionBootProofVerifies(t *testing.T) {
	bp, aps := fixturePair(t)
	rep := VerifyBootProof(bp, Options{AppProofs: aps})
	want := map[string]Status{
		CheckCOSE: Pass, CheckChain: Pass, CheckUserData: Pass, CheckPublicKey: Pass,
		CheckManifestDecode: Pass, CheckPCRs: Pass, CheckApprovals: Pass,
		CheckPins: NotApplicable, CheckPCR17: NotApplicable, "app-proof[0]": Pass,
		CheckApp: NotApplicable, "app-proof[0].activity": NotApplicable, // no app, no activity given
	}
	if got := statuses(rep); !mapsEqual(got, want) {
		t.Fatalf("checks = %v\nwant %v\n%s", got, want, dump(rep))
	}
	if rep.Verdict != Verified {
		t.Errorf("verdict = %s, want VERIFIED", rep.Verdict)
	}
	if rep.Anchor != AWSRootName {
		t.Errorf("anchor = %q", rep.Anchor)
	}
	wantTime, _ := time.Parse(time.RFC3339Nano, fixtureDocTime)
	if !rep.DocumentTime.Equal(wantTime) {
		t.Errorf("document time = %v, want %v", rep.DocumentTime, wantTime)
	}
	if len(rep.Document.PCRs) != 16 {
		t.Errorf("document has %d PCRs, want 16", len(rep.Document.PCRs))
	}
	if got := hex.EncodeToString(rep.Document.UserData); got != fixtureManifestHash {
		t.Errorf("user_data = %s", got)
	}
	m := rep.Manifest
	if m == nil {
		t.Fatal("no manifest in report")
	}
	if m.Version != "v0" || m.Namespace.Name != "preprod/signer" || m.Namespace.Nonce != 20250902 {
		t.Errorf("manifest = %s %q %d, want v0 preprod/signer 20250902", m.Version, m.Namespace.Name, m.Namespace.Nonce)
	}
	if hex.EncodeToString(m.SHA256) != fixtureManifestHash {
		t.Errorf("manifest hash = %x", m.SHA256)
	}
	for name, s := range map[string]QuorumSet{"manifest": m.ManifestSet, "share": m.ShareSet, "patch": *m.PatchSet} {
		if s.Threshold != 2 || len(s.Members) != 2 {
			t.Errorf("%s set is %d-of-%d, want 2-of-2", name, s.Threshold, len(s.Members))
		}
	}
	// The manifest's PCRs equal the document's, independently of the check.
	for i, p := range []HexBytes{m.Enclave.PCR0, m.Enclave.PCR1, m.Enclave.PCR2, m.Enclave.PCR3} {
		if !bytes.Equal(p, rep.Document.PCRs[i]) {
			t.Errorf("PCR%d differs between manifest and document", i)
		}
	}
	if !m.Enclave.AWSRootIsPinned {
		t.Error("the manifest's AWS root should be the pinned Root-G1")
	}
	valid := 0
	for _, a := range m.Approvals {
		if a.Valid && a.Member {
			valid++
		}
	}
	if valid != 2 {
		t.Errorf("%d valid approvals, want 2", valid)
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("report does not marshal: %v", err)
	}
}

func TestThirdPartyNitroDocument(t *testing.T) {
	doc := readFixture(t, "nitro_attestation_blocky.cbor")
	rep := VerifyAttestation(doc, Options{})
	if s := statuses(rep); s[CheckCOSE] != Pass || s[CheckChain] != Pass {
		t.Fatalf("at its own time: %s", dump(rep))
	}
	if rep.Verdict != Partial || rep.Anchor != AWSRootName {
		t.Errorf("verdict %s anchor %q, want PARTIAL anchored at AWS", rep.Verdict, rep.Anchor)
	}
	wantTime, _ := time.Parse(time.RFC3339Nano, blockyDocTime)
	if !rep.DocumentTime.Equal(wantTime) {
		t.Errorf("document time %v, want %v", rep.DocumentTime, wantTime)
	}
	if !bytes.Equal(rep.Document.UserData, bytes.Repeat([]byte{1}, 1024)) {
		t.Error("user_data should be 1024 bytes of 0x01")
	}

	later := VerifyAttestation(doc, Options{At: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)})
	if got := later.FailedChecks(); !slices.Equal(got, []string{CheckChain}) {
		t.Fatalf("in 2026 failed = %v, want [cert-chain]", got)
	}
	if r := later.Check(CheckChain).Reason; !strings.Contains(r, "expired") {
		t.Errorf("reason %q does not mention expiry", r)
	}
	if later.Verdict != Failed {
		t.Errorf("verdict %s", later.Verdict)
	}
}

// TestTamperingFailsOnlyTheRightCheck changes one field at a time.
func TestTamperingFailsOnlyTheRightCheck(t *testing.T) {
	auth, err := NewDemoAuthority(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	demo, err := NewDemoEnclave(auth, "signer", "demo", "d1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	demoProof, err := demo.SignAppProof([]byte(`{"type":"APP_PROOF_TYPE_ADDRESS_DERIVATION"}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		mutate func(bp *api.BootProof, aps []api.AppProof) []api.AppProof
		want   []string
	}{
		{"document signature byte", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			bp.AwsAttestationDocB64 = editB64(t, bp.AwsAttestationDocB64, func(b []byte) { b[len(b)-1] ^= 1 })
			return aps
		}, []string{CheckCOSE}},
		{"document payload byte (module_id)", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			bp.AwsAttestationDocB64 = editB64(t, bp.AwsAttestationDocB64, func(b []byte) {
				i := bytes.Index(b, []byte("i-02447a4813"))
				b[i+2] = '1'
			})
			return aps
		}, []string{CheckCOSE}},
		{"manifest byte (namespace)", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			bp.QosManifestB64 = editB64(t, bp.QosManifestB64, func(b []byte) {
				i := bytes.Index(b, []byte("preprod/signer"))
				b[i] = 'q'
			})
			return aps
		}, []string{CheckUserData}},
		{"envelope approval signature", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			m, _ := base64.StdEncoding.DecodeString(bp.QosManifestB64)
			bp.QosManifestEnvelopeB64 = editB64(t, bp.QosManifestEnvelopeB64, func(b []byte) {
				b[len(m)+4+4+10] ^= 0x40 // inside the first approval's signature
			})
			return aps
		}, []string{CheckApprovals}},
		{"ephemeral key", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			k := []byte(bp.EphemeralPublicKeyHex)
			k[10] = flipHex(k[10])
			bp.EphemeralPublicKeyHex = string(k)
			return aps
		}, []string{CheckPublicKey}},
		{"app proof payload", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			aps[0].ProofPayload = strings.Replace(aps[0].ProofPayload, "0xb84b", "0xb84c", 1)
			return aps
		}, []string{"app-proof[0]"}},
		{"app proof payload whitespace", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			aps[0].ProofPayload += " "
			return aps
		}, []string{"app-proof[0]"}},
		{"app proof signature", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			s := []byte(aps[0].Signature)
			s[5] = flipHex(s[5])
			aps[0].Signature = string(s)
			return aps
		}, []string{"app-proof[0]"}},
		{"app proof from another enclave", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			return []api.AppProof{demoProof}
		}, []string{"app-proof[0]"}},
		{"app proof scheme", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			aps[0].Scheme = "SIGNATURE_SCHEME_TK_API_P256"
			return aps
		}, []string{"app-proof[0]"}},
		{"another enclave's document", func(bp *api.BootProof, aps []api.AppProof) []api.AppProof {
			bp.AwsAttestationDocB64 = demo.BootProof.AwsAttestationDocB64
			return aps
		}, []string{CheckChain, CheckUserData, CheckPublicKey, CheckPCRs, CheckApprovals, "app-proof[0]"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bp, aps := fixturePair(t)
			aps = tc.mutate(&bp, aps)
			rep := VerifyBootProof(bp, Options{AppProofs: aps})
			if got := rep.FailedChecks(); !slices.Equal(got, tc.want) {
				t.Fatalf("failed = %v, want %v\n%s", got, tc.want, dump(rep))
			}
			if rep.Verdict != Failed {
				t.Errorf("verdict = %s", rep.Verdict)
			}
		})
	}
}

// A Borsh manifest starts with its namespace name's length: at 123 (or 379, …)
// bytes its first byte is '{', and the proof must still read as Borsh.
func TestBorshManifestStartingWithABrace(t *testing.T) {
	now := time.Now()
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{122, 123, 124, 379} {
		enc, err := NewDemoEnclave(auth, "a", strings.Repeat("o", n-len("/a")), "d", now)
		if err != nil {
			t.Fatal(err)
		}
		if n == 123 {
			if m, _ := decodeB64(enc.BootProof.QosManifestB64); len(m) == 0 || m[0] != '{' {
				t.Fatalf("the manifest of a 123-byte namespace does not start with '{'")
			}
		}
		if rep := VerifyBootProof(enc.BootProof, Options{Roots: []Root{auth.Root()}}); rep.Verdict != Verified {
			t.Errorf("namespace of %d bytes: %s", n, dump(rep))
		}
	}
}

func TestDemoEnclave(t *testing.T) {
	now := time.Now()
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := NewDemoEnclave(auth, "signer", "vigil-demo", "demo-1", now)
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte(`{"type":"APP_PROOF_TYPE_ADDRESS_DERIVATION","timestampMs":"1"}`)
	ap, err := enc.SignAppProof(payload)
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyBootProof(enc.BootProof, Options{Roots: []Root{auth.Root()}, AppProofs: []api.AppProof{ap}})
	if rep.Verdict != Verified {
		t.Fatalf("demo proof: %s", dump(rep))
	}
	if s := statuses(rep); s[CheckPCR17] != Pass {
		t.Errorf("a 32-PCR demo document should run the PCR17 check: %v", s[CheckPCR17])
	}
	if !strings.HasPrefix(rep.Anchor, "demo root: ") || !strings.Contains(rep.Check(CheckChain).Reason, "DEMO") {
		t.Errorf("anchor %q / reason %q should name a demo root", rep.Anchor, rep.Check(CheckChain).Reason)
	}
	if m := rep.Manifest; m.ManifestSet.Threshold != 2 || len(m.ManifestSet.Members) != 3 || m.Version != "v0" {
		t.Errorf("demo manifest set %d-of-%d %s, want 2-of-3 v0", m.ManifestSet.Threshold, len(m.ManifestSet.Members), m.Version)
	}

	awsOnly := VerifyBootProof(enc.BootProof, Options{AppProofs: []api.AppProof{ap}})
	if got := awsOnly.FailedChecks(); !slices.Equal(got, []string{CheckChain}) || awsOnly.Verdict != Failed {
		t.Fatalf("against the AWS root alone: failed %v verdict %s", got, awsOnly.Verdict)
	}

	// Through the PEM a user would pass with --root.
	roots, err := ParseRootsPEM("demo.pem", auth.RootPEM())
	if err != nil || len(roots) != 1 || !roots[0].Demo {
		t.Fatalf("ParseRootsPEM(demo) = %+v, %v", roots, err)
	}
	if r := VerifyBootProof(enc.BootProof, Options{Roots: roots}); r.Verdict != Verified || !strings.HasPrefix(r.Anchor, "demo root") {
		t.Errorf("via PEM: %s %q", r.Verdict, r.Anchor)
	}

	// Persistence round trips: a reloaded authority still issues proofs that chain
	// to the original root; a reloaded enclave still signs with the attested key.
	ab, err := auth.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	auth2, err := LoadDemoAuthority(ab)
	if err != nil {
		t.Fatal(err)
	}
	enc2, err := NewDemoEnclave(auth2, "other", "vigil-demo", "demo-2", now)
	if err != nil {
		t.Fatal(err)
	}
	if r := VerifyBootProof(enc2.BootProof, Options{Roots: []Root{auth.Root()}}); r.Verdict != Verified {
		t.Errorf("reloaded authority: %s", dump(r))
	}
	eb, err := enc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	enc3, err := LoadDemoEnclave(eb)
	if err != nil {
		t.Fatal(err)
	}
	ap3, _ := enc3.SignAppProof([]byte("x"))
	if r := VerifyBootProof(enc.BootProof, Options{Roots: []Root{auth.Root()}, AppProofs: []api.AppProof{ap3}}); r.Verdict != Verified {
		t.Errorf("reloaded enclave: %s", dump(r))
	}
	// A stored enclave whose key was swapped is refused.
	var f map[string]any
	json.Unmarshal(eb, &f)
	eb2, _ := enc2.Marshal()
	var f2 map[string]any
	json.Unmarshal(eb2, &f2)
	f["signingKey"] = f2["signingKey"]
	bad, _ := json.Marshal(f)
	if _, err := LoadDemoEnclave(bad); err == nil {
		t.Error("LoadDemoEnclave accepted a key that does not match the boot proof")
	}
}

func TestDebugModeFails(t *testing.T) {
	auth, _ := NewDemoAuthority(time.Now())
	enc, err := newDemoEnclave(auth, "dbg", "o", "l", time.Now(), demoParams{pcrCount: 16, debug: true})
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyBootProof(enc.BootProof, Options{Roots: []Root{auth.Root()}})
	if got := rep.FailedChecks(); !slices.Equal(got, []string{CheckPCRs}) {
		t.Fatalf("failed %v, want [pcrs]\n%s", got, dump(rep))
	}
	if !strings.Contains(rep.Check(CheckPCRs).Reason, "debug mode") {
		t.Errorf("reason %q should say debug mode", rep.Check(CheckPCRs).Reason)
	}
	if s := statuses(rep); s[CheckPCR17] != NotApplicable {
		t.Errorf("16-PCR document: pcr17 = %s, want n/a", s[CheckPCR17])
	}
	raw, _ := base64.StdEncoding.DecodeString(enc.BootProof.AwsAttestationDocB64)
	if got := VerifyAttestation(raw, Options{Roots: []Root{auth.Root()}}).FailedChecks(); !slices.Equal(got, []string{CheckPCRs}) {
		t.Errorf("VerifyAttestation on a debug document failed %v, want [pcrs]", got)
	}
}

// TestLiveManifestCommitmentVector uses a vector published with a public QOS
// verifier (derived from qos_nsm): manifest hash of 32 zero bytes, key 0x04 then
// 129 bytes of 0x11.
func TestLiveManifestCommitmentVector(t *testing.T) {
	key := bytes.Repeat([]byte{0x11}, 130)
	key[0] = 0x04
	got := hex.EncodeToString(LiveManifestCommitment(make([]byte, 32), key))
	const want = "d19443155765a0795affb170c1e13a2360ea38202a5fa703950261f3d0a0c2321dd0ae2b8d7c9d1798d6898b1e25a94c"
	if got != want {
		t.Errorf("commitment = %s, want %s", got, want)
	}
}

func TestWrongPCR17Fails(t *testing.T) {
	auth, _ := NewDemoAuthority(time.Now())
	enc, err := NewDemoEnclave(auth, "a", "o", "l", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// A different enclave's boot proof fields around this document: the PCR17
	// commitment covers this document's own user_data and key, so it still holds;
	// only a document whose PCR17 disagrees fails it. Build one by re-attesting.
	pcrs := map[uint64][]byte{}
	for i := range 32 {
		pcrs[uint64(i)] = make([]byte, 48)
	}
	pcrs[0] = bytes.Repeat([]byte{1}, 48) // not debug mode
	doc, err := auth.attest(time.Now(), "a", pcrs, make([]byte, 32), mustHex(t, enc.BootProof.EphemeralPublicKeyHex))
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyAttestation(doc, Options{Roots: []Root{auth.Root()}})
	if got := rep.FailedChecks(); !slices.Equal(got, []string{CheckPCR17}) {
		t.Fatalf("failed %v, want [pcr17]\n%s", got, dump(rep))
	}
}

func TestPins(t *testing.T) {
	bp, _ := fixturePair(t)
	base := VerifyBootProof(bp, Options{})
	pcr0 := []byte(base.Document.PCRs[0])
	good, _ := hex.DecodeString(fixtureManifestHash)
	cases := []struct {
		name string
		opts Options
		want Status
	}{
		{"pcr0 matches", Options{ExpectedPCRs: map[int][]byte{0: pcr0}}, Pass},
		{"pcr0 differs", Options{ExpectedPCRs: map[int][]byte{0: make([]byte, 48)}}, Fail},
		{"pcr20 missing", Options{ExpectedPCRs: map[int][]byte{20: make([]byte, 48)}}, Fail},
		{"manifest hash allowed", Options{AllowedManifestHashes: [][]byte{make([]byte, 32), good}}, Pass},
		{"manifest hash not allowed", Options{AllowedManifestHashes: [][]byte{make([]byte, 32)}}, Fail},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := VerifyBootProof(bp, tc.opts)
			if got := rep.Check(CheckPins).Status; got != tc.want {
				t.Errorf("pins = %s, want %s: %s", got, tc.want, rep.Check(CheckPins).Reason)
			}
			if tc.want == Fail && !slices.Equal(rep.FailedChecks(), []string{CheckPins}) {
				t.Errorf("failed %v, want only pins", rep.FailedChecks())
			}
		})
	}
}

func TestHostileBootProofs(t *testing.T) {
	bp, _ := fixturePair(t)
	cases := map[string]api.BootProof{
		"empty":              {},
		"not base64":         {AwsAttestationDocB64: "%%%", QosManifestB64: "%%%", QosManifestEnvelopeB64: "%%%", EphemeralPublicKeyHex: "zz"},
		"truncated doc":      func() api.BootProof { b := bp; b.AwsAttestationDocB64 = b.AwsAttestationDocB64[:200]; return b }(),
		"truncated manifest": func() api.BootProof { b := bp; b.QosManifestB64 = b.QosManifestB64[:400]; return b }(),
		"json v2 garbage":    func() api.BootProof { b := bp; b.QosManifestVersion = "v2"; return b }(),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			rep := VerifyBootProof(b, Options{AppProofs: []api.AppProof{{Scheme: AppProofScheme, PublicKey: "04", Signature: "00"}}})
			if rep == nil || rep.Verdict != Failed {
				t.Fatalf("verdict %v", rep)
			}
			for _, c := range rep.Checks {
				if c.Status == Fail && c.Reason == "" {
					t.Errorf("check %s failed without a reason", c.ID)
				}
			}
		})
	}
}

func TestParseRootsPEM(t *testing.T) {
	roots, err := ParseRootsPEM("aws.pem", readFixture(t, "aws_nitro_root_g1.pem"))
	if err != nil || len(roots) != 1 || roots[0].Demo || roots[0].Name != "aws.pem" {
		t.Fatalf("roots %+v, err %v", roots, err)
	}
	for name, in := range map[string]string{"empty": "", "garbage": "hello", "bad cert": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"} {
		if _, err := ParseRootsPEM(name, []byte(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	aws, err := AWSRoot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(aws.Cert.Raw, roots[0].Cert.Raw) {
		t.Error("the embedded root differs from the fixture")
	}
}

func TestManifestV1Borsh(t *testing.T) {
	// Hand-built v1 bytes, field by field in the order of QOS's ManifestV1.
	w := &borshWriter{}
	w.str("ns")
	w.u32(7)
	w.bytes([]byte{1, 2})
	w.raw(bytes.Repeat([]byte{9}, 32))
	w.u8(0)  // restart Never
	w.u32(2) // bridge_config
	w.u8(0)  // Server
	w.u16(3000)
	w.str("0.0.0.0")
	w.u8(1) // Client
	w.u16(443)
	w.u8(0) // None
	w.u8(1) // debug_mode
	w.strings([]string{"--x"})
	for range 2 { // manifest set, share set
		w.u32(1)
		w.u32(1)
		w.str("m")
		w.bytes([]byte{4})
	}
	for range 5 {
		w.bytes([]byte{5})
	}
	w.str("commit")
	w.u32(0) // patch set
	w.u32(0)
	m, err := decodeManifest(w.b, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "v1" || !m.Pivot.DebugMode || m.Pivot.Restart != "Never" || len(m.Pivot.Bridges) != 2 || m.Enclave.QOSCommit != "commit" || m.Namespace.Nonce != 7 {
		t.Errorf("decoded %+v", m)
	}
	if _, err := decodeManifest(append(w.b, 0), false); err == nil {
		t.Error("trailing byte accepted")
	}
}

func TestManifestV2JSON(t *testing.T) {
	j := `{"version":"v2","namespace":{"name":"n","nonce":"3","quorumKey":"0102"},"pivot":{"hash":"` + strings.Repeat("09", 32) +
		`","restart":"Always","bridgeConfig":[],"debugMode":false,"args":["a"]},"manifestSet":{"threshold":"1","members":[{"alias":"x","pubKey":"04"}]},` +
		`"shareSet":{"threshold":1,"members":[]},"enclave":{"pcr0":"00","pcr1":"01","pcr2":"02","pcr3":"03","awsRootCertificate":"","qosCommit":"c"}}`
	m, err := decodeManifest([]byte(j), true)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != "v2" || m.Namespace.Nonce != 3 || m.ManifestSet.Threshold != 1 {
		t.Errorf("decoded %+v", m)
	}
	if _, err := decodeManifest([]byte(strings.Replace(j, `"c"}`, `"c","extra":1}`, 1)), true); err == nil {
		t.Error("unknown field accepted")
	}
}

func BenchmarkVerifyFixturePair(b *testing.B) {
	bp, aps := fixturePair(b)
	opts := Options{AppProofs: aps}
	for b.Loop() {
		if r := VerifyBootProof(bp, opts); r.Verdict != Verified {
			b.Fatal(r.Verdict)
		}
	}
}

func editB64(t *testing.T, s string, edit func([]byte)) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	edit(b)
	return base64.StdEncoding.EncodeToString(b)
}

func flipHex(c byte) byte {
	if c == '0' {
		return '1'
	}
	return '0'
}

func mustHex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mapsEqual(a, b map[string]Status) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func dump(r *Report) string {
	var sb strings.Builder
	sb.WriteString(string(r.Verdict) + "\n")
	for _, c := range r.Checks {
		sb.WriteString("  " + c.ID + " " + string(c.Status) + ": " + c.Reason + "\n")
	}
	return sb.String()
}

// BenchmarkP384Verify is the floor of a full verification, which needs five of
// these (the COSE signature and four certificate links).
func BenchmarkP384Verify(b *testing.B) {
	k, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	d := make([]byte, 48)
	r, s, _ := ecdsa.Sign(rand.Reader, k, d)
	for b.Loop() {
		if !ecdsa.Verify(&k.PublicKey, d, r, s) {
			b.Fatal("verify")
		}
	}
}
