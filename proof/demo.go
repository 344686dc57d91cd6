package proof

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/go-cose"

	"github.com/vigil-console/vigil/api"
)

// demoMarker is the organizational unit every demo certificate carries, so a demo
// root is recognised as such wherever it is loaded from.
const demoMarker = "vigil DEMO — NOT AWS"

// DemoRootCommonName is the subject CN of every demo root.
const DemoRootCommonName = "vigil DEMO root — NOT AWS"

func isDemoCert(c *x509.Certificate) bool {
	return slices.Contains(c.Subject.OrganizationalUnit, demoMarker)
}

// DemoAuthority is a local stand-in for the AWS Nitro PKI: a P-384 root and an
// intermediate that issues short-lived enclave leaf certificates. Documents it
// signs verify only against its own root, never against the AWS root.
type DemoAuthority struct {
	rootKey  *ecdsa.PrivateKey
	root     *x509.Certificate
	interKey *ecdsa.PrivateKey
	inter    *x509.Certificate
}

// NewDemoAuthority creates a demo root (valid 20 years from now) and intermediate.
func NewDemoAuthority(now time.Time) (*DemoAuthority, error) {
	rootKey, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("demo authority: %w", err)
	}
	interKey, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("demo authority: %w", err)
	}
	rootTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: DemoRootCommonName, Organization: []string{"vigil"}, OrganizationalUnit: []string{demoMarker}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(20, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	rootDER, err := x509.CreateCertificate(rand.Reader, rootTmpl, rootTmpl, &rootKey.PublicKey, rootKey)
	if err != nil {
		return nil, fmt.Errorf("demo authority: root: %w", err)
	}
	root, err := x509.ParseCertificate(rootDER)
	if err != nil {
		return nil, err
	}
	interTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "vigil DEMO intermediate — NOT AWS", Organization: []string{"vigil"}, OrganizationalUnit: []string{demoMarker}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	interDER, err := x509.CreateCertificate(rand.Reader, interTmpl, root, &interKey.PublicKey, rootKey)
	if err != nil {
		return nil, fmt.Errorf("demo authority: intermediate: %w", err)
	}
	inter, err := x509.ParseCertificate(interDER)
	if err != nil {
		return nil, err
	}
	return &DemoAuthority{rootKey: rootKey, root: root, interKey: interKey, inter: inter}, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

type demoAuthorityFile struct {
	RootKey  []byte `json:"rootKey"` // PKCS#8 DER
	Root     []byte `json:"root"`    // certificate DER
	InterKey []byte `json:"intermediateKey"`
	Inter    []byte `json:"intermediate"`
}

// Marshal serialises the authority, private keys included, for the local service.
func (a *DemoAuthority) Marshal() ([]byte, error) {
	rk, err := x509.MarshalPKCS8PrivateKey(a.rootKey)
	if err != nil {
		return nil, err
	}
	ik, err := x509.MarshalPKCS8PrivateKey(a.interKey)
	if err != nil {
		return nil, err
	}
	return json.Marshal(demoAuthorityFile{RootKey: rk, Root: a.root.Raw, InterKey: ik, Inter: a.inter.Raw})
}

// LoadDemoAuthority reverses Marshal, checking that each key matches its certificate.
func LoadDemoAuthority(b []byte) (*DemoAuthority, error) {
	var f demoAuthorityFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("demo authority: %w", err)
	}
	a := &DemoAuthority{}
	var err error
	if a.rootKey, a.root, err = loadKeyCert(f.RootKey, f.Root); err != nil {
		return nil, fmt.Errorf("demo authority root: %w", err)
	}
	if a.interKey, a.inter, err = loadKeyCert(f.InterKey, f.Inter); err != nil {
		return nil, fmt.Errorf("demo authority intermediate: %w", err)
	}
	if !isDemoCert(a.root) {
		return nil, errors.New("demo authority: the root is not marked as a demo root")
	}
	if err := a.inter.CheckSignatureFrom(a.root); err != nil {
		return nil, fmt.Errorf("demo authority: intermediate is not signed by the root: %w", err)
	}
	return a, nil
}

func loadKeyCert(keyDER, certDER []byte) (*ecdsa.PrivateKey, *x509.Certificate, error) {
	k, err := x509.ParsePKCS8PrivateKey(keyDER)
	if err != nil {
		return nil, nil, err
	}
	ek, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, nil, errors.New("key is not ECDSA")
	}
	c, err := x509.ParseCertificate(certDER)
	if err != nil {
		return nil, nil, err
	}
	if !ek.PublicKey.Equal(c.PublicKey) {
		return nil, nil, errors.New("key does not match the certificate")
	}
	return ek, c, nil
}

// Root returns the demo root as a trust anchor (Demo: true).
func (a *DemoAuthority) Root() Root {
	return Root{Name: DemoRootCommonName, Cert: a.root, Demo: true}
}

// RootPEM returns the demo root certificate as PEM, for `vigil proof verify --root`.
func (a *DemoAuthority) RootPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: a.root.Raw})
}

