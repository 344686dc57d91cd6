package proof

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

var caseNow = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// TestV2ManifestWithCaseVariantKeysIsRefused: a v2 (JSON) manifest is hashed
// in a case-sensitive reading (qosCanonicalJSON) in which key order does not
// count. Were it decoded case-insensitively (encoding/json alone: the last
// of "manifestSet" and "ManifestSet" wins), a manifest holding both would
// hash alike in either order while the service, by the order it sends,
// picked the quorum set the approvals are checked against: an attacker's
// 1-of-1 instead of the real 2-of-2. Such a manifest is refused.
func TestV2ManifestWithCaseVariantKeysIsRefused(t *testing.T) {
	auth, err := NewDemoAuthority(caseNow)
	if err != nil {
		t.Fatal(err)
	}
	_, realA, _, _ := newQOSKey()
	_, realB, _, _ := newQOSKey()
	evilSign, evilPub, _, _ := newQOSKey()
	_, quorumPub, _, _ := newQOSKey()

	pcrs := map[uint64][]byte{}
	for i := range 32 {
		pcrs[uint64(i)] = make([]byte, 48)
	}
	for i := range 4 {
		h := sha512.Sum384(fmt.Appendf(nil, "audit7 PCR%d", i))
		pcrs[uint64(i)] = h[:]
	}
	hx := hex.EncodeToString
	set := func(th int, members ...string) string {
		var ms []string
		for i, m := range members {
			ms = append(ms, fmt.Sprintf(`{"alias":"m%d","pubKey":"%s"}`, i, m))
		}
		return fmt.Sprintf(`{"threshold":%d,"members":[%s]}`, th, strings.Join(ms, ","))
	}
	realSet := set(2, hx(realA), hx(realB))
	evilSet := set(1, hx(evilPub))
	// The same manifest twice, only the order of two keys differs.
	manifest := func(first, second string) string {
		return `{"version":"v2","namespace":{"name":"prod/signer","nonce":1,"quorumKey":"` + hx(quorumPub) + `"},` +
			`"pivot":{"hash":"` + hx(sha256Sum([]byte("pivot"))) + `","restart":"Always","args":[]},` +
			first + "," + second + `,"shareSet":` + realSet + `,` +
			`"enclave":{"pcr0":"` + hx(pcrs[0]) + `","pcr1":"` + hx(pcrs[1]) + `","pcr2":"` + hx(pcrs[2]) + `","pcr3":"` + hx(pcrs[3]) + `","qosCommit":"x"}}`
	}
	honest := manifest(`"ManifestSet":`+evilSet, `"manifestSet":`+realSet)
	hostile := manifest(`"manifestSet":`+realSet, `"ManifestSet":`+evilSet)

	h1, err := manifestHash([]byte(honest), true)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := manifestHash([]byte(hostile), true)
	if !bytes.Equal(h1, h2) {
		t.Fatal("precondition: both orders hash alike")
	}
	for _, m := range []string{honest, hostile} {
		if _, err := decodeManifest([]byte(m), true); err == nil || !strings.Contains(err.Error(), `"manifestSet" is sent too: remove this one`) {
			t.Fatalf("a manifest holding both manifestSet and ManifestSet: %v, want it refused naming the key", err)
		}
	}

	// A document attesting that manifest hash (the demo authority stands in
	// for the Nitro hardware) and the hostile ordering with an approval by the
	// attacker's key only.
	_, ephPub, _, _ := newQOSKey()
	pcrs[livePCR] = LiveManifestCommitment(h1, ephPub)
	doc, err := auth.attest(caseNow, "signer", pcrs, h1, ephPub)
	if err != nil {
		t.Fatal(err)
	}
	sig, _ := signP256(evilSign, h1)
	env := `{"manifest":` + hostile + `,"manifestSetApprovals":[{"signature":"` + hx(sig) + `","member":{"alias":"m0","pubKey":"` + hx(evilPub) + `"}}],"shareSetApprovals":[]}`
	bp := api.BootProof{
		EphemeralPublicKeyHex:  hx(ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString([]byte(hostile)),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString([]byte(env)),
		QosManifestVersion:     "v2",
		EnclaveApp:             "signer",
	}
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}, Now: caseNow, App: "signer"})
	if rep.Verdict != Failed || rep.Check(CheckApprovals).Status == Pass {
		for _, c := range rep.Checks {
			t.Logf("%-16s %-4s %s", c.ID, c.Status, c.Reason)
		}
		t.Errorf("verdict %s, approvals %s: approvals by the ManifestSet member counted against a manifest that also holds manifestSet", rep.Verdict, rep.Check(CheckApprovals).Status)
	}
}

// Finding B: when the attestation document does not decode, app proofs are
// checked against the boot proof's advertised (unattested) key and pass with the
// reason "signed by the attested ephemeral key" - the line the console shows
// as "app proof: ✓ signed by the attested ephemeral key" for a key nobody attested.
