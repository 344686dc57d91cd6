package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/go-cose"
)

// These tests sign documents with a test CA (a demo authority passed in as a
// configured root, the path --root and trusted_roots use), so that each
// hostile document differs from one that verifies
// (TestResignedDocumentVerifies) by exactly one thing.

// resignedDocument re-signs enc's attestation payload (after mutate, if any)
// with a fresh leaf issued by auth's intermediate from leaf, under hdr.
func resignedDocument(t *testing.T, auth *DemoAuthority, enc *DemoEnclave, leaf *x509.Certificate, hdr cose.Headers, mutate func(*rawAttestation)) string {
	t.Helper()
	doc, err := base64.StdEncoding.DecodeString(enc.BootProof.AwsAttestationDocB64)
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseAttestation(doc)
	if err != nil {
		t.Fatal(err)
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, auth.inter, &leafKey.PublicKey, auth.interKey)
	if err != nil {
		t.Fatal(err)
	}
	raw := a.raw
	raw.Certificate = leafDER
	if mutate != nil {
		mutate(&raw)
	}
	payload, err := cbor.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := cose.NewSigner(cose.AlgorithmES384, leafKey)
	if err != nil {
		t.Fatal(err)
	}
	msg := &cose.UntaggedSign1Message{Headers: hdr, Payload: payload}
	if err := msg.Sign(rand.Reader, nil, signer); err != nil {
		t.Fatal(err)
	}
	out, err := msg.MarshalCBOR()
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(out)
}

// nitroLikeLeaf is a leaf template shaped like a real Nitro leaf: not a CA,
// digitalSignature, valid for three hours from a minute before now.
func nitroLikeLeaf(now time.Time) *x509.Certificate {
	return &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "test leaf", OrganizationalUnit: []string{demoMarker}},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              now.Add(3 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
}

func testCAEnclave(t *testing.T) (*DemoAuthority, *DemoEnclave, time.Time) {
	t.Helper()
	now := time.Now()
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := NewDemoEnclave(auth, "signer", "vigil-demo", "demo-1", now)
	if err != nil {
		t.Fatal(err)
	}
	return auth, enc, now
}

// nitroHeaders is what Nitro sends: protected {1: -35}, unprotected empty.
func nitroHeaders() cose.Headers {
	return cose.Headers{Protected: cose.ProtectedHeader{cose.HeaderLabelAlgorithm: cose.AlgorithmES384}}
}

func TestResignedDocumentVerifies(t *testing.T) {
	auth, enc, now := testCAEnclave(t)
	bp := enc.BootProof
	bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, nitroLikeLeaf(now), nitroHeaders(), nil)
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
	if rep.Verdict != Verified {
		t.Fatalf("a document shaped like Nitro's, signed under a configured root: %s", dump(rep))
	}
}

// RFC 9052 §3.1: a recipient must refuse a message whose crit lists a label it
// does not understand. vigil understands only Nitro's protected header.
func TestCriticalHeaderIsRefused(t *testing.T) {
	auth, enc, now := testCAEnclave(t)
	h := nitroHeaders()
	h.Protected[cose.HeaderLabelCritical] = []any{int64(99)}
	h.Protected[int64(99)] = "must-understand"
	bp := enc.BootProof
	bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, nitroLikeLeaf(now), h, nil)
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
	c := rep.Check(CheckCOSE)
	if c.Status != Fail || rep.Verdict != Failed {
		t.Fatalf("a critical header vigil does not understand (label 99) passed: %s", dump(rep))
	}
	if !strings.Contains(c.Reason, "crit") {
		t.Errorf("the reason does not name the crit header: %q", c.Reason)
	}
}

// RFC 9052 §3: a label must not be in both header buckets. An unprotected alg
// would let a second reader of the same document see another algorithm; Nitro
// sends an empty unprotected header, and nothing else is accepted.
func TestUnprotectedHeaderIsRefused(t *testing.T) {
	for named, unprotected := range map[string]cose.UnprotectedHeader{
		"alg": {cose.HeaderLabelAlgorithm: cose.AlgorithmES256},
		"kid": {cose.HeaderLabelKeyID: []byte("k")},
	} {
		t.Run(named, func(t *testing.T) {
			auth, enc, now := testCAEnclave(t)
			h := nitroHeaders()
			h.Unprotected = unprotected
			bp := enc.BootProof
			bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, nitroLikeLeaf(now), h, nil)
			rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
			c := rep.Check(CheckCOSE)
			if c.Status != Fail || rep.Verdict != Failed {
				t.Fatalf("an unprotected header %v passed: %s", unprotected, dump(rep))
			}
			if !strings.Contains(c.Reason, "unprotected header carries header "+named) {
				t.Errorf("the reason does not name the unprotected %s: %q", named, c.Reason)
			}
		})
	}
}

