package proof

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Check names, shown next to the IDs.
const (
	nameCOSE = "COSE_Sign1 signature (ES384, leaf certificate key)"
	// nameChain is the chain check's name before an anchor is known (it
	// failed); once one is, chainCheckName names it by that anchor.
	nameChain     = "Certificate chain to a trusted root"
	nameUserData  = "user_data = SHA-256(manifest)"
	namePublicKey = "public_key = boot proof's ephemeral key"
	nameDecode    = "QOS manifest decodes"
	nameApp       = "The proof is for the app asked for"
	namePCRs      = "PCR0–3 match the manifest (not debug mode)"
	nameApprovals = "Manifest-set approvals meet the threshold"
	namePins      = "Configured pins (PCRs, manifest hash, pivot, manifest set, quorum key)"
	namePCR17     = "PCR16/17 manifest commitment"
	nameAppProof  = "App proof signed by the attested ephemeral key"
)

// verifier carries the state of one verification.
type verifier struct {
	opts   Options
	rep    *Report
	att    *attestation // nil when the document did not decode
	attErr error
	// setupAttestation: the document's key is QOS's boot-time setup key
	// (its PCR16 commitment matched, pcr17Check), not the live one.
	setupAttestation bool
}

// VerifyBootProof verifies a boot proof: the attestation document, its chain, its
// binding to the QOS manifest and ephemeral key, the manifest's approvals, the
// configured pins, and opts.AppProofs. It never returns nil and never panics.
func VerifyBootProof(bp api.BootProof, opts Options) (rep *Report) {
	rep = &Report{}
	defer recoverInto(&rep)
	v := &verifier{opts: opts, rep: rep}

	doc, err := decodeB64(bp.AwsAttestationDocB64)
	if err != nil {
		err = fmt.Errorf("awsAttestationDocB64: %w", err)
	}
	v.attestationChecks(doc, err)

	jsonV2 := isJSONVersion(bp.QosManifestVersion)
	manifestBytes, mErr := decodeField("qosManifestB64", bp.QosManifestB64)
	envBytes, eErr := decodeField("qosManifestEnvelopeB64", bp.QosManifestEnvelopeB64)
	var env *envelope
	if eErr == nil {
		env, eErr = decodeEnvelope(envBytes, jsonV2)
	}
	var manifest *Manifest
	if mErr == nil {
		manifest, mErr = decodeManifest(manifestBytes, jsonV2)
	}

	// user-data: the attested manifest hash equals the hash of the manifest shipped.
	switch {
	case v.att == nil:
		rep.add(CheckUserData, nameUserData, Fail, "cannot check: "+v.attErr.Error())
	case v.att.raw.Nonce != nil:
		rep.add(CheckUserData, nameUserData, Fail, unexpectedNonce(v.att.raw.Nonce))
	case manifestBytes == nil:
		rep.add(CheckUserData, nameUserData, Fail, "cannot check: "+mErr.Error())
	default:
		want, herr := manifestHash(manifestBytes, jsonV2)
		switch {
		case herr != nil:
			rep.add(CheckUserData, nameUserData, Fail, "cannot hash the manifest: "+herr.Error())
		case bytes.Equal(v.att.raw.UserData, want):
			rep.add(CheckUserData, nameUserData, Pass, "user_data is "+hex.EncodeToString(want)+", the SHA-256 of the manifest")
		default:
			rep.add(CheckUserData, nameUserData, Fail, fmt.Sprintf("user_data is %s but the manifest's SHA-256 is %s: the manifest is not the one the enclave booted", hexOrNone(v.att.raw.UserData), hex.EncodeToString(want)))
		}
	}

	// public-key: the attested key is the one the boot proof advertises.
	switch eph, herr := hex.DecodeString(strings.TrimPrefix(bp.EphemeralPublicKeyHex, "0x")); {
	case v.att == nil:
		rep.add(CheckPublicKey, namePublicKey, Fail, "cannot check: "+v.attErr.Error())
	case herr != nil || len(eph) == 0:
		rep.add(CheckPublicKey, namePublicKey, Fail, "ephemeralPublicKeyHex is missing or not hex")
	case !bytes.Equal(eph, v.att.raw.PublicKey):
		rep.add(CheckPublicKey, namePublicKey, Fail, "the document's public_key differs from ephemeralPublicKeyHex: the advertised key is not the attested one")
	default:
		if _, kerr := qosSigningKey(eph); kerr != nil {
			rep.add(CheckPublicKey, namePublicKey, Fail, "attested key is malformed: "+kerr.Error())
		} else {
			rep.add(CheckPublicKey, namePublicKey, Pass, "public_key equals ephemeralPublicKeyHex (130 bytes: encryption ‖ signing P-256 keys)")
		}
	}

	// manifest-decode
	if manifest != nil {
		rep.Manifest = manifest
		form := ""
		if manifestFormOf(manifestBytes, jsonV2) == formJSONLegacy {
			form = " (QOS's JSON storage form, hashed as its Borsh encoding)"
		}
		rep.add(CheckManifestDecode, nameDecode, Pass, fmt.Sprintf("QOS manifest %s%s: namespace %q nonce %d", manifest.Version, form, manifest.Namespace.Name, manifest.Namespace.Nonce))
	} else {
		rep.add(CheckManifestDecode, nameDecode, Fail, mErr.Error())
		if env != nil && v.attested(env.manifest) {
			// Still show what the envelope says, but only when it is the
			// manifest the enclave booted: the service ships the envelope
			// apart from the manifest, so any other envelope could show
			// sets and PCRs of a manifest nothing attests.
			rep.Manifest = env.manifest
		}
	}

	v.appCheck(bp.EnclaveApp, manifest)
	v.pcrCheck(manifest)
	// The approvals go with the manifest shown, the envelope's included:
	// a screen showing it with none would contradict the check.
	v.approvalCheck(env, eErr, rep.Manifest)
	v.pinCheck(manifest)
	v.pcr17Check()
	v.appProofChecks()
	rep.finish()
	return rep
}

