package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The boot proof's createdAt is the service's unattested metadata. A year
// JSON cannot hold (after 9999, before 0) must not cost the JSON report of
// the genuine document it comes with: the report is written, without that
// createdAt, and Go's "year outside of range" never reaches the user.
func TestProofJSONWithCreatedAtOutsideJSONYears(t *testing.T) {
	b, err := os.ReadFile(proofFixtures + "turnkey_boot_proof_1.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, secs := range []string{"253402300800", "-62167219201"} { // the year 10000; a second before the year 0
		hostile := strings.Replace(string(b), `"1758057949"`, `"`+secs+`"`, 1)
		path := filepath.Join(t.TempDir(), "boot.json")
		if err := os.WriteFile(path, []byte(hostile), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runProof(t, "", "verify", "--json", "--boot-proof", path)
		var rep struct {
			Verdict   string         `json:"verdict"`
			BootProof map[string]any `json:"bootProof"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Verdict == "" {
			t.Errorf("createdAt %s: exit %d, no JSON report (%v); stderr %q", secs, code, err, errOut)
			continue
		}
		if _, ok := rep.BootProof["createdAt"]; ok {
			t.Errorf("createdAt %s: written as %v", secs, rep.BootProof["createdAt"])
		}
		if strings.Contains(errOut, "MarshalJSON") {
			t.Errorf("createdAt %s: Go's raw error reached the user: %q", secs, errOut)
		}
	}
}
