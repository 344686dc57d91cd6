package proof

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Audit 217 F3: a v2 manifest is hashed as QOS canonical JSON (qos_json).

// qosCanonicalV2Manifest is a v2 manifest exactly as QOS canonical JSON
// (qos_json::to_vec) writes it: keys sorted, integers as strings, strings
// as serde_json writes them (U+2028 is not escaped). QOS's manifest hash is
// SHA-256 of these bytes.
func qosCanonicalV2Manifest(arg string, e *fzEnclave) []byte {
	pcr := func(i int) string { return hex.EncodeToString(e.raw.PCRs[uint64(i)]) }
	members := ""
	for i, k := range e.mpubs {
		if i > 0 {
			members += ","
		}
		members += `{"alias":"` + e.aliases[i] + `","pubKey":"` + hex.EncodeToString(k) + `"}`
	}
	return []byte(`{"enclave":{"awsRootCertificate":"","pcr0":"` + pcr(0) + `","pcr1":"` + pcr(1) + `","pcr2":"` + pcr(2) + `","pcr3":"` + pcr(3) + `","qosCommit":"c"},` +
		`"manifestSet":{"members":[` + members + `],"threshold":"2"},` +
		`"namespace":{"name":"vigil-demo/signer","nonce":"7","quorumKey":"` + hex.EncodeToString(e.mpubs[0]) + `"},` +
		`"pivot":{"args":["` + arg + `"],"bridgeConfig":[],"debugMode":false,"hash":"` + hex.EncodeToString(sha256Sum([]byte("pivot"))) + `","restart":"Always"},` +
		`"shareSet":{"members":[],"threshold":"0"},"version":"v2"}`)
}

func TestV2ManifestHashKeepsLineSeparatorRaw(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	for _, arg := range []string{"--greeting=hi", "--greeting=hi\u2028there"} {
		b := qosCanonicalV2Manifest(arg, e)
		qosHash := sha256Sum(b) // b is already QOS canonical JSON
		got, err := manifestHash(b, true)
		if err != nil {
			t.Fatal(err)
		}
		pcrs := map[uint64][]byte{}
		for k, v := range e.raw.PCRs {
			pcrs[k] = v
		}
		pcrs[livePCR] = LiveManifestCommitment(qosHash, e.ephPub)
		doc, _ := e.auth.attest(now, "signer", pcrs, qosHash, e.ephPub)
		var approvals []v2ApprovalText
		for i := range 2 {
			sig, _ := signP256(e.members[i], qosHash)
			approvals = append(approvals, v2ApprovalText{hex.EncodeToString(sig), e.aliases[i], hex.EncodeToString(e.mpubs[i])})
		}
		env := `{"manifest":` + string(b) + `,"manifestSetApprovals":[`
		for i, a := range approvals {
			if i > 0 {
				env += ","
			}
			env += `{"member":{"alias":"` + a.alias + `","pubKey":"` + a.key + `"},"signature":"` + a.sig + `"}`
		}
		env += `],"shareSetApprovals":[]}`
		bp := api.BootProof{
			EphemeralPublicKeyHex:  hex.EncodeToString(e.ephPub),
			AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
			QosManifestB64:         base64.StdEncoding.EncodeToString(b),
			QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString([]byte(env)),
			QosManifestVersion:     "v2",
			EnclaveApp:             "signer",
		}
		rep := VerifyBootProof(bp, Options{Roots: []Root{e.auth.Root()}})
		t.Logf("arg %q: QOS hash %x, vigil hash %x, verdict %s; user-data: %s", arg, qosHash[:8], got[:8], rep.Verdict, rep.Check(CheckUserData).Reason)
		if rep.Verdict != Verified {
			t.Errorf("arg %q: a genuine v2 proof (manifest bytes exactly QOS canonical JSON) is %s", arg, rep.Verdict)
		}
	}
}

type v2ApprovalText struct{ sig, alias, key string }

func TestV2ManifestHashWritesIntegersAsStrings(t *testing.T) {
	e := fzBuild(t, time.Now())
	canon := qosCanonicalV2Manifest("--a", e) // QOS canonical: "nonce":"7", "threshold":"2"
	numeric := bytes.ReplaceAll(bytes.ReplaceAll(bytes.ReplaceAll(canon, []byte(`"nonce":"7"`), []byte(`"nonce":7`)), []byte(`"threshold":"2"`), []byte(`"threshold":2`)), []byte(`"threshold":"0"`), []byte(`"threshold":0`))
	m, err := decodeManifest(numeric, true)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := manifestHash(numeric, true)
	if !bytes.Equal(got, sha256Sum(canon)) {
		t.Errorf("the same manifest (nonce %d) with integers as JSON numbers hashes to %x; QOS (qos_json writes integers as strings) hashes it to %x", m.Namespace.Nonce, got[:8], sha256Sum(canon)[:8])
	}
}

func TestV2ManifestHashDropsNullMembers(t *testing.T) {
	e := fzBuild(t, time.Now())
	canon := qosCanonicalV2Manifest("--a", e)
	withNull := bytes.Replace(canon, []byte(`"enclave":{`), []byte(`"dns":null,"enclave":{`), 1)
	if _, err := decodeManifest(withNull, true); err != nil {
		t.Fatalf("vigil refuses dns:null: %v", err)
	}
	got, _ := manifestHash(withNull, true)
	if !bytes.Equal(got, sha256Sum(canon)) {
		t.Errorf(`with "dns":null vigil hashes %x; qos_json drops null members and hashes %x`, got[:8], sha256Sum(canon)[:8])
	}
}
