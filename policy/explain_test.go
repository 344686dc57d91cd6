package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

func named(p Policy, name string) Policy { p.Name = name; return p }

// TestExplainWhy covers the why line of every final outcome, and that a policy
// whose condition did not match shows as not applicable unless implicit deny
// is final.
func TestExplainWhy(t *testing.T) {
	opsTwo := named(mustPolicy(t, "p-ops", api.EffectAllow, "activity.resource == 'USER'",
		"approvers.filter(u, u.tags.contains('ops')).count() >= 2"), "Ops approvals")
	noDeletes := named(mustPolicy(t, "p-nodel", api.EffectDeny, "activity.action == 'DELETE'", ""), "No treasury deletes")
	policyOnly := named(mustPolicy(t, "p-pol", api.EffectAllow, "activity.resource == 'POLICY'", ""), "Policies free")
	broken := named(mustPolicy(t, "p-broken", api.EffectAllow, "activity.params.absent == 'w'", ""), "Broken")
	userTag := ActivityFor(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "x"})
	deleteKeys := ActivityFor(api.TypeDeleteAPIKeys, api.DeleteAPIKeysParams{UserID: "u"})
	aliceRoot := Approver{ID: "root-1", Name: "alice", Root: true}
	bobRoot := Approver{ID: "root-2", Name: "bob", Tags: []string{"ops"}}
	opsOnly := Approver{ID: "u-ops", Name: "olga", Tags: []string{"ops"}}

	tests := []struct {
		name      string
		policies  []Policy
		activity  Activity
		approvers []Approver
		rootOnly  bool
		outcome   string
		why       string
		shown     map[string]string
	}{
		{"root quorum bypass", []Policy{noDeletes}, deleteKeys, []Approver{aliceRoot, bobRoot}, false,
			api.OutcomeAllow, "allowed by root quorum (\"alice\", \"bob\")", nil},
		{"explicit deny", []Policy{opsTwo, noDeletes}, deleteKeys, []Approver{aliceRoot}, false,
			api.OutcomeDenyExplicit, "denied explicitly by policy \"No treasury deletes\"",
			map[string]string{"p-ops": NotApplicable, "p-nodel": api.OutcomeDenyExplicit}},
		{"allowed by a policy", []Policy{opsTwo, noDeletes}, userTag, []Approver{opsOnly, {ID: "u2", Name: "pat", Tags: []string{"ops"}}}, false,
			api.OutcomeAllow, "allowed by policy \"Ops approvals\"",
			map[string]string{"p-ops": api.OutcomeAllow, "p-nodel": NotApplicable}},
		{"waiting for root quorum or consensus", []Policy{opsTwo, policyOnly}, userTag, []Approver{aliceRoot}, false,
			api.OutcomeRequiresConsensus,
			"waiting: root quorum has 1 of 2 approvals (\"alice\"); or policy \"Ops approvals\" needs more approvals to meet its consensus",
			map[string]string{"p-ops": api.OutcomeRequiresConsensus, "p-pol": NotApplicable}},
		{"implicit deny", []Policy{policyOnly}, userTag, []Approver{opsOnly}, false,
			api.OutcomeDenyImplicit, "failed: no policy allows this (implicit deny)",
			map[string]string{"p-pol": api.OutcomeDenyImplicit}},
		{"evaluation error is ignored, implicit deny", []Policy{broken}, userTag, []Approver{opsOnly}, false,
			api.OutcomeDenyImplicit, "failed: no policy allows this (implicit deny)",
			map[string]string{"p-broken": api.OutcomeError}},
		{"root only, waiting", []Policy{policyOnly}, ActivityFor(api.TypeSetOrganizationFeature, nil), []Approver{aliceRoot}, true,
			api.OutcomeRequiresConsensus, "waiting: only the root quorum can approve this; root quorum has 1 of 2 approvals (\"alice\")", nil},
		{"root only, nobody root", []Policy{policyOnly}, ActivityFor(api.TypeSetOrganizationFeature, nil), []Approver{opsOnly}, true,
			api.OutcomeDenyImplicit, "failed: only the root quorum can approve this, and no root member has", nil},
	}
	q := Quorum{Threshold: 2, UserIDs: []string{"root-1", "root-2"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Activity: tt.activity, Approvers: tt.approvers, Now: time.Unix(1e9, 0)}
			e := Explain(Decide(tt.policies, in, q, tt.rootOnly))
			if e.Outcome != tt.outcome || e.Why != tt.why {
				t.Errorf("got %s %q\nwant %s %q", e.Outcome, e.Why, tt.outcome, tt.why)
			}
			got := map[string]string{}
			for _, l := range e.Policies {
				got[l.ID] = l.Shown
				if l.Detail == "" {
					t.Errorf("policy %s has no detail", l.ID)
				}
			}
			for id, want := range tt.shown {
				if got[id] != want {
					t.Errorf("policy %s shown as %q, want %q", id, got[id], want)
				}
			}
		})
	}
}

