package proof

// The mutators of TestProofMutations (mutation_test.go): a demo enclave whose
// every key the test holds, one entry per mutation class, and a hand-written
// CBOR encoder for the attestation payload's encoding variants.

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/veraison/go-cose"

	"github.com/vigil-console/vigil/api"
)

// fzEnclave is a demo enclave whose every key the test holds.
type fzEnclave struct {
	auth     *DemoAuthority
	bp       api.BootProof
	manifest []byte
	members  []*ecdsa.PrivateKey
	mpubs    [][]byte
	aliases  []string
	eph      *ecdsa.PrivateKey
	ephPub   []byte
	raw      rawAttestation
	now      time.Time
}

func fzBuild(t testing.TB, now time.Time) *fzEnclave {
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	e := &fzEnclave{auth: auth, now: now}
	for range 3 {
		sign, pub, _, err := newQOSKey()
		if err != nil {
			t.Fatal(err)
		}
		e.members = append(e.members, sign)
		e.mpubs = append(e.mpubs, pub)
	}
	_, quorumPub, _, _ := newQOSKey()
	m := &Manifest{
		Namespace: Namespace{Name: "vigil-demo/signer", Nonce: 7, QuorumKey: quorumPub},
		Pivot:     Pivot{Hash: sha256Sum([]byte("pivot")), Restart: "Always", Args: []string{"--app", "signer"}},
		Enclave:   NitroConfig{QOSCommit: "vigil-demo"},
	}
	for i, pub := range e.mpubs {
		a := fmt.Sprintf("demo-member-%d", i+1)
		e.aliases = append(e.aliases, a)
		m.ManifestSet.Members = append(m.ManifestSet.Members, Member{Alias: a, PubKey: pub})
		m.ShareSet.Members = append(m.ShareSet.Members, Member{Alias: a, PubKey: pub})
	}
	m.ManifestSet.Threshold, m.ShareSet.Threshold = 2, 2
	patch := QuorumSet{Threshold: 2}
	for _, pub := range e.mpubs {
		patch.Members = append(patch.Members, Member{PubKey: pub})
	}
	m.PatchSet = &patch
	pcrs := map[uint64][]byte{}
	for i := range attestablePCRs {
		pcrs[uint64(i)] = make([]byte, 48)
	}
	for i := range 4 {
		pcrs[uint64(i)] = bytes.Repeat([]byte{byte(0x10 + i)}, 48)
	}
	m.Enclave.PCR0, m.Enclave.PCR1, m.Enclave.PCR2, m.Enclave.PCR3 = pcrs[0], pcrs[1], pcrs[2], pcrs[3]
	e.manifest = encodeManifestV0(m)
	hash := sha256Sum(e.manifest)
	var approvals []rawApproval
	for i := range 2 {
		sig, _ := signP256(e.members[i], hash)
		approvals = append(approvals, rawApproval{signature: sig, member: m.ManifestSet.Members[i]})
	}
	env := encodeEnvelope(e.manifest, approvals)
	var ephPub []byte
	e.eph, ephPub, _, err = newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	e.ephPub = ephPub
	pcrs[livePCR] = LiveManifestCommitment(hash, ephPub)
	doc, err := auth.attest(now, "signer", pcrs, hash, ephPub)
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseAttestation(doc)
	if err != nil {
		t.Fatal(err)
	}
	e.raw = a.raw
	e.bp = api.BootProof{
		EphemeralPublicKeyHex:  hex.EncodeToString(ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString(e.manifest),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString(env),
		EnclaveApp:             "signer",
		Owner:                  "vigil-demo",
		CreatedAt:              api.NewTime(now),
	}
	return e
}

func (e *fzEnclave) appProof(t testing.TB, payload string) api.AppProof {
	sig, err := signP256(e.eph, []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	return api.AppProof{Scheme: AppProofScheme, PublicKey: hex.EncodeToString(e.ephPub), ProofPayload: payload, Signature: hex.EncodeToString(sig)}
}

// resignRaw re-signs raw with a fresh leaf (raw.Certificate replaced).
func (e *fzEnclave) resignRaw(t testing.TB, mutate func(*rawAttestation)) string {
	leafKey, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	der, err := x509.CreateCertificate(rand.Reader, nitroLikeLeaf(e.now), e.auth.inter, &leafKey.PublicKey, e.auth.interKey)
	if err != nil {
		t.Fatal(err)
	}
	raw := e.raw
	raw.PCRs = map[uint64][]byte{}
	for k, v := range e.raw.PCRs {
		raw.PCRs[k] = slices.Clone(v)
	}
	raw.CABundle = slices.Clone(e.raw.CABundle)
	raw.UserData = slices.Clone(e.raw.UserData)
	raw.PublicKey = slices.Clone(e.raw.PublicKey)
	raw.Certificate = der
	mutate(&raw)
	payload, err := cbor.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	return signNitroPayload(t, leafKey, payload)
}

// signNitroPayload is payload in a COSE_Sign1 with Nitro's headers, signed
// by leafKey, as the boot proof's base64 document.
func signNitroPayload(t testing.TB, leafKey *ecdsa.PrivateKey, payload []byte) string {
	signer, _ := cose.NewSigner(cose.AlgorithmES384, leafKey)
	msg := &cose.UntaggedSign1Message{Headers: nitroHeaders(), Payload: payload}
	if err := msg.Sign(rand.Reader, nil, signer); err != nil {
		t.Fatal(err)
	}
	out, _ := msg.MarshalCBOR()
	return base64.StdEncoding.EncodeToString(out)
}

// resignCBOR re-signs a hand-built payload with a fresh leaf; build gets the leaf DER.
func (e *fzEnclave) resignCBOR(t testing.TB, build func(leafDER []byte) []byte) string {
	leafKey, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	der, err := x509.CreateCertificate(rand.Reader, nitroLikeLeaf(e.now), e.auth.inter, &leafKey.PublicKey, e.auth.interKey)
	if err != nil {
		t.Fatal(err)
	}
	payload := build(der)
	return signNitroPayload(t, leafKey, payload)
}

// fzMutation is one mutation class. Under the service model ("svc/…") it
// rewrites what the service ships; under the root model ("doc/…",
// "doc-cbor/…") the trusted demo root re-signs the attestation payload.
// preserving says it changes no meaning: a FAILED verdict is then a false
// alarm, not a miss, while a report not FAILED is judged by the oracle as
// every class's is; demoOnly that it needs the demo enclave's keys.
type fzMutation struct {
	class      string
	preserving bool
	rootModel  bool
	demoOnly   bool
	apply      func(t testing.TB, rng *mrand.Rand, c *fzCase, bp *api.BootProof, aps *[]api.AppProof)
}

// fzB64Field picks one of the boot proof's three base64 fields.
func fzB64Field(rng *mrand.Rand, bp *api.BootProof) *string {
	return []*string{&bp.AwsAttestationDocB64, &bp.QosManifestB64, &bp.QosManifestEnvelopeB64}[rng.IntN(3)]
}

// fzB64 rewrites one base64 field's text.
func fzB64(class string, f func(rng *mrand.Rand, s string, raw []byte) string) fzMutation {
	return fzMutation{class: "svc/b64-" + class, apply: func(_ testing.TB, rng *mrand.Rand, _ *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
		p := fzB64Field(rng, bp)
		raw, _ := decodeB64(*p)
		*p = f(rng, *p, raw)
	}}
}

// fzBytes rewrites one base64 field's decoded bytes.
func fzBytes(class string, f func(rng *mrand.Rand, raw []byte) []byte) fzMutation {
	return fzMutation{class: "svc/bytes-" + class, apply: func(_ testing.TB, rng *mrand.Rand, _ *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
		p := fzB64Field(rng, bp)
		raw, _ := decodeB64(*p)
		*p = base64.StdEncoding.EncodeToString(f(rng, slices.Clone(raw)))
	}}
}

// fzEphemeral rewrites the boot proof's ephemeralPublicKeyHex.
func fzEphemeral(class string, f func(rng *mrand.Rand, s string) string) fzMutation {
	return fzMutation{class: "svc/hex-" + class, apply: func(_ testing.TB, rng *mrand.Rand, _ *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
		bp.EphemeralPublicKeyHex = f(rng, bp.EphemeralPublicKeyHex)
	}}
}

// fzApprovals rewrites the envelope's manifest-set approvals.
func fzApprovals(class string, preserving, demoOnly bool, f func(rng *mrand.Rand, c *fzCase, as []rawApproval) []rawApproval) fzMutation {
	return fzMutation{class: "svc/approvals-" + class, preserving: preserving, demoOnly: demoOnly,
		apply: func(t testing.TB, rng *mrand.Rand, c *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
			env, _ := decodeB64(bp.QosManifestEnvelopeB64)
			e, err := decodeEnvelope(env, false)
			if err != nil {
				t.Fatal(err)
			}
			as := f(rng, c, slices.Clone(e.approvals))
			bp.QosManifestEnvelopeB64 = base64.StdEncoding.EncodeToString(encodeEnvelope(e.manifestBytes, as))
		}}
}

// fzAppProof rewrites one app proof (or, with f returning two, adds one).
func fzAppProof(class string, preserving bool, f func(p api.AppProof) []api.AppProof) fzMutation {
	return fzMutation{class: "svc/appproof-" + class, preserving: preserving,
		apply: func(_ testing.TB, rng *mrand.Rand, _ *fzCase, _ *api.BootProof, aps *[]api.AppProof) {
			ps := slices.Clone(*aps)
			k := rng.IntN(len(ps))
			*aps = slices.Concat(ps[:k], f(ps[k]), ps[k+1:])
		}}
}

// fzDocField has the root re-sign the genuine payload with one field changed.
func fzDocField(class string, preserving bool, f func(rng *mrand.Rand, r *rawAttestation)) fzMutation {
	return fzMutation{class: "doc/" + class, preserving: preserving, rootModel: true, demoOnly: true,
		apply: func(t testing.TB, rng *mrand.Rand, c *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
			bp.AwsAttestationDocB64 = c.demo.resignRaw(t, func(r *rawAttestation) { f(rng, r) })
		}}
}

// fzDocCBOR has the root re-sign the genuine payload written with one
// encoding variant (fzEncode).
func fzDocCBOR(variant string, preserving bool) fzMutation {
	return fzMutation{class: "doc-cbor/" + variant, preserving: preserving, rootModel: true, demoOnly: true,
		apply: func(t testing.TB, _ *mrand.Rand, c *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
			bp.AwsAttestationDocB64 = c.demo.resignCBOR(t, func(leaf []byte) []byte {
				raw := c.demo.raw
				raw.Certificate = leaf
				return fzEncode(raw, variant)
			})
		}}
}

// fzMutations are every mutation class TestProofMutations runs, in turn.
var fzMutations = []fzMutation{
	fzB64("url", func(_ *mrand.Rand, _ string, raw []byte) string { return base64.URLEncoding.EncodeToString(raw) }),
	fzB64("nopad", func(_ *mrand.Rand, _ string, raw []byte) string { return base64.RawStdEncoding.EncodeToString(raw) }),
	fzB64("newline", func(rng *mrand.Rand, s string, _ []byte) string {
		k := rng.IntN(len(s))
		return s[:k] + "\n" + s[k:]
	}),
	fzB64("trim", func(_ *mrand.Rand, s string, _ []byte) string { return " \t" + s + "\r\n" }),
	fzB64("space", func(rng *mrand.Rand, s string, _ []byte) string {
		k := rng.IntN(len(s))
		return s[:k] + " " + s[k:]
	}),
	// Non-canonical trailing bits: the last digit's unused low bit set, in a
	// field whose length leaves unused bits (none does when it is a multiple of 3).
	{class: "svc/b64-trailbits", apply: func(_ testing.TB, rng *mrand.Rand, _ *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
		fields := []*string{&bp.AwsAttestationDocB64, &bp.QosManifestB64, &bp.QosManifestEnvelopeB64}
		start := rng.IntN(len(fields))
		for k := range fields {
			p := fields[(start+k)%len(fields)]
			raw, _ := decodeB64(*p)
			if len(raw)%3 == 0 {
				continue
			}
			s := base64.RawStdEncoding.EncodeToString(raw)
			const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
			*p = s[:len(s)-1] + string(alpha[strings.IndexByte(alpha, s[len(s)-1])^1])
			return
		}
	}},
	fzBytes("flip", func(rng *mrand.Rand, raw []byte) []byte {
		raw[rng.IntN(len(raw))] ^= 1 << rng.IntN(8)
		return raw
	}),
	fzBytes("insert", func(rng *mrand.Rand, raw []byte) []byte {
		return slices.Insert(raw, rng.IntN(len(raw)), byte(rng.IntN(256)))
	}),
	fzBytes("delete", func(rng *mrand.Rand, raw []byte) []byte {
		k := rng.IntN(len(raw))
		return slices.Delete(raw, k, k+1)
	}),
	fzBytes("truncate", func(rng *mrand.Rand, raw []byte) []byte { return raw[:rng.IntN(len(raw))] }),
	fzBytes("append", func(rng *mrand.Rand, raw []byte) []byte { return append(raw, byte(rng.IntN(256))) }),
	fzEphemeral("upper", func(_ *mrand.Rand, s string) string { return strings.ToUpper(s) }),
	fzEphemeral("0x", func(_ *mrand.Rand, s string) string { return "0x" + s }),
	fzEphemeral("nibble", func(rng *mrand.Rand, s string) string {
		k := rng.IntN(len(s))
		return s[:k] + string(flipHex(s[k])) + s[k+1:]
	}),
	fzEphemeral("truncate", func(_ *mrand.Rand, s string) string { return s[:len(s)-2] }),
	fzEphemeral("space", func(_ *mrand.Rand, s string) string { return " " + s }),
	{class: "svc/version", apply: func(_ testing.TB, rng *mrand.Rand, _ *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
		vs := []string{"v0", "v1", "v2", "2", "V2", " v2 ", "manifest_v2", "0"}
		bp.QosManifestVersion = vs[rng.IntN(len(vs))]
	}},
	{class: "svc/label", apply: func(_ testing.TB, rng *mrand.Rand, _ *fzCase, bp *api.BootProof, _ *[]api.AppProof) {
		vs := []string{"policy-engine", "\x1b[31mred", "", "SIGNER", "signer\u200b"}
		bp.EnclaveApp = vs[rng.IntN(len(vs))]
	}},
	fzApprovals("drop", false, false, func(rng *mrand.Rand, _ *fzCase, as []rawApproval) []rawApproval {
		k := rng.IntN(len(as))
		return slices.Delete(as, k, k+1)
	}),
	// QOS refuses an envelope with a second approval by one member (DuplicateApproval).
	fzApprovals("dup", false, false, func(rng *mrand.Rand, _ *fzCase, as []rawApproval) []rawApproval {
		return append(as, as[rng.IntN(len(as))])
	}),
	fzApprovals("reorder", true, false, func(_ *mrand.Rand, _ *fzCase, as []rawApproval) []rawApproval {
		as[0], as[len(as)-1] = as[len(as)-1], as[0]
		return as
	}),
	// A non-member key under a member's alias.
	fzApprovals("nonmember", false, false, func(rng *mrand.Rand, _ *fzCase, as []rawApproval) []rawApproval {
		_, pub, _, _ := newQOSKey()
		as[rng.IntN(len(as))].member.PubKey = pub
		return as
	}),
	// An alias moved onto the next member's key.
	fzApprovals("alias-swap", false, false, func(rng *mrand.Rand, _ *fzCase, as []rawApproval) []rawApproval {
		k := rng.IntN(len(as))
		as[k].member.Alias = as[(k+1)%len(as)].member.Alias
		return as
	}),
	fzApprovals("badsig", false, false, func(rng *mrand.Rand, _ *fzCase, as []rawApproval) []rawApproval {
		k := rng.IntN(len(as))
		sig := slices.Clone(as[k].signature)
		sig[rng.IntN(len(sig))] ^= 1
		as[k].signature = sig
		return as
	}),
	// A real member's signature over another hash.
	fzApprovals("otherhash", false, true, func(_ *mrand.Rand, c *fzCase, as []rawApproval) []rawApproval {
		sig, _ := signP256(c.demo.members[2], sha256Sum([]byte("other")))
		return append(as, rawApproval{signature: sig, member: Member{Alias: c.demo.aliases[2], PubKey: c.demo.mpubs[2]}})
	}),
	fzAppProof("pub-upper", true, func(p api.AppProof) []api.AppProof {
		p.PublicKey = strings.ToUpper(p.PublicKey)
		return []api.AppProof{p}
	}),
	fzAppProof("pub-0x", true, func(p api.AppProof) []api.AppProof { p.PublicKey = "0x" + p.PublicKey; return []api.AppProof{p} }),
	fzAppProof("sig-malleate", true, func(p api.AppProof) []api.AppProof { p.Signature = malleate(p.Signature); return []api.AppProof{p} }),
	fzAppProof("sig-upper", true, func(p api.AppProof) []api.AppProof {
		p.Signature = strings.ToUpper(p.Signature)
		return []api.AppProof{p}
	}),
	fzAppProof("payload-space", false, func(p api.AppProof) []api.AppProof { p.ProofPayload = " " + p.ProofPayload; return []api.AppProof{p} }),
	fzAppProof("payload-edit", false, func(p api.AppProof) []api.AppProof {
		p.ProofPayload = strings.Replace(p.ProofPayload, "a", "b", 1)
		return []api.AppProof{p}
	}),
	fzAppProof("scheme-lower", false, func(p api.AppProof) []api.AppProof { p.Scheme = strings.ToLower(p.Scheme); return []api.AppProof{p} }),
	fzAppProof("dup", true, func(p api.AppProof) []api.AppProof { return []api.AppProof{p, p} }),
	fzDocField("pcr0-3", false, func(rng *mrand.Rand, r *rawAttestation) { r.PCRs[uint64(rng.IntN(4))][rng.IntN(48)] ^= 1 }),
	fzDocField("pcr17", false, func(_ *mrand.Rand, r *rawAttestation) { r.PCRs[livePCR][0] ^= 1 }),
	fzDocField("pcr-other", true, func(rng *mrand.Rand, r *rawAttestation) { r.PCRs[uint64(4+rng.IntN(12))][0] ^= 1 }),
	fzDocField("user_data", false, func(rng *mrand.Rand, r *rawAttestation) { r.UserData[rng.IntN(len(r.UserData))] ^= 1 }),
	fzDocField("public_key", false, func(rng *mrand.Rand, r *rawAttestation) { r.PublicKey[rng.IntN(len(r.PublicKey))] ^= 1 }),
	fzDocField("nonce", false, func(_ *mrand.Rand, r *rawAttestation) { r.Nonce = []byte("nonce") }),
	fzDocField("module_id", true, func(_ *mrand.Rand, r *rawAttestation) { r.ModuleID = "i-other" }),
	fzDocField("timestamp", true, func(rng *mrand.Rand, r *rawAttestation) { r.Timestamp += 1 + uint64(rng.IntN(60000)) }),
	fzDocField("cabundle-reorder", true, func(_ *mrand.Rand, r *rawAttestation) { r.CABundle[0], r.CABundle[1] = r.CABundle[1], r.CABundle[0] }),
	fzDocField("cabundle-dup", true, func(_ *mrand.Rand, r *rawAttestation) { r.CABundle = append(r.CABundle, r.CABundle[1]) }),
	fzDocField("digest", false, func(_ *mrand.Rand, r *rawAttestation) { r.Digest = "SHA256" }),
	fzDocCBOR("dup-pcr-nonminimal", false),
	fzDocCBOR("dup-userdata", false),
	fzDocCBOR("bytes-key", false),
	fzDocCBOR("indefinite-map", true),
	fzDocCBOR("nonminimal-int", true),
	fzDocCBOR("key-order", true),
	fzDocCBOR("userdata-indef-bytes", true),
}

// malleate turns an r‖s P-256 signature into r‖(n−s).
func malleate(h string) string {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 64 {
		return h
	}
	n := elliptic.P256().Params().N
	s := new(big.Int).SetBytes(b[32:])
	s.Sub(n, s)
	out := slices.Clone(b)
	s.FillBytes(out[32:])
	return hex.EncodeToString(out)
}

// fzEncode writes a Nitro payload by hand, with one encoding variant.
func fzEncode(r rawAttestation, variant string) []byte {
	var b []byte
	head := func(major byte, n uint64) {
		switch {
		case variant == "nonminimal-int" && n < 24:
			b = append(b, major<<5|24, byte(n))
		case n < 24:
			b = append(b, major<<5|byte(n))
		case n < 256:
			b = append(b, major<<5|24, byte(n))
		case n < 65536:
			b = append(b, major<<5|25, byte(n>>8), byte(n))
		case n < 1<<32:
			b = append(b, major<<5|26, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
		default:
			b = append(b, major<<5|27)
			for i := 7; i >= 0; i-- {
				b = append(b, byte(n>>(8*i)))
			}
		}
	}
	text := func(s string) {
		if variant == "bytes-key" && (s == "module_id") {
			head(2, uint64(len(s)))
		} else {
			head(3, uint64(len(s)))
		}
		b = append(b, s...)
	}
	bytesv := func(v []byte) { head(2, uint64(len(v))); b = append(b, v...) }
	type kv struct {
		k string
		f func()
	}
	fields := []kv{
		{"module_id", func() { text(r.ModuleID) }},
		{"digest", func() { text(r.Digest) }},
		{"timestamp", func() { head(0, r.Timestamp) }},
		{"pcrs", func() {
			keys := slices.Sorted(func(y func(uint64) bool) {
				for k := range r.PCRs {
					if !y(k) {
						return
					}
				}
			})
			n := len(keys)
			if variant == "dup-pcr-nonminimal" {
				n++
			}
			head(5, uint64(n))
			for _, k := range keys {
				head(0, k)
				bytesv(r.PCRs[k])
			}
			if variant == "dup-pcr-nonminimal" {
				b = append(b, 0x18, 0x00) // key 0, non-minimal
				bytesv(bytes.Repeat([]byte{0xee}, 48))
			}
		}},
		{"certificate", func() { bytesv(r.Certificate) }},
		{"cabundle", func() {
			head(4, uint64(len(r.CABundle)))
			for _, c := range r.CABundle {
				bytesv(c)
			}
		}},
		{"public_key", func() { bytesv(r.PublicKey) }},
		{"user_data", func() {
			if variant == "userdata-indef-bytes" {
				b = append(b, 0x5f)
				bytesv(r.UserData[:10])
				bytesv(r.UserData[10:])
				b = append(b, 0xff)
				return
			}
			bytesv(r.UserData)
		}},
		{"nonce", func() { b = append(b, 0xf6) }},
	}
	if variant == "key-order" {
		slices.Reverse(fields)
	}
	n := len(fields)
	if variant == "dup-userdata" {
		n++
	}
	if variant == "indefinite-map" {
		b = append(b, 0xbf)
	} else {
		head(5, uint64(n))
	}
	for _, f := range fields {
		text(f.k)
		f.f()
	}
	if variant == "dup-userdata" {
		text("user_data")
		bytesv(make([]byte, 32))
	}
	if variant == "indefinite-map" {
		b = append(b, 0xff)
	}
	return b
}
