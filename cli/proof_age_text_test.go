package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/proof"
)

// A document dated after this machine's clock reads "in the future by 1h0m0s",
// not "in the future by 1h0m0s ago"; a past one still reads "… ago".
func TestProofReportAttestedAtPhrase(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for age, want := range map[time.Duration]string{
		-time.Hour:     "(in the future by 1h0m0s)",
		time.Hour:      "(1h0m0s ago)",
		72 * time.Hour: "(3d ago)",
	} {
		var b strings.Builder
		writeReport(&b, &proof.Report{Verdict: proof.Verified, DocumentTime: at, Age: age}, nil)
		line := "Attested at " + at.Format(time.RFC3339Nano) + " " + want + "\n"
		if !strings.Contains(b.String(), line) {
			t.Errorf("age %s: report has no line %q:\n%s", age, line, b.String())
		}
	}
}
