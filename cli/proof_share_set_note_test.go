package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// The share-set approvals are counted, never checked: `proof verify` says so
// on the line that shows the count, right under the verified manifest-set
// approvals, and --json carries the note beside the count.
func TestProofVerifySaysShareSetApprovalsAreNotChecked(t *testing.T) {
	args := []string{"verify", "--boot-proof", proofFixtures + "turnkey_boot_proof_1.json"}
	code, out, errOut := runProof(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if l := lineOf(t, out, "  share-set approvals:"); !strings.Contains(l, "not checked") {
		t.Errorf("share-set approvals line %q does not say they are not checked", l)
	}
	code, out, errOut = runProof(t, "", append([]string{"verify", "--json"}, args[1:]...)...)
	if code != 0 {
		t.Fatalf("--json: exit %d\n%s\n%s", code, out, errOut)
	}
	var rep struct {
		Manifest map[string]any
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if _, ok := rep.Manifest["shareSetApprovals"]; !ok {
		t.Fatalf("--json manifest has no shareSetApprovals: %v", rep.Manifest)
	}
	if note, _ := rep.Manifest["shareSetApprovalsNote"].(string); !strings.HasPrefix(note, "not checked") {
		t.Errorf("--json shareSetApprovalsNote is %q, want it to say the count is not checked", note)
	}
}
