package screens

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// A v2 manifest's pivot env and dns are approved with it, so the Boot proofs
// detail shows them beside the rest of the pivot: sanitized and clipped.
func TestBootProofDetailShowsPivotEnvAndDNS(t *testing.T) {
	long := strings.Repeat("x", 10*proof.MaxShownConfig)
	m := `{"version":"v2","namespace":{"name":"evil/signer","nonce":1,"quorumKey":"01"},"pivot":{"hash":"` + strings.Repeat("09", 32) +
		`","restart":"Always","bridgeConfig":[],"debugMode":false,"args":[],"env":{"API":"https://evil.example\u202e","PAD":"` + long + `"}},` +
		`"manifestSet":{"threshold":1,"members":[]},"shareSet":{"threshold":1,"members":[]},` +
		`"enclave":{"pcr0":"00","pcr1":"01","pcr2":"02","pcr3":"03","awsRootCertificate":"","qosCommit":"c"},"dns":{"resolver":"10.0.0.53"}}`
	e := `{"manifest":` + m + `,"manifestSetApprovals":[],"shareSetApprovals":[]}`
	b64 := base64.StdEncoding.EncodeToString
	rep := proof.VerifyBootProof(api.BootProof{EnclaveApp: "signer", AwsAttestationDocB64: "AAAA", QosManifestVersion: "v2",
		QosManifestB64: b64([]byte(m)), QosManifestEnvelopeB64: b64([]byte(e))}, proof.Options{})
	if rep.Manifest == nil {
		t.Fatalf("the v2 manifest did not decode: %+v", rep.Checks)
	}
	th := theme.New(theme.Options{})
	w := &reportWriter{db: ui.NewDetailBuilder(th), th: th}
	w.manifest(rep.Manifest)
	out := ansi.Strip(w.db.String())
	var env, dns string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "env:"):
			env = l
		case strings.HasPrefix(l, "dns:"):
			dns = l
		}
	}
	if !strings.Contains(env, `"API":"https://evil.example\u202e"`) || strings.ContainsRune(out, '\u202e') {
		t.Errorf("env not shown, or not escaped: %q", env)
	}
	if len(env) > 2*proof.MaxShownConfig || !strings.HasSuffix(env, "…") {
		t.Errorf("env line is not clipped (%d bytes): %q", len(env), env)
	}
	if !strings.Contains(dns, `"resolver":"10.0.0.53"`) {
		t.Errorf("dns line %q in:\n%s", dns, out)
	}
}