// VerifyAttestation verifies a raw COSE attestation document alone: signature,
// chain, debug mode, pins, PCR17 and app proofs; manifest checks are N/A, so the
// verdict is at best PARTIAL.
func VerifyAttestation(doc []byte, opts Options) (rep *Report) {
	rep = &Report{}
	defer recoverInto(&rep)
	v := &verifier{opts: opts, rep: rep}
	v.attestationChecks(doc, nil)
	na := "no manifest given: only the document itself is checked"
	rep.add(CheckUserData, nameUserData, NotApplicable, na)
	rep.add(CheckPublicKey, namePublicKey, NotApplicable, "no boot proof given to compare the public key with")
	rep.add(CheckManifestDecode, nameDecode, NotApplicable, na)
	rep.add(CheckApp, nameApp, NotApplicable, "no manifest given: a bare document names no app")
	v.pcrCheck(nil)
	rep.add(CheckApprovals, nameApprovals, NotApplicable, "no manifest envelope given")
	v.pinCheck(nil)
	v.pcr17Check()
	v.appProofChecks()
	rep.finish()
	return rep
}

func recoverInto(rep **Report) {
	if p := recover(); p != nil {
		r := &Report{}
		r.add("internal", "Verifier", Fail, fmt.Sprintf("the verifier hit an internal error and refused the proof: %v", p))
		r.finish()
		*rep = r
	}
}

func decodeField(name, s string) ([]byte, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("the boot proof has no %s", name)
	}
	b, err := decodeB64(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

// attested reports whether m is the manifest the attestation document's
// user_data names.
func (v *verifier) attested(m *Manifest) bool {
	return v.att != nil && m != nil && len(m.SHA256) > 0 && bytes.Equal(v.att.raw.UserData, m.SHA256)
}

// manifestHash is the hash QOS puts in user_data (VersionedManifest
// manifest_hash, manifest.rs:131): SHA-256 of the Borsh encoding for v0 and
// v1, whether the bytes are that encoding or QOS's JSON storage form of it,
// and of the QOS canonical JSON for v2.
func manifestHash(b []byte, jsonV2 bool) ([]byte, error) {
	switch manifestFormOf(b, jsonV2) {
	case formJSONLegacy:
		_, borsh, err := decodeManifestLegacyJSON(b)
		if err != nil {
			return nil, fmt.Errorf("QOS hashes a JSON manifest without a version as its Borsh encoding, and this one does not decode: %w", err)
		}
		b = borsh
	case formJSONV2:
		c, err := qosManifestV2Canonical(b)
		if err != nil {
			return nil, err
		}
		b = c
	}
	sum := sha256.Sum256(b)
	return sum[:], nil
}

// attestationChecks runs the COSE signature and chain checks and fills the
// document, anchor, time and age.
func (v *verifier) attestationChecks(doc []byte, decodeErr error) {
	rep := v.rep
	if decodeErr == nil {
		v.att, decodeErr = parseAttestation(doc)
	}
	if decodeErr != nil {
		v.attErr = fmt.Errorf("the attestation document did not decode: %w", decodeErr)
		rep.add(CheckCOSE, nameCOSE, Fail, v.attErr.Error())
		rep.add(CheckChain, nameChain, Fail, v.attErr.Error())
		return
	}
	rep.Document = v.att.doc
	rep.DocumentTime = v.att.doc.Timestamp
	now := v.opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	rep.Age = now.Sub(rep.DocumentTime)

	// The COSE signature and the chain are independent P-384 work (one and four
	// verifications); doing them side by side roughly halves the latency.
	sigErr := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				sigErr <- fmt.Errorf("internal error while verifying the signature: %v", p)
			}
		}()
		sigErr <- v.att.verifySignature()
	}()
	root, chainErr := v.verifyChain(v.validationTime())
	if err := <-sigErr; err != nil {
		rep.add(CheckCOSE, nameCOSE, Fail, err.Error())
	} else {
		rep.add(CheckCOSE, nameCOSE, Pass, "ES384 signature verifies with the leaf certificate's P-384 key")
	}

	at, atWhat := v.validationTime(), "the document's timestamp"
	if !v.opts.At.IsZero() {
		atWhat = "the requested time"
	}
	if chainErr != nil {
		rep.add(CheckChain, nameChain, Fail, chainErr.Error())
		return
	}
	rep.Anchor = root.anchorName()
	reason := fmt.Sprintf("chains to %s, valid at %s (%s)", rep.Anchor, at.UTC().Format(time.RFC3339), atWhat)
	if !v.opts.At.IsZero() {
		reason += "; the document's own timestamp is within its leaf's validity"
	}
	if root.Demo {
		reason += "; this is a local DEMO root, not AWS"
	}
	rep.add(CheckChain, root.chainCheckName(), Pass, reason)
}

