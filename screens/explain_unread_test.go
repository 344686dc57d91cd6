package screens

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// An evaluation of an activity whose intent's params the console cannot read
// (here the service's own activity with a member added to its intent, as a
// newer service or a proxy would send it) is not explained from empty
// params: the explanation says the console cannot tell, and shows the
// outcomes the service stored.
func TestExplanationOfAnIntentItCannotReadSaysItCannotTell(t *testing.T) {
	demo := servertest.StartDemo(t)
	c := demo.Client("alice")
	ctx := context.Background()
	acts, ec := demoEvaluations(t, c)
	checked := 0
	for _, a := range acts {
		evs, err := c.GetPolicyEvaluations(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 || a.Intent.ParamsUnread() {
			continue
		}
		// The same intent with one member more in its operation.
		sent, err := json.Marshal(a.Intent)
		if err != nil {
			t.Fatal(err)
		}
		key := a.Intent.Keys()[0]
		var members map[string]map[string]json.RawMessage
		if err := json.Unmarshal(sent, &members); err != nil {
			t.Fatal(err)
		}
		members[key]["addedByANewerService"] = json.RawMessage(`true`)
		widened, err := json.Marshal(members)
		if err != nil {
			t.Fatal(err)
		}
		unread := a
		if err := json.Unmarshal(widened, &unread.Intent); err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			ex := explainEvaluation(ec, unread, e)
			// A rejection's outcome needs no params: it ended the activity,
			// or left it waiting (and the why still says it cannot tell).
			decided := ex.Outcome == "" || ex.Outcome == api.OutcomeRejected ||
				ex.Outcome == api.OutcomeRequiresConsensus && strings.Contains(ex.Why, "rejection left the activity pending")
			if !ex.Differs || !decided || !strings.Contains(ex.Why, "cannot tell: vigil cannot read this intent's parameters") && ex.Outcome != api.OutcomeRejected {
				t.Errorf("%s (%s): explained on params it cannot read: outcome %q, why %q", a.ID, a.Type, ex.Outcome, ex.Why)
			}
			var stored int
			for _, o := range e.PolicyEvaluations {
				if o.PolicyID != "" {
					stored++
				}
			}
			if len(ex.Policies) != stored {
				t.Errorf("%s: %d policy lines, the service stored %d outcomes", a.ID, len(ex.Policies), stored)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("the demo has no evaluation to check")
	}
}