// The certificate that signs the document must be an end-entity signing key:
// a CA certificate, or one without digitalSignature, does not sign documents.
func TestLeafMustBeASigningEndEntity(t *testing.T) {
	for name, shape := range map[string]func(*x509.Certificate){
		"a CA": func(c *x509.Certificate) {
			c.IsCA = true
			c.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature
		},
		"without digitalSignature": func(c *x509.Certificate) { c.KeyUsage = x509.KeyUsageContentCommitment },
	} {
		t.Run(name, func(t *testing.T) {
			auth, enc, now := testCAEnclave(t)
			leaf := nitroLikeLeaf(now)
			shape(leaf)
			bp := enc.BootProof
			bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, leaf, nitroHeaders(), nil)
			rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
			c := rep.Check(CheckChain)
			if c.Status != Fail || rep.Verdict != Failed {
				t.Fatalf("a leaf certificate that is %s signed the document and passed: %s", name, dump(rep))
			}
			if !strings.Contains(c.Reason, "leaf certificate") {
				t.Errorf("the reason does not say the leaf is at fault: %q", c.Reason)
			}
		})
	}
}

// A leaf key that signs a document dated outside its own certificate's
// validity is what a leaked leaf key looks like. Validating the chain at
// another time (--at, Options.At) must not hide it.
func TestDocumentDatedOutsideItsLeafFailsAtAnyValidationTime(t *testing.T) {
	for name, shift := range map[string]time.Duration{
		"after the leaf expired":       365 * 24 * time.Hour,
		"before the leaf became valid": -24 * time.Hour,
	} {
		t.Run(name, func(t *testing.T) {
			auth, enc, now := testCAEnclave(t)
			dated := now.Add(shift)
			bp := enc.BootProof
			bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) {
				r.Timestamp = uint64(dated.UnixMilli())
			})
			for _, at := range []time.Time{{}, now} {
				rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}, At: at})
				c := rep.Check(CheckChain)
				if c.Status != Fail || rep.Verdict != Failed {
					t.Fatalf("a document dated %s, its leaf valid %s to %s, validated at %v: %s", dated.UTC().Format(time.RFC3339),
						now.Add(-time.Minute).UTC().Format(time.RFC3339), now.Add(3*time.Hour).UTC().Format(time.RFC3339), at, dump(rep))
				}
				if !strings.Contains(c.Reason, "document") || !strings.Contains(c.Reason, rep.DocumentTime.Format(time.RFC3339)) {
					t.Errorf("validated at %v, the reason does not say the document's own time %s is outside the leaf's window: %q", at, rep.DocumentTime.Format(time.RFC3339), c.Reason)
				}
			}
		})
	}
}

// Nitro's payload field names are lower case. Another spelling (MODULE_ID)
// is not a Nitro field, so it is an unknown field and refused: the payload is
// read one way only.
func TestPayloadFieldNamesAreCaseSensitive(t *testing.T) {
	auth, enc, _ := testCAEnclave(t)
	doc, err := base64.StdEncoding.DecodeString(enc.BootProof.AwsAttestationDocB64)
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseAttestation(doc)
	if err != nil {
		t.Fatal(err)
	}
	r := a.raw
	payload, err := cbor.Marshal(map[string]any{"MODULE_ID": r.ModuleID, "digest": r.Digest, "timestamp": r.Timestamp, "pcrs": r.PCRs,
		"certificate": r.Certificate, "cabundle": r.CABundle, "public_key": r.PublicKey, "user_data": r.UserData, "nonce": nil})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := parseAttestation(coseWith(t, payload)); err == nil {
		t.Fatalf("payload key MODULE_ID (not a Nitro field) was read as module_id=%q", got.raw.ModuleID)
	}
	rep := VerifyAttestation(coseWith(t, payload), Options{Roots: []Root{auth.Root()}})
	if c := rep.Check(CheckCOSE); c.Status != Fail || rep.Verdict != Failed {
		t.Errorf("a document whose payload spells MODULE_ID decoded: %s", dump(rep))
	} else if !strings.Contains(c.Reason, `unknown field "MODULE_ID"`) {
		t.Errorf("the reason does not name the unknown field: %q", c.Reason)
	}
}
