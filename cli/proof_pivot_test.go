package cli

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
)

// v2PivotProof is a boot proof (its document a stub that does not decode)
// whose JSON v2 manifest's pivot has n bridges, each holding host, and
// args.
func v2PivotProof(n int, host string, args []string) (api.BootProof, int) {
	bc := strings.TrimSuffix(strings.Repeat(`{"type":"client","port":1,"host":"`+host+`"},`, n), ",")
	as := ""
	if len(args) > 0 {
		as = `"` + strings.Join(args, `","`) + `"`
	}
	m := `{"version":"v2","namespace":{"name":"evil/signer","nonce":1,"quorumKey":"01"},"pivot":{"hash":"` + strings.Repeat("09", 32) +
		`","restart":"Always","bridgeConfig":[` + bc + `],"debugMode":false,"args":[` + as + `]},` +
		`"manifestSet":{"threshold":1,"members":[]},"shareSet":{"threshold":1,"members":[]},` +
		`"enclave":{"pcr0":"00","pcr1":"01","pcr2":"02","pcr3":"03","awsRootCertificate":"","qosCommit":"c"}}`
	return api.BootProof{EnclaveApp: "signer", AwsAttestationDocB64: "AAAA", QosManifestVersion: "v2",
		QosManifestB64: base64.StdEncoding.EncodeToString([]byte(m))}, len(m)
}

// A v2 manifest with as many bridges and args as it may hold, each as long
// as the 1 MiB manifest allows, prints a short manifest section: each bridge
// clipped, the args line bounded and saying how many were left out.
func TestProofReportBoundsPivotBridgesAndArgs(t *testing.T) {
	host := strings.Repeat("h", 8000)
	arg := strings.Repeat("a", 2000)
	decodes := func(n int, args []string) bool {
		bp, size := v2PivotProof(n, host, args)
		return size <= 1<<20 && proof.VerifyBootProof(bp, proof.Options{}).Manifest != nil
	}
	bridges := 0
	for decodes(bridges+1, nil) {
		bridges++
	}
	var args []string
	for n := 1; decodes(bridges, repeatArg(n, arg)); n *= 2 {
		args = repeatArg(n, arg)
	}
	bp, size := v2PivotProof(bridges, host, args)
	rep := proof.VerifyBootProof(bp, proof.Options{})
	if rep.Manifest == nil || bridges == 0 || len(args) == 0 {
		t.Fatalf("no pivot at the limits decodes: %d bridges, %d args", bridges, len(args))
	}
	sanitizeReport(rep)
	var b strings.Builder
	writeManifest(&b, rep.Manifest)
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "  bridge:") && (len(l) > 2*proof.MaxShownConfig || !strings.HasSuffix(l, "…")) {
			t.Errorf("a %d-byte bridge is not clipped: %d bytes", len(host), len(l))
		}
	}
	argsLine := lineOf(t, out, "  args:")
	if len(argsLine) > proof.MaxShownArgs+proof.MaxShownConfig+100 || !strings.Contains(argsLine, "more (--json shows them all)") {
		t.Errorf("the args line of %d args is %d bytes, or does not say some were left out: %.200q", len(args), len(argsLine), argsLine)
	}
	if most := bridges*(proof.MaxShownConfig+64) + 2*proof.MaxShownArgs + 4<<10; len(out) > most {
		t.Errorf("a %d-byte manifest prints %d bytes, want at most %d", size, len(out), most)
	}
}

func repeatArg(n int, s string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
