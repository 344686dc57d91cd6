package screens

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

func alicePolicies() map[string][]api.MfaPolicy {
	return map[string][]api.MfaPolicy{"u-alice": {
		{MfaPolicyID: "mp-2", MfaPolicyName: "sessions", Order: 5, Condition: "true",
			RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthSession}}}}},
		{MfaPolicyID: "mp-1", MfaPolicyName: "big transfers", Order: 1, Condition: "activity.type == 'X'",
			RequiredAuthenticationMethods: []api.AuthenticationStep{
				{Any: []api.AuthenticationMethod{{Type: api.AuthEmailOTP}, {Type: api.AuthPasskey, ID: "3f9a0c11-aaaa"}}},
				{Any: []api.AuthenticationMethod{{Type: api.AuthSession}}}}},
	}}
}

func mfaHarness(t *testing.T, readOnly bool) (*harness, *fakeClient) {
	t.Helper()
	fake := &fakeClient{users: governanceUsers(), mfaPolicies: alicePolicies()}
	var sub Submitter = fake
	if readOnly {
		sub = nil
	}
	h := newHarnessWith(t, fake, sub, theme.Options{Dark: true, NoColor: true}, 0)
	h.fake = fake
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	return h, fake
}

func (h *harness) mfa() *MfaPolicies {
	for _, s := range h.root.screens {
		if m, ok := s.(*MfaPolicies); ok {
			return m
		}
	}
	h.t.Fatal("no MFA policies screen")
	return nil
}

func TestMfaPoliciesInOrderWithReadableSteps(t *testing.T) {
	h, _ := mfaHarness(t, false)
	out := h.frame()
	if !strings.Contains(out, "MFA policies of alice") {
		t.Errorf("not alice's by default:\n%s", out)
	}
	if strings.Index(out, "big transfers") > strings.Index(out, "sessions") {
		t.Errorf("policies not ordered by order:\n%s", out)
	}
	h.key("enter")
	out = h.frame()
	for _, want := range []string{"activity.type == 'X'", "step 1: any of EMAIL_OTP, PASSKEY (authenticator 3f9a0c11-aaaa)", "step 2: any of SESSION"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	h.key("esc")
	h.key("U")
	if !strings.Contains(h.frame(), "MFA policies of bob") {
		t.Errorf("U did not pick the next user:\n%s", h.frame())
	}
}

func TestMfaStatusDescribesSatisfiedAndMissingSteps(t *testing.T) {
	st := api.MfaStatus{MfaPolicyID: "mp-1", UserID: "u-alice",
		SatisfiedMethods: []api.AuthenticationMethod{{Type: api.AuthPasskey, ID: "3f9a0c11-aaaa"}},
		RequiredMethods:  alicePolicies()["u-alice"][1].RequiredAuthenticationMethods}
	got := strings.Join(describeMfaStatus(st, "alice", "big transfers", credentialsOf(nil, true)), "\n")
	for _, want := range []string{`NOT satisfied — alice: policy "big transfers"`, "✓ step 1", "✗ step 2 missing: any of SESSION"} {
		if !strings.Contains(got, want) {
			t.Errorf("status lacks %q:\n%s", want, got)
		}
	}
	st.SatisfiedMethods[0].ID = "other"
	if got := strings.Join(describeMfaStatus(st, "alice", "", credentialsOf(nil, true)), "\n"); !strings.Contains(got, "✗ step 1") {
		t.Errorf("a passkey of another authenticator satisfied a step pinned to 3f9a…:\n%s", got)
	}
}

// One credential proves one step: when the service reports a single API key
// against a policy whose two steps both accept one, the console ticks step 1
// only, so it never shows a single factor as two.
func TestMfaStatusTicksStepsByPosition(t *testing.T) {
	both := []api.AuthenticationMethod{{Type: api.AuthPasskey}, {Type: api.AuthAPIKey}}
	st := api.MfaStatus{MfaPolicyID: "mp-3", UserID: "u-carol",
		SatisfiedMethods: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: "k-carol"}},
		RequiredMethods:  []api.AuthenticationStep{{Any: both}, {Any: both}}}
	got := strings.Join(describeMfaStatus(st, "carol", "two factors", credentialsOf(nil, true)), "\n")
	for _, want := range []string{`NOT satisfied — carol: policy "two factors"`, "✓ step 1", "✗ step 2 missing"} {
		if !strings.Contains(got, want) {
			t.Errorf("status lacks %q:\n%s", want, got)
		}
	}
	// A proof of a later step does not tick it while an earlier one is missing.
	st.SatisfiedMethods = []api.AuthenticationMethod{{Type: api.AuthEmailOTP}, {Type: api.AuthAPIKey, ID: "k-carol"}}
	got = strings.Join(describeMfaStatus(st, "carol", "two factors", credentialsOf(nil, true)), "\n")
	if strings.Contains(got, "✓") {
		t.Errorf("a step is ticked after a missing one:\n%s", got)
	}
}

