package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The vote dialog's "if you approve" runs the policies as the service does,
// time expression included: a policy that allows the activity only at other
// times does not make the dialog promise that it runs.
func TestVoteConsequenceHonoursAPolicysTime(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	users := []api.User{{UserID: "u-root1", UserName: "root1"}, {UserID: "u-root2", UserName: "root2"}, {UserID: "u-op", UserName: "op"}}
	quorum := api.Quorum{Threshold: 2, UserIDs: []string{"u-root1", "u-root2"}}
	act := pendingActivity("act-tag", "op", time.Minute,
		api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "ops", UserIDs: []string{"u-op"}}}, api.TypeCreateUserTag)
	predict := func(timeExpr string) string {
		c := &Common{Now: func() time.Time { return now }}
		c.Org.UserID = "u-root1"
		c.Org.Eval = newEvaluationContext(nil, users, api.OrganizationConfigs{Quorum: quorum}, []api.Policy{{PolicyID: "p1", PolicyName: "tags by anyone",
			Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Time: timeExpr}})
		return voteConsequence(c, &act, true)
	}
	always := predict("")
	if !strings.Contains(always, "allowed") {
		t.Fatalf("without a time the policy allows the tag, yet the dialog says: %s", always)
	}
	if got := predict("time.now < Timestamp('2026-03-02T09:00:00Z')"); strings.Contains(got, "allowed") {
		t.Errorf("a policy active only before 09:00 is taken as active at 12:00: %s", got)
	}
	if got := predict("time.now >= Timestamp('2026-03-02T09:00:00Z')"); got != always {
		t.Errorf("a policy active since 09:00 reads differently at 12:00: %q, want %q", got, always)
	}
}

// A policy with a time expression shows it in the Policies screen's detail,
// and the vote dialog of a create_policy with one states it. Against the
// local service.
func TestEndToEndPolicyTimeIsShown(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	timeExpr := "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')"
	act, err := d.Client("carol").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "office hours sessions", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", Time: timeExpr})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	alice := d.Client("alice")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 60})
	h.selectActivityID(act.ID)
	if flat := approveDialogText(t, h); !strings.Contains(flat, "time: "+timeExpr) {
		t.Errorf("the vote dialog lacks the time:\n%s", h.frame())
	}
	h.key("y")
	if a, err := alice.GetActivity(ctx, act.ID); err != nil || a.Status != api.StatusCompleted {
		t.Fatalf("the policy was not created: %v %+v", err, a)
	}

	p := h.toPolicies()
	h.key("r")
	for range 20 {
		if pol := p.selectedPolicy(); pol != nil && pol.PolicyName == "office hours sessions" {
			break
		}
		h.key("down")
	}
	h.key("enter")
	out := h.plainFrame()
	for _, want := range []string{"Time (when the policy is active)", timeExpr} {
		if !strings.Contains(out, want) {
			t.Errorf("the policy's detail lacks %q:\n%s", want, out)
		}
	}
}
