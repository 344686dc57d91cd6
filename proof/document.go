package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/go-cose"
	"github.com/vigil-console/vigil/api"
)

// Size limits for hostile input. A real Nitro document is under 10 KiB.
const (
	maxDocumentSize = 256 << 10
	maxPCRs         = 32
	maxCABundle     = 16
)

// attestationDecMode bounds everything an attacker controls in the payload.
var attestationDecMode = func() cbor.DecMode {
	m, err := cbor.DecOptions{
		DupMapKey:         cbor.DupMapKeyEnforcedAPF,
		TagsMd:            cbor.TagsForbidden,
		MaxNestedLevels:   4,
		MaxArrayElements:  64,
		MaxMapPairs:       64,
		ExtraReturnErrors: cbor.ExtraDecErrorUnknownField,
		// Nitro's field names are lower case; another spelling is an unknown
		// field, so the payload is read one way only.
		FieldNameMatching: cbor.FieldNameMatchingCaseSensitive,
	}.DecMode()
	if err != nil {
		panic(err) // constant options; cannot fail at run time
	}
	return m
}()

// rawAttestation is the Nitro attestation document payload as it is on the wire.
type rawAttestation struct {
	ModuleID    string            `cbor:"module_id"`
	Digest      string            `cbor:"digest"`
	Timestamp   uint64            `cbor:"timestamp"`
	PCRs        map[uint64][]byte `cbor:"pcrs"`
	Certificate []byte            `cbor:"certificate"`
	CABundle    [][]byte          `cbor:"cabundle"`
	PublicKey   []byte            `cbor:"public_key"`
	UserData    []byte            `cbor:"user_data"`
	Nonce       []byte            `cbor:"nonce"`
}

// unknownPayloadFields names the payload's keys that are not Nitro fields,
// for a reason: the decoder says only where the first one was.
func unknownPayloadFields(payload []byte) string {
	known := map[string]bool{}
	t := reflect.TypeFor[rawAttestation]()
	for i := range t.NumField() {
		known[t.Field(i).Tag.Get("cbor")] = true
	}
	var fields map[any]cbor.RawMessage
	if err := attestationDecMode.Unmarshal(payload, &fields); err != nil {
		return "a field that is not a Nitro field"
	}
	var unknown []string
	for k := range fields {
		if name, ok := k.(string); !ok || !known[name] {
			unknown = append(unknown, strconv.Quote(clip(fmt.Sprint(k))))
		}
	}
	slices.Sort(unknown)
	return fmt.Sprintf("unknown field %s: Nitro's fields are module_id, digest, timestamp, pcrs, certificate, cabundle, public_key, user_data and nonce, spelled exactly so", strings.Join(unknown, ", "))
}

// attestation is a parsed COSE_Sign1 Nitro document; the signature is not yet checked.
type attestation struct {
	msg      *cose.Sign1Message
	raw      rawAttestation
	leaf     *x509.Certificate
	cabundle []*x509.Certificate // nil entries for certificates that did not parse
	doc      *Document
}

// maxTimestampMs is the last millisecond of the year 9999: a later document
// time is no real attestation, and neither RFC 3339 nor JSON reports (Go's
// time.Time.MarshalJSON) can write it.
const maxTimestampMs = 253402300799999 // 9999-12-31T23:59:59.999Z