// validationTime is opts.At, or the document's timestamp.
func (v *verifier) validationTime() time.Time {
	if !v.opts.At.IsZero() {
		return v.opts.At
	}
	return v.att.doc.Timestamp
}

// verifyChain checks certificate → cabundle[n..1] → a trusted root at time at.
// cabundle[0] (the document's own copy of the root) is never used as the anchor.
func (v *verifier) verifyChain(at time.Time) (Root, error) {
	roots := []Root{}
	if aws, err := awsRoot(); err == nil {
		roots = append(roots, aws)
	} else {
		return Root{}, err
	}
	for _, r := range v.opts.Roots {
		if r.Cert != nil {
			roots = append(roots, r)
		}
	}
	pool := x509.NewCertPool()
	for _, r := range roots {
		pool.AddCert(r.Cert)
	}
	if err := datedWithinLeaf(v.att.leaf, v.att.doc.Timestamp); err != nil {
		return Root{}, err
	}
	inter := x509.NewCertPool()
	for i, c := range v.att.cabundle {
		if i == 0 {
			continue
		}
		if c == nil {
			return Root{}, fmt.Errorf("cabundle[%d] is not a valid certificate: %s", i, v.att.doc.CABundle[i].Error)
		}
		if err := validAt(c, at, fmt.Sprintf("cabundle[%d]", i)); err != nil {
			return Root{}, err
		}
		inter.AddCert(c)
	}
	if err := validAt(v.att.leaf, at, "the leaf certificate"); err != nil {
		return Root{}, err
	}
	if err := signingLeaf(v.att.leaf); err != nil {
		return Root{}, err
	}
	chains, err := v.att.leaf.Verify(x509.VerifyOptions{
		Roots:         pool,
		Intermediates: inter,
		CurrentTime:   at,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageAny},
	})
	if err != nil {
		var unknown x509.UnknownAuthorityError
		if errors.As(err, &unknown) {
			if why := unfitIssuer(v.att.leaf, v.att.cabundle); why != nil {
				return Root{}, why
			}
			return Root{}, fmt.Errorf("the chain does not lead to a trusted root (trusted: %s)", rootNames(roots))
		}
		if why := invalidIssuer(err, v.att.leaf, v.att.cabundle, roots); why != nil {
			return Root{}, why
		}
		return Root{}, fmt.Errorf("certificate chain does not verify: %w", err)
	}
	// Verify may find several chains (a CA in the bundle twice, cross-signed):
	// one whose CAs may all issue an attestation leaf is enough.
	chain, err := chains[0], restrictedIssuer(chains[0], v.att.cabundle)
	for _, c := range chains[1:] {
		if err == nil {
			break
		}
		if restrictedIssuer(c, v.att.cabundle) == nil {
			chain, err = c, nil
		}
	}
	if err != nil {
		return Root{}, err
	}
	top := chain[len(chain)-1]
	for _, r := range roots {
		if bytes.Equal(r.Cert.Raw, top.Raw) {
			return r, nil
		}
	}
	return Root{}, errors.New("the chain ended at a certificate that is not a configured root")
}

