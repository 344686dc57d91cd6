package proof

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Audit 218 F1, F2: what a v2 manifest shows of its bridges, env and dns is
// written from what was hashed, not from the service's bytes.

// v2ProofShipping is a genuine boot proof of the v2 manifest booted (QOS
// canonical JSON: attested and approved by e's quorum) whose
// qosManifestB64 is shipped, bytes the service chose.
func v2ProofShipping(t testing.TB, e *fzEnclave, now time.Time, booted, shipped []byte) api.BootProof {
	t.Helper()
	qosHash := sha256Sum(booted)
	pcrs := map[uint64][]byte{}
	for k, v := range e.raw.PCRs {
		pcrs[k] = v
	}
	pcrs[livePCR] = LiveManifestCommitment(qosHash, e.ephPub)
	doc, err := e.auth.attest(now, "signer", pcrs, qosHash, e.ephPub)
	if err != nil {
		t.Fatal(err)
	}
	env := `{"manifest":` + string(booted) + `,"manifestSetApprovals":[`
	for i := range 2 {
		sig, err := signP256(e.members[i], qosHash)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			env += ","
		}
		env += `{"member":{"alias":"` + e.aliases[i] + `","pubKey":"` + hex.EncodeToString(e.mpubs[i]) + `"},"signature":"` + hex.EncodeToString(sig) + `"}`
	}
	env += `],"shareSetApprovals":[]}`
	return api.BootProof{
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString([]byte(env)),
		EphemeralPublicKeyHex:  hex.EncodeToString(e.ephPub),
		AwsAttestationDocB64:   base64.StdEncoding.EncodeToString(doc),
		QosManifestB64:         base64.StdEncoding.EncodeToString(shipped),
		QosManifestVersion:     "v2",
		EnclaveApp:             "signer",
	}
}

// v2ManifestWith is qosCanonicalV2Manifest with the pivot env and bridges
// given (QOS canonical JSON; env "" leaves it out).
func v2ManifestWith(e *fzEnclave, env, bridges string) []byte {
	m := qosCanonicalV2Manifest("--x", e)
	if env != "" {
		m = bytes.Replace(m, []byte(`"debugMode":false,`), []byte(`"debugMode":false,"env":`+env+`,`), 1)
	}
	return bytes.Replace(m, []byte(`"bridgeConfig":[]`), []byte(`"bridgeConfig":[`+bridges+`]`), 1)
}

// The service re-spells the booted bridge with its host after 400 spaces:
// the hash does not see spacing, key order or 3000 for "3000", so the proof
// verifies. The bridge shown (clipped for people) must still name the host
// the enclave's bridge connects to, and --json must carry the hashed form.
func TestV2BridgeIsShownAsHashedNotAsSent(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	const bridge = `{"host":"10.9.9.9","port":"3000","type":"server"}`
	booted := v2ManifestWith(e, `{"A":"x"}`, bridge)
	shipped := bytes.Replace(booted, []byte(bridge), []byte(`{"type":"server","port":3000,`+strings.Repeat(" ", 400)+`"host":"10.9.9.9"}`), 1)
	rep := VerifyBootProof(v2ProofShipping(t, e, now, booted, shipped), Options{Roots: []Root{e.auth.Root()}})
	if rep.Verdict != Verified {
		t.Fatalf("verdict %s (user-data: %s), want the padded bridge to verify: the hash does not see spacing", rep.Verdict, rep.Check(CheckUserData).Reason)
	}
	if len(rep.Manifest.Pivot.Bridges) != 1 {
		t.Fatalf("bridges shown %q, want the one booted", rep.Manifest.Pivot.Bridges)
	}
	shown := api.ClipBytes(rep.Manifest.Pivot.Bridges[0], MaxShownConfig) // as the console and the CLI show it
	if shown != bridge {
		t.Errorf("bridge shown %q, want the hashed %s", shown, bridge)
	}
	js, err := json.Marshal(rep.Manifest.Pivot)
	if err != nil {
		t.Fatal(err)
	}
	wantBridges, _ := json.Marshal([]string{bridge})
	if want := `"bridges":` + string(wantBridges); !strings.Contains(string(js), want) {
		t.Errorf("--json pivot %s, want %s", js, want)
	}
}

// The service adds "DEBUG":null to the booted env and a null dns: the hash
// drops null members, so the proof verifies, and what is shown must be the
// env the enclave booted with, not one with a DEBUG variable.
func TestV2NullEnvMemberIsNotShown(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	booted := v2ManifestWith(e, `{"A":"x","B":{"c":"1"}}`, "")
	shipped := bytes.Replace(booted, []byte(`{"A":"x","B":{"c":"1"}}`), []byte(`{"DEBUG":null,"B":{"c":1,"d":null},"A":"x"}`), 1)
	shipped = bytes.Replace(shipped, []byte(`"enclave":{`), []byte(`"dns":null,"enclave":{`), 1)
	rep := VerifyBootProof(v2ProofShipping(t, e, now, booted, shipped), Options{Roots: []Root{e.auth.Root()}})
	if rep.Verdict != Verified {
		t.Fatalf("verdict %s (user-data: %s), want it verified: the hash drops null members", rep.Verdict, rep.Check(CheckUserData).Reason)
	}
	if got, want := rep.Manifest.Pivot.Env, `{"A":"x","B":{"c":"1"}}`; got != want {
		t.Errorf("env shown %s, want the booted %s", got, want)
	}
	if rep.Manifest.DNS != "" {
		t.Errorf("dns shown %q, want none: a null dns is dropped from the hash", rep.Manifest.DNS)
	}
}

// dns, env and bridges are shown as QOS canonical JSON of what was hashed;
// absent, null or an empty env (QOS skips it) show nothing.
func TestV2ConfigShownIsTheHashedForm(t *testing.T) {
	m, err := decodeManifest([]byte(v2Manifest(`{ "Z" : 10, "A":[1,null] }`, `{"servers":[ "1.1.1.1" ],"port":53,"x":null}`)), true)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"A":["1",null],"Z":"10"}`; m.Pivot.Env != want {
		t.Errorf("env shown %s, want %s", m.Pivot.Env, want)
	}
	if want := `{"port":"53","servers":["1.1.1.1"]}`; m.DNS != want {
		t.Errorf("dns shown %s, want %s", m.DNS, want)
	}
	for _, v := range []string{"", "null", "{}"} {
		m, err := decodeManifest([]byte(v2Manifest(v, strings.ReplaceAll(v, "{}", "null"))), true)
		if err != nil {
			t.Fatalf("env %q: %v", v, err)
		}
		if m.Pivot.Env != "" || m.DNS != "" {
			t.Errorf("env and dns %q: shown as %q and %q, want nothing", v, m.Pivot.Env, m.DNS)
		}
	}
}
