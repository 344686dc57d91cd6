package proof

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// v1v0Polyglot builds manifest bytes that are a whole Borsh v1 manifest (the
// demo enclave's members and PCRs) and also a whole Borsh v0 manifest whose
// manifest set is 1 of 2, the second member "attacker". The v1 reading's one
// bridge host holds the v0 reading's threshold, member count and first
// member, whose pub_key swallows the v1 sets; the v1 patch member's key is the
// v0 tail. (From audit 217.)
func v1v0Polyglot(t *testing.T, e *fzEnclave, attackerKey []byte) []byte {
	t.Helper()
	_, quorumPub, _, _ := newQOSKey()
	pcr := func(i int) []byte { return e.raw.PCRs[uint64(i)] }
	for pad := 0; pad < 200; pad++ {
		// v0 tail: member 1 of the v0 manifest set, share set, enclave, patch set.
		t0 := &borshWriter{}
		t0.str("attacker")
		t0.bytes(attackerKey)
		t0.u32(1)
		t0.u32(0) // share set
		for i := range 4 {
			t0.bytes(pcr(i))
		}
		t0.bytes(nil)
		t0.str("evil-commit")
		t0.u32(0)
		t0.u32(0) // patch set
		// v1 tail: the real sets and enclave, then a patch set whose one
		// member's key is the v0 tail.
		t1 := &borshWriter{}
		set := func(w *borshWriter) {
			w.u32(2)
			w.u32(3)
			for i, pub := range e.mpubs {
				w.str(e.aliases[i])
				w.bytes(pub)
			}
		}
		set(t1)
		set(t1)
		for i := range 4 {
			t1.bytes(pcr(i))
		}
		t1.bytes(nil)
		t1.str("good-commit" + string(bytes.Repeat([]byte{'p'}, pad)))
		t1.u32(1) // patch threshold
		t1.u32(1) // patch members
		t1.u32(uint32(len(t0.b)))
		// host: 256 bytes, read by v0 as threshold, count, alias and pub_key length.
		const hostLen = 256
		l0 := uint32(hostLen-13) + 1 + 4 + uint32(len(t1.b))
		host := make([]byte, hostLen)
		binary.LittleEndian.PutUint32(host[1:], 2)  // v0 member count
		binary.LittleEndian.PutUint32(host[9:], l0) // v0 member 0's pub_key runs to the v0 tail
		if !utf8.Valid(host) {
			continue
		}
		w := &borshWriter{}
		w.str("vigil-demo/signer")
		w.u32(7)
		w.bytes(quorumPub)
		w.raw(sha256Sum([]byte("pivot")))
		w.u8(1)        // restart Always
		w.u32(1)       // v1: 1 bridge; v0: 1 arg
		w.u8(0)        // Server
		w.u16(0)       // port
		w.u32(hostLen) // host length (v0: arg 0 is empty, then the threshold's bytes)
		w.raw(host)
		w.u8(0)  // debug_mode
		w.u32(0) // args
		w.raw(t1.b)
		w.raw(t0.b)
		return w.b
	}
	t.Fatal("no padding made the host UTF-8")
	return nil
}

// QOS (qos_core boot.rs decode_borsh, in try_from_slice_compat) refuses
// manifest and envelope bytes that read both as v1 and as v0; vigil used to
// show the v1 reading and, approved and pinned, call it VERIFIED.
func TestAmbiguousBorshManifestIsRefused(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	_, attackerKey, _, _ := newQOSKey()
	b := v1v0Polyglot(t, e, attackerKey)
	v1, err1 := decodeManifestBorsh(b, true)
	v0, err0 := decodeManifestBorsh(b, false)
	if err1 != nil || err0 != nil {
		t.Fatalf("not a polyglot: v1 %v, v0 %v", err1, err0)
	}
	if v1.ManifestSet.Threshold == v0.ManifestSet.Threshold {
		t.Fatalf("the two readings' manifest sets should differ: %d and %d", v1.ManifestSet.Threshold, v0.ManifestSet.Threshold)
	}
	hash := sha256Sum(b)
	var approvals []rawApproval
	for i := range 2 {
		sig, err := signP256(e.members[i], hash)
		if err != nil {
			t.Fatal(err)
		}
		approvals = append(approvals, rawApproval{signature: sig, member: Member{Alias: e.aliases[i], PubKey: e.mpubs[i]}})
	}
	env := encodeEnvelope(b, approvals)
	rep := verifyPinnedBootProof(t, e, now, hash, b, env)
	wantRefusedAsAmbiguous(t, rep, "manifest bytes that are both a v1 and a v0 manifest")
}

// verifyPinnedBootProof verifies a boot proof of e's enclave, attested now
// with the manifest whose hash is hash, shipped as manifest and envelope,
// against pins of the pivot and of e's manifest set.
func verifyPinnedBootProof(t *testing.T, e *fzEnclave, now time.Time, hash, manifest, envelope []byte) *Report {
	t.Helper()
	pcrs := map[uint64][]byte{}
	for k, v := range e.raw.PCRs {
		pcrs[k] = v
	}
	pcrs[livePCR] = LiveManifestCommitment(hash, e.ephPub)
	doc, err := e.auth.attest(now, "signer", pcrs, hash, e.ephPub)
	if err != nil {
		t.Fatal(err)
	}
	bp := api.BootProof{
		EphemeralPublicKeyHex:  hex.EncodeToString(e.ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString(manifest),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString(envelope),
		EnclaveApp:             "signer",
	}
	pin := &QuorumSet{Threshold: 2}
	for _, k := range e.mpubs {
		pin.Members = append(pin.Members, Member{PubKey: k})
	}
	return VerifyBootProof(bp, Options{Roots: []Root{e.auth.Root()}, App: "signer",
		ExpectedPivotHashes: [][]byte{sha256Sum([]byte("pivot"))}, ExpectedManifestSet: pin})
}

// wantRefusedAsAmbiguous checks that rep refused what it verified (what)
// for its ambiguous Borsh encoding: FAILED, the manifest's decoding and its
// approvals failing so, and no manifest shown.
func wantRefusedAsAmbiguous(t *testing.T, rep *Report, what string) {
	t.Helper()
	if rep.Verdict != Failed {
		t.Errorf("verdict %s for %s, want FAILED", rep.Verdict, what)
	}
	for _, id := range []string{CheckManifestDecode, CheckApprovals} {
		if c := rep.Check(id); c.Status != Fail || !strings.Contains(c.Reason, "ambiguous Borsh encoding") {
			t.Errorf("%s is %s %q, want a failure naming the ambiguous Borsh encoding", id, c.Status, c.Reason)
		}
	}
	if rep.Manifest != nil {
		t.Errorf("a manifest is shown (%s, manifest set %d of %d) for %s, whose hash names two manifests", rep.Manifest.Version, rep.Manifest.ManifestSet.Threshold, len(rep.Manifest.ManifestSet.Members), what)
	}
}