// DemoEnclave is a simulated QOS enclave: a complete boot proof signed through a
// DemoAuthority, and the ephemeral key that signs app proofs.
type DemoEnclave struct {
	BootProof  api.BootProof
	signingKey *ecdsa.PrivateKey // the signing half of the ephemeral key
	encKey     *ecdh.PrivateKey  // the encryption half (unused here, kept for completeness)
}

// demoParams lets tests build unusual documents (debug mode, 16 PCRs).
type demoParams struct {
	pcrCount  int
	debug     bool
	namespace string // instead of owner/app
}

// NewDemoEnclave builds a boot proof for app: a Borsh v0 manifest (the layout of
// the production fixture) with a 2-of-3 demo manifest set, share set and patch
// set; an envelope with two valid approvals; a fresh ephemeral key; and a 32-PCR
// Nitro-format attestation document signed by a fresh leaf of auth, committing
// to the manifest (user_data) and the key (public_key, PCR17).
func NewDemoEnclave(auth *DemoAuthority, app, owner, deploymentLabel string, now time.Time) (*DemoEnclave, error) {
	return newDemoEnclave(auth, app, owner, deploymentLabel, now, demoParams{pcrCount: attestablePCRs})
}

func newDemoEnclave(auth *DemoAuthority, app, owner, label string, now time.Time, p demoParams) (*DemoEnclave, error) {
	if auth == nil {
		return nil, errors.New("demo enclave: no authority")
	}
	fail := func(err error) (*DemoEnclave, error) { return nil, fmt.Errorf("demo enclave %s: %w", app, err) }

	type member struct {
		sign *ecdsa.PrivateKey
		pub  []byte
	}
	var members []member
	for range 3 {
		sign, pub, _, err := newQOSKey()
		if err != nil {
			return fail(err)
		}
		members = append(members, member{sign, pub})
	}
	_, quorumPub, _, err := newQOSKey()
	if err != nil {
		return fail(err)
	}
	ns := owner + "/" + app
	if p.namespace != "" {
		ns = p.namespace
	}
	m := &Manifest{
		Namespace: Namespace{Name: ns, Nonce: 1, QuorumKey: quorumPub},
		Pivot:     Pivot{Hash: sha256Sum([]byte("vigil demo pivot binary for " + app)), Restart: "Always", Args: []string{"--app", app}},
		Enclave:   NitroConfig{QOSCommit: "vigil-demo"},
	}
	for i, mem := range members {
		m.ManifestSet.Members = append(m.ManifestSet.Members, Member{Alias: fmt.Sprintf("demo-member-%d", i+1), PubKey: mem.pub})
		m.ShareSet.Members = append(m.ShareSet.Members, Member{Alias: fmt.Sprintf("demo-member-%d", i+1), PubKey: mem.pub})
	}
	m.ManifestSet.Threshold, m.ShareSet.Threshold = 2, 2
	patch := QuorumSet{Threshold: 2}
	for _, mem := range members {
		patch.Members = append(patch.Members, Member{PubKey: mem.pub})
	}
	m.PatchSet = &patch
	pcrs := map[uint64][]byte{}
	for i := range p.pcrCount {
		pcrs[uint64(i)] = make([]byte, 48)
	}
	for i := range 4 {
		h := sha512.Sum384(fmt.Appendf(nil, "vigil demo PCR%d for %s", i, app))
		pcrs[uint64(i)] = h[:]
	}
	if p.debug {
		for i := range 3 {
			pcrs[uint64(i)] = make([]byte, 48)
		}
	}
	m.Enclave.PCR0, m.Enclave.PCR1, m.Enclave.PCR2, m.Enclave.PCR3 = pcrs[0], pcrs[1], pcrs[2], pcrs[3]

	manifest := encodeManifestV0(m)
	hash := sha256Sum(manifest)
	var approvals []rawApproval
	for i, mem := range members[:2] {
		sig, err := signP256(mem.sign, hash)
		if err != nil {
			return fail(err)
		}
		approvals = append(approvals, rawApproval{signature: sig, member: m.ManifestSet.Members[i]})
	}
	envelopeBytes := encodeEnvelope(manifest, approvals)

	ephSign, ephPub, ephEnc, err := newQOSKey()
	if err != nil {
		return fail(err)
	}
	if p.pcrCount > livePCR {
		pcrs[livePCR] = LiveManifestCommitment(hash, ephPub)
	}
	doc, err := auth.attest(now, app, pcrs, hash, ephPub)
	if err != nil {
		return fail(err)
	}
	return &DemoEnclave{
		BootProof: api.BootProof{
			EphemeralPublicKeyHex:  hex.EncodeToString(ephPub),
			AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
			QosManifestB64:         base64.StdEncoding.EncodeToString(manifest),
			QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString(envelopeBytes),
			DeploymentLabel:        label,
			EnclaveApp:             app,
			Owner:                  owner,
			CreatedAt:              api.NewTime(now),
		},
		signingKey: ephSign,
		encKey:     ephEnc,
	}, nil
}

