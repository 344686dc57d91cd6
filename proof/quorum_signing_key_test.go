package proof

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// quorumBootProof is a genuine boot proof (under a test CA) whose manifest set
// is set and whose envelope carries the approvals approve makes over the
// manifest's hash.
func quorumBootProof(t *testing.T, set QuorumSet, approve func(manifestHash []byte) []rawApproval) (api.BootProof, *DemoAuthority) {
	t.Helper()
	now := time.Now()
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	_, quorumPub, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	pcrs := map[uint64][]byte{}
	for i := range 16 {
		pcrs[uint64(i)] = make([]byte, 48)
	}
	for i := range 4 {
		pcrs[uint64(i)] = append(sha256Sum([]byte{byte(i), 1, 2}), make([]byte, 16)...)
	}
	m := &Manifest{
		Namespace: Namespace{Name: "acme/signer", Nonce: 1, QuorumKey: quorumPub},
		Pivot:     Pivot{Hash: sha256Sum([]byte("bin")), Restart: "Always", Args: []string{}},
		Enclave:   NitroConfig{QOSCommit: "x", PCR0: pcrs[0], PCR1: pcrs[1], PCR2: pcrs[2], PCR3: pcrs[3]},
	}
	m.ManifestSet = set
	m.ShareSet = set
	m.PatchSet = &QuorumSet{}
	manifest := encodeManifestV0(m)
	hash := sha256Sum(manifest)
	env := encodeEnvelope(manifest, approve(hash))
	_, ephPub, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := auth.attest(now, "signer", pcrs, hash, ephPub)
	if err != nil {
		t.Fatal(err)
	}
	return api.BootProof{
		EphemeralPublicKeyHex:  hex.EncodeToString(ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString(manifest),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString(env),
		EnclaveApp:             "signer",
	}, auth
}

// A member's 130-byte key is encryption half ‖ signing half, and approvals are
// checked with the signing half only. Two members whose keys differ only in the
// encryption half are one signer: one signature listed for each must not meet
// a 2-of-2 threshold, and such a set is refused.
func TestOneSigningKeyIsOneApproval(t *testing.T) {
	sign, pubA, _, _ := newQOSKey()
	_, other, _, _ := newQOSKey()
	pubB := append(append([]byte{}, other[:65]...), pubA[65:]...) // another encryption half, the same signing half
	set := QuorumSet{Threshold: 2, Members: []Member{{Alias: "alice", PubKey: pubA}, {Alias: "bob", PubKey: pubB}}}

	bp, auth := quorumBootProof(t, set, func(hash []byte) []rawApproval {
		sig, err := signP256(sign, hash) // one signature by one key, listed for each member
		if err != nil {
			t.Fatal(err)
		}
		return []rawApproval{{signature: sig, member: set.Members[0]}, {signature: sig, member: set.Members[1]}}
	})
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}, App: "signer"})
	c := rep.Check(CheckApprovals)
	if c.Status != Fail || rep.Verdict != Failed {
		t.Fatalf("one signing key's one signature met a 2-of-2 threshold: %s", dump(rep))
	}
	if !strings.Contains(c.Reason, `"alice"`) || !strings.Contains(c.Reason, `"bob"`) || !strings.Contains(c.Reason, "signing key") {
		t.Errorf("the reason does not name the members that share a signing key: %q", c.Reason)
	}
}

// A manifest-set member whose key is not a 130-byte QOS key can sign no
// approval: a 2-of-3 set with one such member is a 2-of-2 set read as 2 of 3.
// Even with the threshold met by the two well-formed members, the set is
// refused, naming the member, rather than shown as verified.
func TestMalformedMemberKeyFailsApprovals(t *testing.T) {
	signA, pubA, _, _ := newQOSKey()
	signB, pubB, _, _ := newQOSKey()
	_, pubC, _, _ := newQOSKey()
	set := QuorumSet{Threshold: 2, Members: []Member{{Alias: "alice", PubKey: pubA}, {Alias: "bob", PubKey: pubB}, {Alias: "carol", PubKey: pubC[:129]}}}

	bp, auth := quorumBootProof(t, set, func(hash []byte) []rawApproval {
		var out []rawApproval
		for i, k := range []*ecdsa.PrivateKey{signA, signB} {
			sig, err := signP256(k, hash)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, rawApproval{signature: sig, member: set.Members[i]})
		}
		return out
	})
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}, App: "signer"})
	c := rep.Check(CheckApprovals)
	if c.Status != Fail || rep.Verdict != Failed {
		t.Fatalf("a manifest set holding a 129-byte member key verified: %s", dump(rep))
	}
	if !strings.Contains(c.Reason, `"carol"`) || !strings.Contains(c.Reason, "129 bytes") {
		t.Errorf("the reason does not name the member with the malformed key: %q", c.Reason)
	}
}