// signingLeaf requires the certificate that signs the document to be an
// end-entity signing key, as a Nitro leaf is. Chain building checks only the
// parents (CA, certSign); nothing else constrains the leaf itself.
func signingLeaf(c *x509.Certificate) error {
	switch {
	case c.IsCA:
		return fmt.Errorf("the leaf certificate (%s) is a CA certificate: a document must be signed by an end-entity certificate", clip(c.Subject.CommonName))
	case c.KeyUsage&x509.KeyUsageDigitalSignature == 0:
		return fmt.Errorf("the leaf certificate (%s) lacks the digitalSignature key usage, so its key may not sign a document", clip(c.Subject.CommonName))
	}
	// Nitro leaves carry no extended key usage. One that does was issued for
	// some other purpose (TLS, code signing, …), and chain building with
	// ExtKeyUsageAny would not object: refuse it, whatever it says.
	for _, e := range c.Extensions {
		if e.Id.Equal(oidExtKeyUsage) {
			return fmt.Errorf("the leaf certificate (%s) has an extended key usage extension (%s); a Nitro leaf has none, so this certificate was issued for another purpose and may not sign a document", clip(c.Subject.CommonName), extKeyUsageNames(e.Value))
		}
	}
	return nil
}

// oidExtKeyUsage is the extended key usage extension (RFC 5280 §4.2.1.12).
var oidExtKeyUsage = asn1.ObjectIdentifier{2, 5, 29, 37}

// extKeyUsageNames lists the purposes an extended key usage extension's value
// names: the common ones by name, any other by its OID.
func extKeyUsageNames(value []byte) string {
	var oids []asn1.ObjectIdentifier
	if rest, err := asn1.Unmarshal(value, &oids); err != nil || len(rest) != 0 {
		return "unreadable"
	}
	if len(oids) == 0 {
		return "empty"
	}
	names := make([]string, len(oids))
	for i, oid := range oids {
		names[i] = oid.String()
		for _, known := range extKeyUsageOIDs {
			if oid.Equal(known.oid) {
				names[i] = known.name
			}
		}
	}
	return clip(strings.Join(names, ", "))
}

var extKeyUsageOIDs = []struct {
	name string
	oid  asn1.ObjectIdentifier
}{
	{"anyExtendedKeyUsage", asn1.ObjectIdentifier{2, 5, 29, 37, 0}},
	{"serverAuth", asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 1}},
	{"clientAuth", asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 2}},
	{"codeSigning", asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 3}},
	{"emailProtection", asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 4}},
	{"timeStamping", asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 8}},
	{"OCSPSigning", asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 9}},
}

// datedWithinLeaf requires the document's own signed timestamp to fall in
// its leaf's validity, whatever time the chain is validated at: a leaf key
// signing a document dated outside its certificate looks like a leaked key.
func datedWithinLeaf(leaf *x509.Certificate, dated time.Time) error {
	when := ""
	switch {
	case dated.After(leaf.NotAfter):
		when = "after its leaf certificate expired"
	case dated.Before(leaf.NotBefore):
		when = "before its leaf certificate became valid"
	default:
		return nil
	}
	return fmt.Errorf("the document's own timestamp %s is %s (%s, valid %s to %s): the leaf's key signed a document dated outside its certificate, which a validation time (--at) does not change",
		dated.UTC().Format(time.RFC3339), when, clip(leaf.Subject.CommonName), leaf.NotBefore.UTC().Format(time.RFC3339), leaf.NotAfter.UTC().Format(time.RFC3339))
}

func validAt(c *x509.Certificate, at time.Time, what string) error {
	switch {
	case at.After(c.NotAfter):
		return fmt.Errorf("%s (%s) had expired at %s: it was valid %s to %s", what, clip(c.Subject.CommonName), at.UTC().Format(time.RFC3339), c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339))
	case at.Before(c.NotBefore):
		return fmt.Errorf("%s (%s) was not yet valid at %s: it is valid %s to %s", what, clip(c.Subject.CommonName), at.UTC().Format(time.RFC3339), c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339))
	}
	return nil
}

func rootNames(roots []Root) string {
	var names []string
	for _, r := range roots {
		names = append(names, r.anchorName())
	}
	return strings.Join(names, ", ")
}

func hexOrNone(b []byte) string {
	if len(b) == 0 {
		return "(none)"
	}
	return hex.EncodeToString(b)
}

func isZero(b []byte) bool {
	return !slices.ContainsFunc(b, func(x byte) bool { return x != 0 })
}
