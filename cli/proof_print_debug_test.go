package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/proof"
)

// A manifest's pivot debug_mode is QOS's output piping, not Nitro debug mode:
// the report says which, so an "ON" beside a VERIFIED verdict is not read as
// an enclave whose memory the host can read.
func TestManifestPivotDebugModeSaysWhatItMeans(t *testing.T) {
	var b strings.Builder
	writeManifest(&b, &proof.Manifest{Version: "v1", Pivot: proof.Pivot{DebugMode: true}})
	l := lineOf(t, b.String(), "  debug mode:")
	if !strings.Contains(l, "output is piped out of the enclave") || !strings.Contains(l, "not Nitro debug mode") {
		t.Errorf("debug mode line: %q", l)
	}
	b.Reset()
	writeManifest(&b, &proof.Manifest{Version: "v1"})
	if strings.Contains(b.String(), "debug mode") {
		t.Errorf("debug mode shown when off:\n%s", b.String())
	}
}
