package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// featureWithAppProofs sets the webhook feature to value with app proofs
// requested (alice submits, bob approves: the root quorum is 2 of 3) and
// returns the completed activity.
func featureWithAppProofs(t *testing.T, e *verbEnv, value string) *api.Activity {
	t.Helper()
	ctx := context.Background()
	act, err := e.client("alice").SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: value}, api.WithAppProofs())
	if err == nil && act.Status != api.StatusCompleted {
		act, err = e.client("bob").ApproveActivity(ctx, act.Fingerprint)
	}
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("set feature %q: %v %+v", value, err, act)
	}
	return act
}

// A genuine app proof of a result holding a character the sanitizer escapes (a
// zero-width joiner in a webhook URL) is about its activity: the binding
// hashes the result as the enclave signed it, not the escaped copy shown.
func TestActivityProofsBindTheExactResult(t *testing.T) {
	e := newVerbEnv(t)
	act := featureWithAppProofs(t, e, "https://hooks.example.com/a\u200db")
	code, out, errOut := e.run("", "activity", "proofs", act.ID)
	wantExit(t, "activity proofs of its own genuine app proof", code, 0, out, errOut)
	if strings.Contains(out, "✗") || !strings.Contains(out, "✓ the payload names this activity") {
		t.Errorf("the activity's own genuine app proof:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	wantOnlyEscaped(t, "activity proofs", out+errOut)
}

// With exact strings read for the binding, everything `activity proofs`
// prints from a proof is still escaped at output: a service whose app proof
// fields carry controls and bidi characters gets none of them onto the
// terminal.
func TestActivityProofsEscapeEveryProofField(t *testing.T) {
	e := newVerbEnv(t)
	act := featureWithAppProofs(t, e, "https://hooks.example.com/plain")
	const hostile = "\x1b]0;owned\x07\u202e\u200b\r"
	h := e.via(func(op string, _, reply []byte) []byte {
		if op != "query/"+api.QueryListAppProofs {
			return reply
		}
		var r struct {
			AppProofs []api.AppProof `json:"appProofs"`
		}
		if err := json.Unmarshal(reply, &r); err != nil || len(r.AppProofs) == 0 {
			t.Errorf("list_app_proofs reply %s: %v", reply, err)
			return reply
		}
		// #1: raw controls in every field, the payload then no JSON; #2: a
		// payload whose activity id decodes to controls, quoted in the reason.
		naming := r.AppProofs[0]
		id, _ := json.Marshal(hostile + act.ID)
		naming.ProofPayload = strings.Replace(naming.ProofPayload, `"activityId":"`+act.ID+`"`, `"activityId":`+string(id), 1)
		p := &r.AppProofs[0]
		p.Scheme += hostile
		p.PublicKey += hostile
		p.Signature += hostile
		p.ProofPayload = strings.Replace(p.ProofPayload, `"activityId":"`, `"activityId":"`+hostile, 1)
		r.AppProofs = append(r.AppProofs, naming)
		b, _ := json.Marshal(r)
		return b
	})
	code, out, errOut := h.run("", "activity", "proofs", act.ID)
	wantExit(t, "activity proofs of hostile proofs", code, 1, out, errOut)
	wantOnlyEscaped(t, "activity proofs", out+errOut)
	for _, field := range []string{"scheme:", "public key:", "payload:", "signature:"} {
		if l := lineOf(t, out, field); !strings.Contains(l, api.Sanitize("\x1b")) {
			t.Errorf("%s line does not show the escaped control: %q", field, l)
		}
	}
	if !strings.Contains(out, "✗ this proof is for activity "+api.Sanitize(hostile+act.ID)) {
		t.Errorf("the second proof's reason does not name its activity id escaped:\n%s", out)
	}
}