func TestExplainErrorOutcome(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, nil), Wallet: map[string]any{"id": func() {}}}
	d := Decide(nil, in, Quorum{Threshold: 1}, false)
	if d.Outcome != api.OutcomeError {
		t.Fatalf("a wallet field of the wrong type gave %s, want OUTCOME_ERROR", d.Outcome)
	}
	if e := Explain(d); !strings.HasPrefix(e.Why, "failed: cannot prepare the evaluation") {
		t.Errorf("why = %q, want a failed: line", e.Why)
	}
}

func TestSimulateLocksOut(t *testing.T) {
	allowTags := mustPolicy(t, "p-allow", api.EffectAllow, "activity.resource == 'USER'", "")
	denyTags := mustPolicy(t, "draft", api.EffectDeny, "activity.resource == 'USER'", "")
	denyPolicies := mustPolicy(t, "draft", api.EffectDeny, "activity.resource == 'POLICY'", "")
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, nil), Approvers: []Approver{{ID: "u1", Name: "olga"}}}
	q := Quorum{Threshold: 1, UserIDs: []string{"root"}}

	s := Simulate([]Policy{allowTags}, denyTags, in, q, false)
	if s.Today.Outcome != api.OutcomeAllow || s.WithDraft.Outcome != api.OutcomeDenyExplicit || !s.LocksOut {
		t.Errorf("deny draft over an allowed activity: %s → %s, locks out %v", s.Today.Outcome, s.WithDraft.Outcome, s.LocksOut)
	}
	if got := Decider(s.WithDraft); got != "policy draft" {
		t.Errorf("decider = %q", got)
	}
	s = Simulate([]Policy{allowTags}, denyPolicies, in, q, false)
	if s.WithDraft.Outcome != api.OutcomeAllow || s.LocksOut {
		t.Errorf("unrelated deny draft: %s, locks out %v", s.WithDraft.Outcome, s.LocksOut)
	}
}

// The waiting line names how many more approvals a policy's consensus needs,
// and from whom, by asking the consensus with the candidates added.
func TestExplainWithNamesWhoCouldApprove(t *testing.T) {
	ops := named(mustPolicy(t, "p-ops", api.EffectAllow, "", "approvers.filter(u, u.tags.contains('ops')).count() >= 2"), "Ops approvals")
	three := named(mustPolicy(t, "p-three", api.EffectAllow, "", "approvers.count() >= 4"), "Four eyes")
	alice := Approver{ID: "root-1", Name: "alice", Root: true}
	bob := Approver{ID: "u-bob", Name: "bob", Tags: []string{"ops"}}
	carol := Approver{ID: "u-carol", Name: "carol", Tags: []string{"ops"}}
	dave := Approver{ID: "u-dave", Name: "dave"}
	q := Quorum{Threshold: 2, UserIDs: []string{"root-1", "root-2"}}
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, nil), Approvers: []Approver{alice, bob}}

	e := ExplainWith(Decide([]Policy{ops}, in, q, false), in, []Approver{carol, dave})
	want := "waiting: root quorum has 1 of 2 approvals (\"alice\"); or policy \"Ops approvals\" needs 1 more approval (\"carol\")"
	if e.Why != want {
		t.Errorf("why = %q\nwant %q", e.Why, want)
	}
	e = ExplainWith(Decide([]Policy{three}, in, q, false), in, []Approver{carol, dave})
	if !strings.Contains(e.Why, "policy \"Four eyes\" needs 2 more approvals (e.g. \"carol\", \"dave\")") {
		t.Errorf("why = %q", e.Why)
	}
	// A member who does not count toward it is not counted nor named: the two
	// ops members are what the policy needs, though erin comes first.
	erin := Approver{ID: "u-erin", Name: "erin"}
	in0 := Input{Activity: ActivityFor(api.TypeCreateUserTag, nil)}
	e = ExplainWith(Decide([]Policy{ops}, in0, q, false), in0, []Approver{erin, bob, dave, carol})
	if !strings.Contains(e.Why, "policy \"Ops approvals\" needs 2 more approvals (e.g. \"bob\", \"carol\")") {
		t.Errorf("why = %q, want bob and carol only", e.Why)
	}
	// A consensus that everyone together does not meet (all approvers must be
	// ops) is still met by a few: they are named.
	opsOnly := named(mustPolicy(t, "p-ops-only", api.EffectAllow, "", "approvers.count() >= 3 && approvers.all(u, u.tags.contains('ops'))"), "Ops only")
	inOps := Input{Activity: ActivityFor(api.TypeCreateUserTag, nil), Approvers: []Approver{bob}}
	frank := Approver{ID: "u-frank", Name: "frank", Tags: []string{"ops"}}
	e = ExplainWith(Decide([]Policy{opsOnly}, inOps, q, false), inOps, []Approver{dave, carol, erin, frank})
	if !strings.Contains(e.Why, "policy \"Ops only\" needs 2 more approvals (e.g. \"carol\", \"frank\")") {
		t.Errorf("why = %q, want carol and frank", e.Why)
	}
	e = ExplainWith(Decide([]Policy{three}, in, q, false), in, nil)
	if !strings.Contains(e.Why, "policy \"Four eyes\" needs more approvals to meet its consensus") {
		t.Errorf("no candidates: why = %q", e.Why)
	}
}
