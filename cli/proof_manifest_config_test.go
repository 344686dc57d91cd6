package cli

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
)

// v2BootProof is a boot proof (its document a stub that does not decode)
// whose JSON v2 manifest has the given pivot env and dns.
func v2BootProof(env, dns string) api.BootProof {
	m := `{"version":"v2","namespace":{"name":"evil/signer","nonce":1,"quorumKey":"01"},"pivot":{"hash":"` + strings.Repeat("09", 32) +
		`","restart":"Always","bridgeConfig":[],"debugMode":false,"args":[],"env":` + env + `},` +
		`"manifestSet":{"threshold":1,"members":[]},"shareSet":{"threshold":1,"members":[]},` +
		`"enclave":{"pcr0":"00","pcr1":"01","pcr2":"02","pcr3":"03","awsRootCertificate":"","qosCommit":"c"},"dns":` + dns + `}`
	e := `{"manifest":` + m + `,"manifestSetApprovals":[],"shareSetApprovals":[]}`
	b64 := base64.StdEncoding.EncodeToString
	return api.BootProof{EnclaveApp: "signer", AwsAttestationDocB64: "AAAA", QosManifestVersion: "v2",
		QosManifestB64: b64([]byte(m)), QosManifestEnvelopeB64: b64([]byte(e))}
}

// A v2 manifest's pivot env and dns are approved with it, so the report
// shows them with the rest of the pivot: sanitized (a bidi override in a
// value shows escaped) and clipped, however long the service made them.
func TestProofReportShowsPivotEnvAndDNS(t *testing.T) {
	long := strings.Repeat("x", 10*proof.MaxShownConfig)
	rep := proof.VerifyBootProof(v2BootProof(`{"API":"https://evil.example\u202e","PAD":"`+long+`"}`, `{"resolver":"10.0.0.53"}`), proof.Options{})
	if rep.Manifest == nil {
		t.Fatalf("the v2 manifest did not decode: %+v", rep.Checks)
	}
	sanitizeReport(rep)
	var b strings.Builder
	writeManifest(&b, rep.Manifest)
	out := b.String()
	wantOnlyEscaped(t, "the manifest", out)
	env := lineOf(t, out, "  env:")
	if !strings.Contains(env, `"API":"https://evil.example\u202e"`) {
		t.Errorf("env line does not show the API value, escaped: %q", env)
	}
	if len(env) > 2*proof.MaxShownConfig || !strings.HasSuffix(env, "…") {
		t.Errorf("env line is not clipped (%d bytes): %q", len(env), env)
	}
	if dns := lineOf(t, out, "  dns:"); !strings.Contains(dns, `"resolver":"10.0.0.53"`) {
		t.Errorf("dns line %q", dns)
	}
}
