package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The policy the MFA status expects to apply to a vote not yet cast is the
// one the service applies once it is cast. An MFA condition sees the
// activity alone: the service refuses one that reads users or their tags
// (no members' tags are needed to read the others), so the console's
// expectation, worked out without them, is the service's decision.
func TestEndToEndMfaExpectedPolicyIsTheServicesDecision(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice := d.Client("alice")
	me, err := alice.Whoami(ctx)
	if err != nil {
		t.Fatal(err)
	}
	steps := []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}
	for _, cond := range []string{"user.tags.contains('ops')", "approvers.any(u, u.tags.contains('ops'))"} {
		_, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: me.UserID, MfaPolicyName: "by tag",
			Condition: cond, RequiredAuthenticationMethods: steps})
		if err == nil || !strings.Contains(err.Error(), "INVALID_POLICY") {
			t.Errorf("the service took the MFA condition %q over users' tags (%v): the console must then read tags too", cond, err)
		}
	}

	h := demoHarness(t, d, nil)
	h.gotoScreen("MFA policies")
	m := h.mfa()
	compared := 0
	for _, s := range m.statuses {
		if s.voted || s.unread {
			continue
		}
		want := "none"
		if s.expected != nil {
			want = s.expected.MfaPolicyID
		}
		if _, err := alice.ApproveActivity(ctx, s.activity.Fingerprint); err != nil {
			continue // a vote refused tells nothing of MFA
		}
		st, err := alice.GetMfaStatus(ctx, s.activity.ID, me.UserID)
		if err != nil {
			t.Fatal(err)
		}
		got := "none"
		if len(st) > 0 {
			got = st[0].MfaPolicyID
		}
		if got != want {
			t.Errorf("for activity %s the console expected MFA policy %s, the service applies %s", s.activity.ID, want, got)
		}
		compared++
	}
	if compared == 0 {
		t.Fatalf("no pending activity alice had not voted on: nothing compared\n%s", h.frame())
	}
}