// newQOSKey makes a QOS key pair: an encryption and a signing P-256 key, whose
// public key is the two uncompressed points (130 bytes).
func newQOSKey() (*ecdsa.PrivateKey, []byte, *ecdh.PrivateKey, error) {
	enc, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	sign, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	signPub, err := sign.PublicKey.Bytes()
	if err != nil {
		return nil, nil, nil, err
	}
	return sign, append(enc.PublicKey().Bytes(), signPub...), enc, nil
}

// signP256 signs SHA-256(msg) and returns 64-byte r‖s.
func signP256(k *ecdsa.PrivateKey, msg []byte) ([]byte, error) {
	r, s, err := ecdsa.Sign(rand.Reader, k, sha256Sum(msg))
	if err != nil {
		return nil, err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return sig, nil
}

// attest issues a leaf certificate (valid 3 hours, like Nitro's) and signs a
// Nitro-format attestation document with it: untagged COSE_Sign1, ES384.
func (a *DemoAuthority) attest(now time.Time, app string, pcrs map[uint64][]byte, userData, publicKey []byte) ([]byte, error) {
	leafKey, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "vigil DEMO enclave " + app + " — NOT AWS", Organization: []string{"vigil"}, OrganizationalUnit: []string{demoMarker}},
		NotBefore:             now.Add(-time.Minute),
		NotAfter:              now.Add(3 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, tmpl, a.inter, &leafKey.PublicKey, a.interKey)
	if err != nil {
		return nil, err
	}
	payload, err := cbor.Marshal(rawAttestation{
		ModuleID:    "i-vigil-demo-" + hex.EncodeToString(sha256Sum([]byte(app)))[:16],
		Digest:      "SHA384",
		Timestamp:   uint64(now.UnixMilli()),
		PCRs:        pcrs,
		Certificate: leafDER,
		CABundle:    [][]byte{a.root.Raw, a.inter.Raw},
		PublicKey:   publicKey,
		UserData:    userData,
	})
	if err != nil {
		return nil, err
	}
	signer, err := cose.NewSigner(cose.AlgorithmES384, leafKey)
	if err != nil {
		return nil, err
	}
	msg := &cose.UntaggedSign1Message{
		Headers: cose.Headers{Protected: cose.ProtectedHeader{cose.HeaderLabelAlgorithm: cose.AlgorithmES384}},
		Payload: payload,
	}
	if err := msg.Sign(rand.Reader, nil, signer); err != nil {
		return nil, err
	}
	return msg.MarshalCBOR()
}

type demoEnclaveFile struct {
	BootProof  api.BootProof `json:"bootProof"`
	SigningKey []byte        `json:"signingKey"`    // PKCS#8 DER
	EncKey     []byte        `json:"encryptionKey"` // raw P-256 scalar
}

// Marshal serialises the enclave, its ephemeral private key included.
func (e *DemoEnclave) Marshal() ([]byte, error) {
	sk, err := x509.MarshalPKCS8PrivateKey(e.signingKey)
	if err != nil {
		return nil, err
	}
	f := demoEnclaveFile{BootProof: e.BootProof, SigningKey: sk}
	if e.encKey != nil {
		f.EncKey = e.encKey.Bytes()
	}
	return json.Marshal(f)
}

// LoadDemoEnclave reverses Marshal, checking that the key matches the boot proof.
func LoadDemoEnclave(b []byte) (*DemoEnclave, error) {
	var f demoEnclaveFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("demo enclave: %w", err)
	}
	k, err := x509.ParsePKCS8PrivateKey(f.SigningKey)
	if err != nil {
		return nil, fmt.Errorf("demo enclave key: %w", err)
	}
	sk, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, errors.New("demo enclave key is not ECDSA")
	}
	e := &DemoEnclave{BootProof: f.BootProof, signingKey: sk}
	if len(f.EncKey) > 0 {
		if e.encKey, err = ecdh.P256().NewPrivateKey(f.EncKey); err != nil {
			return nil, fmt.Errorf("demo enclave encryption key: %w", err)
		}
	}
	pub, err := hex.DecodeString(f.BootProof.EphemeralPublicKeyHex)
	if err != nil {
		return nil, fmt.Errorf("demo enclave: ephemeral key: %w", err)
	}
	signing, err := qosSigningKey(pub)
	if err != nil {
		return nil, fmt.Errorf("demo enclave: ephemeral key: %w", err)
	}
	if !signing.Equal(&sk.PublicKey) {
		return nil, errors.New("demo enclave: the private key does not match the boot proof's ephemeral key")
	}
	return e, nil
}

// SignAppProof signs payload with the enclave's ephemeral key, as QOS apps do.
func (e *DemoEnclave) SignAppProof(payload []byte) (api.AppProof, error) {
	sig, err := signP256(e.signingKey, payload)
	if err != nil {
		return api.AppProof{}, fmt.Errorf("sign app proof: %w", err)
	}
	return api.AppProof{
		Scheme:       AppProofScheme,
		PublicKey:    e.BootProof.EphemeralPublicKeyHex,
		ProofPayload: string(payload),
		Signature:    hex.EncodeToString(sig),
	}, nil
}
