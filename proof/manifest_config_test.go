package proof

import (
	"strings"
	"testing"
)

// v2Manifest is a v2 manifest whose pivot has env and which has dns (each
// left out when "").
func v2Manifest(env, dns string) string {
	pivot := `"hash":"` + strings.Repeat("09", 32) + `","restart":"Always","bridgeConfig":[],"debugMode":false,"args":[]`
	if env != "" {
		pivot += `,"env":` + env
	}
	m := `{"version":"v2","namespace":{"name":"evil/signer","nonce":1,"quorumKey":"01"},"pivot":{` + pivot + `},` +
		`"manifestSet":{"threshold":1,"members":[]},"shareSet":{"threshold":1,"members":[]},` +
		`"enclave":{"pcr0":"00","pcr1":"01","pcr2":"02","pcr3":"03","awsRootCertificate":"","qosCommit":"c"}`
	if dns != "" {
		m += `,"dns":` + dns
	}
	return m + "}"
}

// A v2 manifest's pivot.env and dns are approved with it (hashed), so the
// report carries them for displays; absent or null, they are not shown.
func TestV2ManifestEnvAndDNSAreReported(t *testing.T) {
	m, err := decodeManifest([]byte(v2Manifest(`{"RUST_LOG":"debug","API":"https://evil.example"}`, `{"resolver":"10.0.0.53"}`)), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"RUST_LOG":"debug"`, `"API":"https://evil.example"`} {
		if !strings.Contains(m.Pivot.Env, want) {
			t.Errorf("pivot env %q lacks %s", m.Pivot.Env, want)
		}
	}
	if !strings.Contains(m.DNS, `"resolver":"10.0.0.53"`) {
		t.Errorf("dns %q lacks the resolver", m.DNS)
	}
	for _, v := range []string{"", "null"} {
		m, err := decodeManifest([]byte(v2Manifest(v, v)), true)
		if err != nil {
			t.Fatalf("env and dns %q: %v", v, err)
		}
		if m.Pivot.Env != "" || m.DNS != "" {
			t.Errorf("env and dns %q: reported as %q and %q", v, m.Pivot.Env, m.DNS)
		}
	}
}