// Before a user votes, the service reports no MFA status for them; the screen
// says which policy would apply (the first in order whose condition holds),
// never that none applies.
func TestMfaPolicyExpectedBeforeTheVote(t *testing.T) {
	// (Which policy applies is policy.ApplicableMfaPolicy's, tested there.)
	fake := &fakeClient{users: governanceUsers(), mfaPolicies: alicePolicies(), activities: sampleActivities()}
	h := memberConsole(t, fake)
	h.gotoScreen("MFA policies")
	out := h.frame()
	if strings.Contains(out, "no MFA policy applies") || !strings.Contains(out, `not voted yet; policy "sessions" would apply`) {
		t.Errorf("the MFA status before alice votes:\n%s", out)
	}
}

// An activity whose intent's params the console cannot read (a member it
// does not know in a known operation) gets no expected MFA policy worked out
// on empty params: the screen says it cannot tell.
func TestMfaPolicyExpectedOnAnIntentItCannotReadSaysItCannotTell(t *testing.T) {
	acts := sampleActivities()[:1]
	var in api.Intent
	if err := json.Unmarshal([]byte(`{"createPolicyIntentV3":{"policyName":"allow treasury","effect":"EFFECT_ALLOW","condition":"true","consensus":"true","comment":"new"}}`), &in); err != nil {
		t.Fatal(err)
	}
	acts[0].Intent = in
	fake := &fakeClient{users: governanceUsers(), mfaPolicies: alicePolicies(), activities: acts}
	h := memberConsole(t, fake)
	h.gotoScreen("MFA policies")
	out := h.frame()
	if strings.Contains(out, "would apply, asking") || strings.Contains(out, "no MFA policy would apply") || !strings.Contains(out, "cannot tell: vigil cannot read this intent's parameters") {
		t.Errorf("the MFA status before alice votes, on an intent the console cannot read:\n%s", out)
	}
}

// Every check of the editor, each with its message, and nothing sent.
func TestMfaEditorRefusesEachInvalidPolicy(t *testing.T) {
	cases := []struct {
		name string
		do   func(h *harness)
		want string
	}{
		{"no name", func(h *harness) {}, "Name is required"},
		{"no condition", func(h *harness) {
			h.typeText("p")
			h.key("tab")
			for range 4 {
				h.key("backspace")
			}
		}, "Condition is required"},
		{"condition that does not compile", func(h *harness) {
			h.typeText("p")
			h.key("tab")
			h.typeText(" ==")
		}, "column 8"},
		{"order not a number", func(h *harness) {
			h.typeText("p")
			h.key("tab")
			h.key("tab")
			h.key("backspace")
			h.typeText("x")
		}, "order must be a whole number"},
		{"order too large", func(h *harness) {
			h.typeText("p")
			h.key("tab")
			h.key("tab")
			h.typeText("9999999")
		}, "order must be from 0 to 10000"},
		{"no steps", func(h *harness) {
			h.typeText("p")
			h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
			h.key("x")
		}, "no step yet: a policy needs at least one; a adds one"},
		{"empty step", func(h *harness) {
			h.typeText("p")
			h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
			h.key("backspace")
		}, "requiredAuthenticationMethods[0].any: is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, fake := mfaHarness(t, false)
			h.key("n")
			if h.mfa().editor == nil {
				t.Fatal("n did not open the editor")
			}
			c.do(h)
			h.send(ctrlS)
			if out := h.frame(); !strings.Contains(out, c.want) {
				t.Errorf("no %q in:\n%s", c.want, out)
			}
			if out := h.frame(); strings.Contains(out, `[{"any"`) {
				t.Errorf("the editor tells its user to write JSON:\n%s", out)
			}
			if h.root.dialogs.Len() != 0 || len(fake.mfaCreates) != 0 {
				t.Error("an invalid policy reached the confirm or the service")
			}
		})
	}
}