// parseAttestation decodes a COSE_Sign1 (tag 18 optional) carrying a Nitro
// attestation document. It checks structure only, not signatures or chains.
func parseAttestation(data []byte) (*attestation, error) {
	if len(data) == 0 {
		return nil, errors.New("attestation document is empty")
	}
	if len(data) > maxDocumentSize {
		return nil, fmt.Errorf("attestation document is %d bytes, over the %d-byte limit", len(data), maxDocumentSize)
	}
	msg := new(cose.Sign1Message)
	var err error
	if data[0] == 0xd2 { // tag 18
		err = msg.UnmarshalCBOR(data)
	} else {
		err = (*cose.UntaggedSign1Message)(msg).UnmarshalCBOR(data)
	}
	if err != nil {
		return nil, fmt.Errorf("not a COSE_Sign1 message: %w", err)
	}
	if len(msg.Payload) == 0 {
		return nil, errors.New("COSE_Sign1 message has no payload")
	}
	a := &attestation{msg: msg}
	if err := attestationDecMode.Unmarshal(msg.Payload, &a.raw); err != nil {
		if _, ok := errors.AsType[*cbor.UnknownFieldError](err); ok {
			return nil, fmt.Errorf("attestation payload: %s", unknownPayloadFields(msg.Payload))
		}
		return nil, fmt.Errorf("attestation payload: %w", err)
	}
	r := &a.raw
	switch {
	case r.ModuleID == "":
		return nil, errors.New("attestation payload: module_id is missing")
	case r.Digest != "SHA384":
		return nil, fmt.Errorf("attestation payload: digest is %q, want SHA384", clip(r.Digest))
	case r.Timestamp == 0:
		return nil, errors.New("attestation payload: timestamp is missing")
	case r.Timestamp > maxTimestampMs:
		return nil, fmt.Errorf("attestation payload: timestamp %d ms is after the year 9999: not a time an enclave attests", r.Timestamp)
	case len(r.PCRs) == 0:
		return nil, errors.New("attestation payload: pcrs are missing")
	case len(r.PCRs) > maxPCRs:
		return nil, fmt.Errorf("attestation payload: %d PCRs, at most %d allowed", len(r.PCRs), maxPCRs)
	case len(r.Certificate) == 0:
		return nil, errors.New("attestation payload: certificate is missing")
	case len(r.CABundle) == 0:
		return nil, errors.New("attestation payload: cabundle is empty")
	case len(r.CABundle) > maxCABundle:
		return nil, fmt.Errorf("attestation payload: cabundle has %d certificates, at most %d allowed", len(r.CABundle), maxCABundle)
	}
	if len(r.UserData) > 1024 || len(r.Nonce) > 1024 || len(r.PublicKey) > 1024 {
		return nil, errors.New("attestation payload: user_data, nonce or public_key is over 1024 bytes")
	}
	doc := &Document{
		ModuleID:  r.ModuleID,
		Timestamp: time.UnixMilli(int64(r.Timestamp)).UTC(),
		Digest:    r.Digest,
		PCRs:      make(map[int]HexBytes, len(r.PCRs)),
		UserData:  r.UserData,
		PublicKey: r.PublicKey,
		Nonce:     r.Nonce,
	}
	for i, v := range r.PCRs {
		if i >= maxPCRs {
			return nil, fmt.Errorf("attestation payload: PCR index %d is out of range 0..%d", i, maxPCRs-1)
		}
		if len(v) != 32 && len(v) != 48 && len(v) != 64 {
			return nil, fmt.Errorf("attestation payload: PCR%d is %d bytes, want 32, 48 or 64", i, len(v))
		}
		doc.PCRs[int(i)] = v
	}
	a.leaf, err = x509.ParseCertificate(r.Certificate)
	doc.Certificate = certInfo(r.Certificate, a.leaf, err)
	if err != nil {
		return nil, fmt.Errorf("attestation payload: certificate: %w", err)
	}
	for _, der := range r.CABundle {
		c, err := x509.ParseCertificate(der)
		doc.CABundle = append(doc.CABundle, certInfo(der, c, err))
		a.cabundle = append(a.cabundle, c) // nil when it did not parse; the chain check says so
	}
	a.doc = doc
	return a, nil
}

func certInfo(der []byte, c *x509.Certificate, err error) CertInfo {
	sum := sha256.Sum256(der)
	if err != nil {
		return CertInfo{SHA256: sum[:], Error: err.Error()}
	}
	return CertInfo{
		Subject:   c.Subject.String(),
		Issuer:    c.Issuer.String(),
		NotBefore: c.NotBefore.UTC(),
		NotAfter:  c.NotAfter.UTC(),
		SHA256:    sum[:],
	}
}

