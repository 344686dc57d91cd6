package screens

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// pivotManifest is a QOS Borsh v1 manifest whose pivot has the given bridges
// (each Client(port 1, Some(host))) and args.
func pivotManifest(hosts, args []string) []byte {
	var b []byte
	u32 := func(v uint32) { b = binary.LittleEndian.AppendUint32(b, v) }
	str := func(s string) { u32(uint32(len(s))); b = append(b, s...) }
	str("evil/signer")
	u32(1)
	u32(0)                             // quorum_key
	b = append(b, make([]byte, 32)...) // pivot.hash
	b = append(b, 0)                   // restart Never
	u32(uint32(len(hosts)))
	for _, h := range hosts {
		b = append(b, 1, 1, 0, 1) // Client, port 1, Some
		str(h)
	}
	b = append(b, 0) // debug_mode
	u32(uint32(len(args)))
	for _, a := range args {
		str(a)
	}
	for range 2 { // manifest_set, share_set: threshold 1, no members
		u32(1)
		u32(0)
	}
	for range 5 { // pcr0..3, aws_root_certificate
		u32(0)
	}
	str("") // qos_commit
	u32(0)  // patch_set threshold
	u32(0)  // patch_set members
	return b
}

// hostilePivotProof ships manifest with a document that does not decode: the
// verifier still decodes and shows the manifest.
func hostilePivotProof(t testing.TB, manifest []byte) api.BootProof {
	t.Helper()
	return api.BootProof{EnclaveApp: "signer", AwsAttestationDocB64: "AAAA",
		QosManifestB64: base64.StdEncoding.EncodeToString(manifest)}
}

func repeated(n int, s string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// A hostile service's boot proof whose manifest has 120,000 bridges (within
// the 1 MiB bound) is refused at decode, and the report
// says why instead of listing them: listed, they were rebuilt on every key,
// freezing the console for seconds.
func TestBootProofReportRefusesAHostileBridgeCount(t *testing.T) {
	bp := fixtureBootProof(t)
	bp.QosManifestB64 = base64.StdEncoding.EncodeToString(pivotManifest(repeated(120_000, ""), nil))
	rep := proof.VerifyBootProof(*bp, proof.Options{})
	c := rep.Check(proof.CheckManifestDecode)
	if c.Status != proof.Fail || !strings.Contains(c.Reason, "120000 bridges, over the limit of") {
		t.Fatalf("manifest-decode is %s %q, want a failure naming the bridge count", c.Status, c.Reason)
	}
	out := ansi.Strip(openSignerReport(bp, func() time.Time { return testNow }).Render())
	if !strings.Contains(out, "120000 bridges, over the limit of") {
		t.Errorf("the report does not say why the manifest was refused:\n%s", out)
	}
}

// maximalPivot is a v1 manifest with as many bridges and args as decode,
// each as long as the 1 MiB manifest allows.
func maximalPivot(t testing.TB) (manifest []byte, bridges, args int) {
	t.Helper()
	host, arg := strings.Repeat("h", 8000), strings.Repeat("a", 2000)
	decodes := func(m []byte) bool {
		return len(m) <= 1<<20 && proof.VerifyBootProof(hostilePivotProof(t, m), proof.Options{}).Manifest != nil
	}
	for decodes(pivotManifest(repeated(bridges+1, host), nil)) {
		bridges++
	}
	for n := 1; decodes(pivotManifest(repeated(bridges, host), repeated(n, arg))); n *= 2 {
		args = n
	}
	if bridges == 0 || args == 0 {
		t.Fatalf("no pivot at the limits decodes: %d bridges, %d args", bridges, args)
	}
	return pivotManifest(repeated(bridges, host), repeated(args, arg)), bridges, args
}

// The console's report of a boot proof whose manifest is at the limits:
// a cursor move rebuilds it (the figure is in docs/performance.md).
func BenchmarkBootProofReportMaximalPivot(b *testing.B) {
	m, _, _ := maximalPivot(b)
	bp := fixtureBootProof(b)
	bp.QosManifestB64 = base64.StdEncoding.EncodeToString(m)
	r := openSignerReport(bp, func() time.Time { return testNow })
	for i := 0; b.Loop(); i++ {
		r.Update(keyPress([]string{"down", "up"}[i%2]))
		_ = r.Render()
	}
}

// A manifest at the limits, with its bridges' hosts and args as long as the
// 1 MiB manifest allows, renders as a short report: each bridge and arg is
// clipped and the args line is bounded, as env and dns are.
func TestBootProofReportOfAMaximalPivotIsBounded(t *testing.T) {
	m, bridges, args := maximalPivot(t)
	rep := proof.VerifyBootProof(hostilePivotProof(t, m), proof.Options{})
	th := theme.New(theme.Options{})
	w := &reportWriter{db: ui.NewDetailBuilder(th), th: th}
	w.manifest(rep.Manifest)
	out := ansi.Strip(w.db.String())
	// Each bridge clipped to MaxShownConfig, the args line to about
	// MaxShownArgs, and a few dozen other lines: far below the manifest's size.
	most := bridges*(proof.MaxShownConfig+64) + 2*proof.MaxShownArgs + 8<<10
	if len(out) > most || strings.Count(out, "\n") > bridges+100 {
		t.Errorf("a %d-byte manifest of %d bridges and %d args renders %d bytes in %d lines, want at most %d bytes",
			len(m), bridges, args, len(out), strings.Count(out, "\n"), most)
	}
	if !strings.Contains(out, "more") {
		t.Errorf("the args line does not say some were left out:\n%s", out)
	}
}
