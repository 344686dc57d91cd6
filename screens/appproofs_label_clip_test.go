package screens

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The app an enclave runs, as an activity's app proofs name it when the
// profile does not list it, is the service's label alone: a long one is
// clipped as the Boot proofs report clips it, never wrapped whole into the
// activity detail a member reads before voting.
func TestAppProofsUnlistedEnclaveAppLabelIsClipped(t *testing.T) {
	d := servertest.StartDemo(t)
	tag := userTag(t, d, "long-enclave-label")
	hostile := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetBootProof {
			return reply
		}
		var r map[string]map[string]any
		if err := json.Unmarshal(reply, &r); err != nil || r["bootProof"] == nil {
			return reply
		}
		r["bootProof"]["enclaveApp"] = strings.Repeat("Lxxxxxx ", 32<<10)
		out, err := json.Marshal(r)
		if err != nil {
			return reply
		}
		return out
	})
	h := demoHarnessVia(t, d.ClientAt(hostile, "alice"), ProofSettings{Apps: d.Info.EnclaveApps, Roots: demoRoots(t, d)})
	h.key("v")
	if a := h.activities(); len(a.items) == 0 || a.items[0].ID != tag.ID {
		t.Fatalf("the tag activity is not first")
	}
	h.key("enter")
	out := appProofsSection(t, h)
	if !strings.Contains(out, "CANNOT VERIFY") || !strings.Contains(out, `runs app "Lxxxxxx Lxxxxxx`) || !strings.Contains(out, "which this profile does not name") {
		t.Fatalf("the unlisted app is not named:\n%.3000s", out)
	}
	if n := strings.Count(out, "Lxxxxxx"); n > 40 {
		t.Errorf("the service's label is shown whole (%d of its words) in the app proofs:\n%.3000s", n, out)
	}
}
