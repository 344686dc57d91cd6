package screens

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A vote whose reply is a gateway's 503 although the service recorded it is
// reported as counted, from the activity read again; a vote that never reached
// the service is reported as not counted, with the key to vote again.
func TestEndToEndVoteWithFailedReplyIsSettledByLooking(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice := d.Client("alice")
	propose := func(name string) *api.Activity {
		t.Helper()
		act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: []string{d.Info.Members[0].UserID}})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("propose %s: %+v %v", name, act, err)
		}
		return act
	}
	selectActivity := func(h *harness, id string) {
		t.Helper()
		for range len(h.activities().items) {
			if h.activities().selected().ID == id {
				return
			}
			h.key("down")
		}
		t.Fatalf("activity %s is not listed:\n%s", id, h.frame())
	}

	t.Run("recorded", func(t *testing.T) {
		act := propose("gateway-recorded")
		g := d.Gateway()
		g.FailSubmits.Store(true)
		bob := d.ClientAt(g.URL, "bob")
		h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
		selectActivity(h, act.ID)
		h.key("a")
		h.key("y")
		if !h.toasted("approved CREATE_USER_TAG: now COMPLETED (the reply failed, but the activity shows your vote)") {
			t.Errorf("the console does not say the vote counted:\n%s", h.frame())
		}
		if st := h.activities().Status(); st.Err != "" {
			t.Errorf("status error %q after a vote that counted", st.Err)
		}
		if got, _ := alice.GetActivity(ctx, act.ID); got == nil || got.Status != api.StatusCompleted {
			t.Fatalf("bob's vote did not count: %+v", got)
		}
	})

	t.Run("reply slower than the timeout", func(t *testing.T) {
		act := propose("gateway-slow")
		g := d.Gateway()
		g.SlowSubmits.Store(int64(time.Second))
		bob := d.ClientAt(g.URL, "bob")
		h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
		h.root.common.Timeout = 300 * time.Millisecond
		selectActivity(h, act.ID)
		h.key("a")
		h.key("y")
		if !h.toasted("now COMPLETED (the reply failed, but the activity shows your vote)") {
			t.Errorf("a vote that counted is not said to have counted:\n%s", h.frame())
		}
	})

	t.Run("not recorded", func(t *testing.T) {
		act := propose("gateway-lost")
		down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway) // the gateway never reached the service
		}))
		defer down.Close()
		h := newHarnessWith(t, d.Client("bob"), d.ClientAt(down.URL, "bob"), theme.Options{Dark: true, NoColor: true}, 0)
		selectActivity(h, act.ID)
		h.key("a")
		h.key("y")
		if !h.toasted("no clear reply: the activity does not show your vote yet: it may still arrive") || !h.toasted("press a or x to vote again") {
			t.Errorf("the console does not say the vote is missing:\n%s", h.frame())
		}
		if got, _ := alice.GetActivity(ctx, act.ID); got == nil || len(got.Votes) != 1 {
			t.Fatalf("a vote was recorded: %+v", got)
		}
	})
}

// The vote dialog is the last thing read before signing: a policy's effect,
// condition and consensus are stated in full, a name cannot close its quotes to
// add words of its own, a look-alike letter shows escaped, and the dialog says
// what the vote would do. Against the local service.
func TestEndToEndVoteDialogStatesTheWholeIntent(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	spoof := `No one may delete the treasury" (DENY)` + strings.Repeat(" ", 60) + "[deploym\u0435nts]"
	act, err := d.Client("carol").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: spoof, Effect: api.EffectAllow, Condition: "true"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	alice := d.Client("alice")
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 60})
	for range len(h.activities().items) {
		if h.activities().selected().ID == act.ID {
			break
		}
		h.key("down")
	}
	h.key("a")
	out := h.frame()
	for _, want := range []string{
		"effect:      ALLOW",
		`"No one may delete the treasury\" (DENY)`,
		`[deploym\u0435nts]"`,
		"condition:   true",
		"consensus:   (none: applies without any approval)",
		`votes:       "carol" approved (root quorum 1/2)`,
		"if you approve: it is allowed and runs now",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, out)
		}
	}
	h.key("n")
	h.key("x")
	if out := h.frame(); !strings.Contains(out, "if you reject: it stays pending") {
		t.Errorf("the reject dialog does not say what the rejection does:\n%s", out)
	}
}

// A policy that completes by the console's own vote shows on the Policies
// screen without r, and the organization the vote dialog reasons with is
// reloaded. Against the local service.
func TestEndToEndPoliciesFollowACompletedPolicy(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := d.Client("carol").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "followed after approval", Effect: api.EffectDeny, Condition: "false"})
	if err != nil {
		t.Fatal(err)
	}
	alice := d.Client("alice")
	h := memberConsole(t, alice)
	h.gotoScreen("Policies")
	if strings.Contains(h.frame(), "followed after approval") {
		t.Fatal("the policy is listed before it is approved")
	}
	h.gotoScreen("Activities")
	for range len(h.activities().items) {
		if h.activities().selected().ID == act.ID {
			break
		}
		h.key("down")
	}
	h.key("a")
	h.key("y")
	if !h.toasted("now COMPLETED") {
		t.Fatalf("alice's approval did not complete it:\n%s", h.frame())
	}
	h.gotoScreen("Policies")
	if out := h.frame(); !strings.Contains(out, "followed after approval") {
		t.Errorf("the Policies screen still lists the old set:\n%s", out)
	}
	if _, ok := h.root.common.Org.Eval.policies[policyIDNamed(t, alice, "followed after approval")]; !ok {
		t.Error("the organization the vote dialog reasons with was not reloaded")
	}
}

func policyIDNamed(t *testing.T, c *api.Client, name string) string {
	t.Helper()
	ps, err := c.ListPolicies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.PolicyName == name {
			return p.PolicyID
		}
	}
	t.Fatalf("no policy %q", name)
	return ""
}

// Completions announced together reload the organization (and the screens)
// once, and once more for those that came while that reload ran, not once
// each.
func TestCompletionsReloadTheOrganizationOnceAtATime(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	// reload answers a completion with the reply of the load it started.
	reload := func() tea.Msg {
		t.Helper()
		_, cmd := h.root.Update(orgChangedMsg{})
		for _, m := range collect(cmd) {
			if loaded, ok := m.(orgLoadedMsg); ok {
				return loaded
			}
		}
		t.Fatal("a completion did not reload the organization")
		return nil
	}
	first := reload()
	for range 3 {
		if _, cmd := h.root.Update(orgChangedMsg{}); cmd != nil {
			t.Fatal("a completion during a reload started another")
		}
	}
	_, cmd := h.root.Update(first)
	again := 0
	for _, m := range collect(cmd) {
		if _, ok := m.(orgChangedMsg); ok {
			again++
		}
	}
	if again != 1 {
		t.Errorf("%d reloads after the first, want 1 for the completions that came meanwhile", again)
	}
	_, cmd = h.root.Update(reload())
	for _, m := range collect(cmd) {
		if _, ok := m.(orgChangedMsg); ok {
			t.Error("a reload with nothing new since started another")
		}
	}
}
