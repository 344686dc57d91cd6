package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/go-cose"
)

// Each case re-signs a demo enclave's attestation payload under a test CA
// built here (a configured root, as --root gives), with exactly one fault,
// and expects exactly one check to fail, naming the fault: no fault may read
// as VERIFIED, or be skipped as not applicable.

// testCert is a certificate of the test chain with its key.
type testCert struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

// issueTestCert issues tmpl under parent (self-signed when parent is nil).
func issueTestCert(t *testing.T, tmpl *x509.Certificate, parent *testCert) testCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, signerKey := tmpl, key
	if parent != nil {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return testCert{c, key}
}

// testCATemplate is a CA valid from an hour before now for a year.
func testCATemplate(now time.Time, cn string) *x509.Certificate {
	return &x509.Certificate{SerialNumber: serial(), Subject: pkix.Name{CommonName: cn},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
}

// singleFault is one fault: in the root, the intermediate, the document's
// payload, or the key that signs it. Nil fields leave that part genuine.
type singleFault struct {
	name    string
	root    func(*x509.Certificate)
	inter   func(*x509.Certificate)
	payload func(*rawAttestation)
	// otherSigner: the document is signed by a P-384 key that is not the leaf's.
	otherSigner bool
	// anotherRoot: the chain is issued by a root that is not the trusted one.
	anotherRoot bool
	fails       string
	reason      []string
}

func TestEachSingleFaultFailsExactlyItsCheck(t *testing.T) {
	enc, now, genuine := testCAEnclaveAttestation(t)
	dropPCR := func(i uint64) func(*rawAttestation) { return func(r *rawAttestation) { delete(r.PCRs, i) } }
	cases := []singleFault{
		{name: "signed by another key than the leaf's", otherSigner: true, fails: CheckCOSE, reason: []string{"signature does not verify with the leaf certificate's key"}},
		{name: "chain to another root", anotherRoot: true, fails: CheckChain, reason: []string{"does not lead to a trusted root", `configured root: test-root.pem`}},
		{name: "intermediate expired at the document's time", inter: func(c *x509.Certificate) {
			c.NotBefore, c.NotAfter = now.Add(-48*time.Hour), now.Add(-time.Hour)
		}, fails: CheckChain, reason: []string{"cabundle[1] (test intermediate) had expired at " + now.UTC().Format(time.RFC3339)}},
		{name: "intermediate not yet valid at the document's time", inter: func(c *x509.Certificate) { c.NotBefore = now.Add(time.Hour) },
			fails: CheckChain, reason: []string{"cabundle[1] (test intermediate) was not yet valid"}},
		{name: "trusted root expired at the document's time", root: func(c *x509.Certificate) {
			c.NotBefore, c.NotAfter = now.Add(-48*time.Hour), now.Add(-time.Hour)
		}, fails: CheckChain, reason: []string{`the trusted root "test-root.pem"`, "expired"}},
		{name: "intermediate not a CA", inter: func(c *x509.Certificate) { c.IsCA = false },
			fails: CheckChain, reason: []string{"cabundle[1] (test intermediate)", "not a CA"}},
		{name: "intermediate without keyCertSign", inter: func(c *x509.Certificate) { c.KeyUsage = x509.KeyUsageDigitalSignature },
			fails: CheckChain, reason: []string{"cabundle[1] (test intermediate)", "lacks keyCertSign"}},
		{name: "root path length 0 exceeded", root: func(c *x509.Certificate) { c.MaxPathLenZero = true },
			fails: CheckChain, reason: []string{`the trusted root "test-root.pem"`, "path length constraint 0 is exceeded"}},
		{name: "empty nonce", payload: func(r *rawAttestation) { r.Nonce = []byte{} }, fails: CheckUserData, reason: []string{"carries a nonce (0 bytes"}},
		{name: "PCR17 commits to another key", payload: func(r *rawAttestation) { r.PCRs[livePCR][0] ^= 1 }, fails: CheckPCR17, reason: []string{"neither commitment"}},
		// Nitro sends 16 PCRs or 32: a document with PCRs past PCR15 but
		// fewer than 32 must not pass for a 16-PCR one, whose check is N/A.
		{name: "PCR17 missing from 31 PCRs", payload: dropPCR(livePCR), fails: CheckPCR17, reason: []string{"PCR17 is (none)"}},
		{name: "PCR17 of another key among 17 PCRs", payload: func(r *rawAttestation) {
			for i := uint64(18); i < attestablePCRs; i++ {
				delete(r.PCRs, i)
			}
			delete(r.PCRs, setupPCR)
			r.PCRs[livePCR][0] ^= 1
		}, fails: CheckPCR17, reason: []string{"neither commitment"}},
		{name: "PCR31 missing beside a PCR17 of another key", payload: func(r *rawAttestation) {
			delete(r.PCRs, attestablePCRs-1)
			r.PCRs[livePCR][0] ^= 1
		}, fails: CheckPCR17, reason: []string{"neither commitment"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := verifyWithSingleFault(t, enc, now, genuine, tc)
			if got := rep.FailedChecks(); !slices.Equal(got, []string{tc.fails}) || rep.Verdict != Failed {
				t.Fatalf("failed %v, verdict %s; want only %s and FAILED:\n%s", got, rep.Verdict, tc.fails, dump(rep))
			}
			for _, want := range tc.reason {
				if r := rep.Check(tc.fails).Reason; !strings.Contains(r, want) {
					t.Errorf("%s's reason %q does not say %q", tc.fails, r, want)
				}
			}
		})
	}
}

// The genuine payload, re-signed under the same test chain, verifies: the
// faults above are the only difference. A document with no PCR past PCR15
// (Nitro's 16-PCR form) has no commitment to check.
func TestSingleFaultBaselineVerifies(t *testing.T) {
	enc, now, genuine := testCAEnclaveAttestation(t)
	for name, tc := range map[string]singleFault{
		"32 PCRs": {},
		"16 PCRs": {payload: func(r *rawAttestation) {
			for i := uint64(16); i < attestablePCRs; i++ {
				delete(r.PCRs, i)
			}
		}},
	} {
		rep := verifyWithSingleFault(t, enc, now, genuine, tc)
		if rep.Verdict != Verified {
			t.Fatalf("%s: %s", name, dump(rep))
		}
		if want := map[string]Status{"32 PCRs": Pass, "16 PCRs": NotApplicable}[name]; rep.Check(CheckPCR17).Status != want {
			t.Errorf("%s: pcr17 is %s, want %s", name, rep.Check(CheckPCR17).Status, want)
		}
	}
}

// testCAEnclaveAttestation is a demo enclave of testCAEnclave, its time,
// and its attestation document as parsed.
func testCAEnclaveAttestation(t *testing.T) (*DemoEnclave, time.Time, *attestation) {
	t.Helper()
	_, enc, now := testCAEnclave(t)
	doc, err := base64.StdEncoding.DecodeString(enc.BootProof.AwsAttestationDocB64)
	if err != nil {
		t.Fatal(err)
	}
	genuine, err := parseAttestation(doc)
	if err != nil {
		t.Fatal(err)
	}
	return enc, now, genuine
}

// verifyWithSingleFault verifies enc's boot proof with its document replaced
// by genuine's payload re-signed with tc's fault (faultyDocument), trusting
// the test root alone.
func verifyWithSingleFault(t *testing.T, enc *DemoEnclave, now time.Time, genuine *attestation, tc singleFault) *Report {
	t.Helper()
	bp := enc.BootProof
	var root Root
	bp.AwsAttestationDocB64, root = faultyDocument(t, now, genuine.raw, tc)
	return VerifyBootProof(bp, Options{Roots: []Root{root}})
}

// faultyDocument issues a root, an intermediate and a Nitro-like leaf (each
// shaped by tc), puts raw's fields under them (after tc.payload) and signs
// the COSE_Sign1 with the leaf's key, or another key when tc.otherSigner. It
// returns the document and the root to trust, as --root test-root.pem would.
func faultyDocument(t *testing.T, now time.Time, raw rawAttestation, tc singleFault) (string, Root) {
	t.Helper()
	rt := testCATemplate(now, "test root")
	if tc.root != nil {
		tc.root(rt)
	}
	root := issueTestCert(t, rt, nil)
	trusted := Root{Name: "test-root.pem", Cert: root.cert}
	if tc.anotherRoot {
		root = issueTestCert(t, testCATemplate(now, "test root"), nil)
	}
	it := testCATemplate(now, "test intermediate")
	if tc.inter != nil {
		tc.inter(it)
	}
	inter := issueTestCert(t, it, &root)
	leaf := issueTestCert(t, nitroLikeLeaf(now), &inter)
	raw.PCRs = maps.Clone(raw.PCRs)
	for i, v := range raw.PCRs {
		raw.PCRs[i] = slices.Clone(v)
	}
	raw.Certificate = leaf.cert.Raw
	raw.CABundle = [][]byte{root.cert.Raw, inter.cert.Raw}
	if tc.payload != nil {
		tc.payload(&raw)
	}
	payload, err := cbor.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	key := leaf.key
	if tc.otherSigner {
		key = issueTestCert(t, nitroLikeLeaf(now), &inter).key
	}
	signer, err := cose.NewSigner(cose.AlgorithmES384, key)
	if err != nil {
		t.Fatal(err)
	}
	msg := &cose.UntaggedSign1Message{Headers: nitroHeaders(), Payload: payload}
	if err := msg.Sign(rand.Reader, nil, signer); err != nil {
		t.Fatal(err)
	}
	out, err := msg.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(out), trusted
}
