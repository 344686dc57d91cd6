package proof

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// A signed document dated after the year 9999 is refused where it is parsed,
// naming the timestamp, and the report of it still encodes as JSON (Go's
// time.Time.MarshalJSON refuses such years).
func TestDocumentTimestampAfterYear9999IsRefused(t *testing.T) {
	auth, enc, now := testCAEnclave(t)
	year10000 := uint64(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	bp := enc.BootProof
	bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) {
		r.Timestamp = year10000
	})
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
	if rep.Verdict != Failed {
		t.Fatalf("a document dated in the year 10000: %s", dump(rep))
	}
	if c := rep.Check(CheckCOSE); c.Status != Fail || !strings.Contains(c.Reason, "timestamp") {
		t.Errorf("the refusal does not name the timestamp: %s %q", c.Status, c.Reason)
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("the report cannot be written as JSON: %v", err)
	}
}
