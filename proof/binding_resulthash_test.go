package proof

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// An enclave-signed payload that names the activity but carries no
// resultHash binds nothing of the result shown beside it: the service could
// show any result. It fails, as a missing type or fingerprint does, and the
// reason says what is missing.
func TestPayloadWithoutResultHashIsNotBoundToTheResult(t *testing.T) {
	now := time.Now()
	auth, enc := demoSigner(t, now)
	act := api.Activity{ID: "act-1", OrganizationID: "org-1", Type: api.TypeCreateUserTag, Fingerprint: "sha256:aa",
		Result: api.Result{CreateUserTagResult: &api.CreateUserTagResult{UserTagID: "a-tag-the-enclave-never-made"}}}
	for _, hash := range []any{nil, "", 7} {
		fields := map[string]any{"activityId": act.ID, "type": act.Type, "fingerprint": act.Fingerprint, "timestampMs": "1"}
		if hash != nil {
			fields["resultHash"] = hash
		}
		payload, _ := json.Marshal(fields)
		p, err := enc.SignAppProof(payload)
		if err != nil {
			t.Fatal(err)
		}
		rep := VerifyBootProof(enc.BootProof, Options{Roots: []Root{auth.Root()}, AppProofs: []api.AppProof{p}, Activity: SubjectOf(act)})
		c := rep.Check(BindingCheckID(0))
		if c.Status != Fail || rep.Verdict != Failed || !strings.Contains(c.Reason, "the payload has no resultHash, so the result shown is not bound") {
			t.Errorf("resultHash %v: binding %s (%s), verdict %s", hash, c.Status, c.Reason, rep.Verdict)
		}
	}
}