func TestMfaEditorBuildsStepsInOrder(t *testing.T) {
	h, fake := mfaHarness(t, false)
	h.key("n")
	h.typeText("new one")
	if out := h.frame(); !strings.Contains(out, "→ 6 new one  (new)") || strings.Index(out, "sessions") > strings.Index(out, "→ 6") {
		t.Errorf("the order is not shown in place among alice's policies:\n%s", h.frame())
	}
	h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}) // steps
	h.key("t")                                           // PASSKEY -> API_KEY
	h.key("a")                                           // step 2: PASSKEY
	h.key("m")                                           // step 2 gets a second method, PASSKEY
	h.key("i")                                           // ...pinned to alice's authenticator au-1
	h.key("a")                                           // step 3: PASSKEY
	h.key("t")
	h.key("t")
	h.key("t")                                                       // PASSKEY -> API_KEY -> OAUTH -> SESSION
	h.send(tea.KeyPressMsg{Code: 'k', Text: "K", Mod: tea.ModShift}) // SESSION moves to step 2
	h.send(ctrlS)
	if !strings.Contains(h.frame(), "step 2: any of SESSION") {
		t.Fatalf("confirm:\n%s", h.frame())
	}
	h.key("y")
	if len(fake.mfaCreates) != 1 {
		t.Fatalf("created %d policies", len(fake.mfaCreates))
	}
	p := fake.mfaCreates[0]
	want := []api.AuthenticationStep{
		{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}},
		{Any: []api.AuthenticationMethod{{Type: api.AuthSession}}},
		{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}, {Type: api.AuthPasskey, ID: "au-1"}}},
	}
	if p.UserID != "u-alice" || p.MfaPolicyName != "new one" || p.Order != 6 || p.Condition != "true" || len(p.RequiredAuthenticationMethods) != 3 {
		t.Fatalf("sent %+v", p)
	}
	for i := range want {
		if len(p.RequiredAuthenticationMethods[i].Any) != len(want[i].Any) {
			t.Fatalf("step %d: %+v, want %+v", i+1, p.RequiredAuthenticationMethods[i], want[i])
		}
		for j := range want[i].Any {
			if p.RequiredAuthenticationMethods[i].Any[j] != want[i].Any[j] {
				t.Errorf("step %d method %d: %+v, want %+v", i+1, j+1, p.RequiredAuthenticationMethods[i].Any[j], want[i].Any[j])
			}
		}
	}
}

func TestMfaCreateRefusedReadOnly(t *testing.T) {
	h, _ := mfaHarness(t, true)
	h.key("n")
	if h.mfa().editor != nil || !h.toasted("read-only") {
		t.Error("a read-only console opened the editor")
	}
}

// At the minimum size the editor scrolls to what has the keys: each field in
// turn, then the step being edited; the ▸ marker follows the keys.
func TestMfaEditorScrollsToTheFocusAtTheMinimumSize(t *testing.T) {
	h, _ := mfaHarness(t, false)
	h.send(tea.WindowSizeMsg{Width: minWidth, Height: minHeight})
	h.key("n")
	h.typeText("small")
	for _, label := range []string{"Condition", "Order", "Notes"} {
		h.key("tab")
		if out := h.frame(); !strings.Contains(out, "▸ "+label) {
			t.Errorf("%s is focused out of sight:\n%s", label, out)
		}
	}
	ctrlT := tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	h.send(ctrlT)
	for step := 2; step <= 5; step++ {
		h.key("a")
		out := h.frame()
		if !strings.Contains(out, fmt.Sprintf("▸ step %d: any of [PASSKEY]", step)) {
			t.Errorf("step %d is edited out of sight:\n%s", step, out)
		}
		if strings.Count(out, "▸") != 1 {
			t.Errorf("more than one ▸ marker while editing step %d:\n%s", step, out)
		}
	}
	h.send(ctrlT)
	if out := h.frame(); !strings.Contains(out, "▸ Notes") || strings.Count(out, "▸") != 1 {
		t.Errorf("back on the fields, Notes is not the one marked field:\n%s", out)
	}
}

// The open MFA policy's created and updated ages count up on the root's clock.
func TestMfaDetailAgesCountUpOnTheClock(t *testing.T) {
	pols := alicePolicies()
	for i := range pols["u-alice"] {
		pols["u-alice"][i].CreatedAt = api.NewTime(testNow.Add(-time.Minute))
		pols["u-alice"][i].UpdatedAt = api.NewTime(testNow.Add(-time.Minute))
	}
	h, now := newClockedHarness(t, &fakeClient{users: governanceUsers(), mfaPolicies: pols})
	h.gotoScreen("MFA policies")
	h.key("enter")
	if l := lineWith(t, h.frame(), "updated"); !strings.Contains(l, "(1m ago)") {
		t.Fatalf("the detail's updated lacks the age: %q", l)
	}
	*now = now.Add(3 * time.Hour)
	h.send(clockMsg{})
	if l := lineWith(t, h.frame(), "updated"); !strings.Contains(l, "(3h ago)") {
		t.Errorf("three hours later the open detail still says: %q", l)
	}
}
