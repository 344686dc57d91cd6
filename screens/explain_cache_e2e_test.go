package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The open activity's evaluations are explained once per version of the
// activity, not at every render: explaining re-runs the policies, and the
// detail is drawn again at every fetch, tick and keystroke. A vote (a new
// version) explains them again. Against the local service.
func TestEndToEndExplanationsAreNotRecomputedOnRender(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := d.Client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "explained-once", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	bob := d.Client("bob")
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("enter")
	detail := h.activities().detail
	if out := h.detailText(); !strings.Contains(out, "Policy evaluations (1)") {
		t.Fatalf("the detail should show the requester's evaluation:\n%s", out)
	}
	calls := 0
	detail.explained.explain = func(ec evaluationContext, a api.Activity, e api.PolicyEvaluation) explained {
		calls++
		return explainEvaluation(ec, a, e)
	}
	before := h.detailText()
	c := h.root.common
	detail.render(c)
	detail.render(c)
	if calls != 0 {
		t.Errorf("rendering the same activity twice explained its evaluation %d times, want 0 (remembered)", calls)
	}
	if after := h.detailText(); withoutAges(after) != withoutAges(before) {
		t.Errorf("the remembered explanation renders differently:\n%s\nthen\n%s", before, after)
	}

	h.key("a")
	h.key("y")
	if !h.toasted("approved CREATE_USER_TAG: now COMPLETED") {
		t.Fatalf("the vote did not complete the activity:\n%s", h.frame())
	}
	if out := h.detailText(); !strings.Contains(out, `ALLOW  allowed by root quorum ("alice", "bob")`) {
		t.Errorf("after the vote the detail lacks its evaluation:\n%s", out)
	}
	if calls == 0 {
		t.Error("the vote changed the activity, and its evaluations were not explained again")
	}
	n := calls
	detail.render(c)
	if calls != n {
		t.Errorf("a render after the vote explained %d more times, want 0", calls-n)
	}
}