// verifySignature checks the COSE_Sign1 signature (ES384) with the leaf's P-384 key.
func (a *attestation) verifySignature() error {
	pub, ok := a.leaf.PublicKey.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P384() {
		return fmt.Errorf("the leaf certificate's key is %s, not ECDSA P-384", keyKind(a.leaf.PublicKey))
	}
	if err := nitroProtectedHeader(a.msg.Headers.Protected); err != nil {
		return err
	}
	if err := emptyUnprotectedHeader(a.msg.Headers); err != nil {
		return err
	}
	alg, err := a.msg.Headers.Protected.Algorithm()
	if err != nil {
		return fmt.Errorf("protected header has no usable algorithm: %w", err)
	}
	if alg != cose.AlgorithmES384 {
		return fmt.Errorf("protected header algorithm is %v, want ES384", alg)
	}
	v, err := cose.NewVerifier(cose.AlgorithmES384, pub)
	if err != nil {
		return err
	}
	if err := a.msg.Verify(nil, v); err != nil {
		return fmt.Errorf("signature does not verify with the leaf certificate's key: %w", err)
	}
	return nil
}

// nitroProtectedHeader accepts only the protected header Nitro sends, {alg}.
// Any other label is one vigil does not act on; refusing them all also refuses
// crit, whose listed labels RFC 9052 §3.1 says a recipient must understand.
func nitroProtectedHeader(h cose.ProtectedHeader) error {
	for _, label := range sortedLabels(h) {
		if label != cose.HeaderLabelAlgorithm {
			return fmt.Errorf("protected header carries %s, which vigil does not understand: a Nitro document's protected header holds only alg (1)", headerLabelName(label))
		}
	}
	return nil
}

// emptyUnprotectedHeader refuses any unprotected label. Nitro sends none, and
// an unprotected label is not signed: alg there too (RFC 9052 §3 forbids a
// label in both buckets) would let another reader of the same bytes see
// another algorithm.
func emptyUnprotectedHeader(h cose.Headers) error {
	labels := sortedLabels(h.Unprotected)
	if len(labels) == 0 {
		return nil
	}
	both := ""
	if _, ok := h.Protected[labels[0]]; ok {
		both = ", which is in the protected header too"
	}
	return fmt.Errorf("unprotected header carries %s%s: a Nitro document's unprotected header is empty", headerLabelName(labels[0]), both)
}

// sortedLabels lists a header's labels in a fixed order, so that a reason
// names the same label every time.
func sortedLabels[M ~map[any]any](h M) []any {
	labels := make([]any, 0, len(h))
	for l := range h {
		labels = append(labels, l)
	}
	slices.SortFunc(labels, func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	return labels
}

// headerLabelName names a COSE header label (RFC 9052 §3.1) for a reason.
// String labels are attacker-chosen, so they are quoted and clipped.
func headerLabelName(label any) string {
	names := map[int64]string{1: "alg", 2: "crit", 3: "content type", 4: "kid", 5: "IV", 6: "partial IV", 33: "x5chain"}
	switch l := label.(type) {
	case int64:
		if n, ok := names[l]; ok {
			return fmt.Sprintf("header %s (label %d)", n, l)
		}
		return fmt.Sprintf("header label %d", l)
	case string:
		return fmt.Sprintf("header label %q", clip(l))
	default:
		return fmt.Sprintf("header label %v", label)
	}
}

func keyKind(k any) string {
	switch k := k.(type) {
	case *ecdsa.PublicKey:
		return "ECDSA " + k.Curve.Params().Name
	case nil:
		return "missing"
	default:
		return fmt.Sprintf("%T", k)
	}
}

// clip shortens attacker-chosen strings quoted in reasons, cutting on a rune
// boundary: half a character would show as a \xNN escape, as if tampered with.
// unexpectedNonce is the user-data failure for a boot proof's document that
// carries a nonce, empty or not. QOS never sets one on its boot or live
// attestations, and its verifier refuses any (qos_nsm
// UnexpectedAttestationDocNonce): something else in the enclave asked the NSM
// for this document. A bare document is not judged on it: other Nitro
// documents carry nonces.
func unexpectedNonce(nonce []byte) string {
	shown := ""
	if len(nonce) > 0 {
		shown = ": " + hex.EncodeToString(nonce[:min(len(nonce), 16)])
		if len(nonce) > 16 {
			shown += "…"
		}
	}
	return fmt.Sprintf("the document carries a nonce (%d bytes%s), which QOS never sets on a boot or live attestation and its verifier refuses: something other than QOS's boot (the enclave's app, for one) asked the NSM for this document, so it does not attest this boot; do not trust this proof", len(nonce), shown)
}

func clip(s string) string { return api.ClipBytes(s, 64) }
