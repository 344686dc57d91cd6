package policy

import (
	"slices"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func mustPolicy(t testing.TB, id, effect, condition, consensus string) Policy {
	t.Helper()
	c, err := Compile(condition, consensus)
	if err != nil {
		t.Fatalf("Compile(%q, %q): %v", condition, consensus, err)
	}
	return Policy{ID: id, Effect: effect, Compiled: c}
}

var (
	root1 = Approver{ID: "root-1", Name: "r1", Root: true}
	root2 = Approver{ID: "root-2", Name: "r2"} // root through the quorum's list only
	root3 = Approver{ID: "root-3", Name: "r3", Root: true}
	// quorum is a 2-of-3 root quorum.
	quorum = Quorum{Threshold: 2, UserIDs: []string{"root-1", "root-2", "root-3"}}
)

func outcomes(d Decision) map[string]string {
	m := map[string]string{}
	for _, p := range d.Policies {
		m[p.PolicyID] = p.Outcome
	}
	return m
}

func TestDecidePrecedence(t *testing.T) {
	allowOps := mustPolicy(t, "allow-ops", api.EffectAllow, "activity.resource == 'USER'", "approvers.any(u, u.tags.contains('ops'))")
	denyCarol := mustPolicy(t, "deny-carol", api.EffectDeny, "", "approvers.any(u, u.id == 'u-carol')")
	denyDelete := mustPolicy(t, "deny-delete", api.EffectDeny, "activity.action == 'DELETE'", "")
	broken := mustPolicy(t, "broken", api.EffectDeny, "activity.params.absent == 'w'", "") // no such parameter: evaluation error
	brokenAllow := mustPolicy(t, "broken-allow", api.EffectAllow, "activity.params.absent == 'w'", "")
	noWallet := mustPolicy(t, "no-wallet", api.EffectDeny, "activity.action == 'DELETE' || wallet.id == 'w'", "")
	noTx := mustPolicy(t, "no-tx", api.EffectAllow, "eth.tx.to == '0xabc' || true", "")
	twoOps := mustPolicy(t, "two-ops", api.EffectAllow, "", "approvers.filter(u, u.tags.contains('ops')).count() >= 2")

	tests := []struct {
		name         string
		policies     []Policy
		approvers    []Approver
		want         string
		wantPolicies map[string]string
	}{
		{"allow applies", []Policy{allowOps}, []Approver{alice}, api.OutcomeAllow,
			map[string]string{"allow-ops": api.OutcomeAllow}},
		{"deny beats allow", []Policy{allowOps, denyCarol}, []Approver{alice, carol}, api.OutcomeDenyExplicit,
			map[string]string{"allow-ops": api.OutcomeAllow, "deny-carol": api.OutcomeDenyExplicit}},
		{"deny whose consensus is not met does not deny", []Policy{allowOps, denyCarol}, []Approver{alice}, api.OutcomeAllow,
			map[string]string{"allow-ops": api.OutcomeAllow, "deny-carol": api.OutcomeDenyImplicit}},
		{"deny whose condition does not match does not deny", []Policy{allowOps, denyDelete}, []Approver{alice}, api.OutcomeAllow,
			map[string]string{"allow-ops": api.OutcomeAllow, "deny-delete": api.OutcomeDenyImplicit}},
		{"root quorum beats deny", []Policy{denyCarol}, []Approver{carol, root1, root2}, api.OutcomeAllow, map[string]string{}},
		{"error neither denies", []Policy{broken, allowOps}, []Approver{alice}, api.OutcomeAllow,
			map[string]string{"broken": api.OutcomeError, "allow-ops": api.OutcomeAllow}},
		{"error neither allows", []Policy{brokenAllow}, []Approver{alice}, api.OutcomeDenyImplicit,
			map[string]string{"broken-allow": api.OutcomeError}},
		{"a deny reading a wallet the activity lacks does not apply", []Policy{noWallet, allowOps}, []Approver{alice}, api.OutcomeAllow,
			map[string]string{"no-wallet": api.OutcomeDenyImplicit, "allow-ops": api.OutcomeAllow}},
		{"an allow reading a transaction the activity lacks never allows", []Policy{noTx}, []Approver{alice}, api.OutcomeDenyImplicit,
			map[string]string{"no-tx": api.OutcomeDenyImplicit}},
		{"allow waiting for consensus", []Policy{twoOps}, []Approver{alice, carol}, api.OutcomeRequiresConsensus,
			map[string]string{"two-ops": api.OutcomeRequiresConsensus}},
		{"two tagged approvers meet consensus", []Policy{twoOps}, []Approver{alice, carol, bob}, api.OutcomeAllow,
			map[string]string{"two-ops": api.OutcomeAllow}},
		{"no policy", nil, []Approver{alice}, api.OutcomeDenyImplicit, map[string]string{}},
		{"nothing applies", []Policy{denyDelete}, []Approver{carol}, api.OutcomeDenyImplicit,
			map[string]string{"deny-delete": api.OutcomeDenyImplicit}},
		{"one root member waits for the quorum", nil, []Approver{root1}, api.OutcomeRequiresConsensus, map[string]string{}},
		{"root member listed only in the quorum counts", nil, []Approver{root2}, api.OutcomeRequiresConsensus, map[string]string{}},
		{"two root members complete", nil, []Approver{root1, root3}, api.OutcomeAllow, map[string]string{}},
		{"the same root member twice is one approval", nil, []Approver{root1, root1}, api.OutcomeRequiresConsensus, map[string]string{}},
		{"explicit deny beats a waiting root quorum", []Policy{denyCarol}, []Approver{root1, carol}, api.OutcomeDenyExplicit,
			map[string]string{"deny-carol": api.OutcomeDenyExplicit}},
		{"nil compiled is an error", []Policy{{ID: "nil", Effect: api.EffectAllow}}, []Approver{alice}, api.OutcomeDenyImplicit,
			map[string]string{"nil": api.OutcomeError}},
		{"unknown effect is an error", []Policy{{ID: "odd", Effect: "EFFECT_MAYBE", Compiled: allowOps.Compiled}}, []Approver{alice},
			api.OutcomeDenyImplicit, map[string]string{"odd": api.OutcomeError}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Decide(tc.policies, input(tc.approvers...), quorum, false)
			if d.Outcome != tc.want {
				t.Errorf("Outcome = %s, want %s (reason: %s)", d.Outcome, tc.want, d.Reason)
			}
			if got := outcomes(d); !mapsEqual(got, tc.wantPolicies) {
				t.Errorf("per-policy outcomes = %v, want %v", got, tc.wantPolicies)
			}
			if d.Reason == "" {
				t.Error("empty Reason")
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestDecideKeepsPolicyOrder(t *testing.T) {
	ps := []Policy{
		mustPolicy(t, "c", api.EffectAllow, "", ""),
		mustPolicy(t, "a", api.EffectDeny, "activity.action == 'DELETE'", ""),
		mustPolicy(t, "b", api.EffectAllow, "", "approvers.count() > 5"),
	}
	d := Decide(ps, input(alice), quorum, false)
	want := []api.PolicyOutcome{{PolicyID: "c", Outcome: api.OutcomeAllow}, {PolicyID: "a", Outcome: api.OutcomeDenyImplicit},
		{PolicyID: "b", Outcome: api.OutcomeRequiresConsensus}}
	if !slices.Equal(d.Policies, want) {
		t.Fatalf("Policies = %v, want %v", d.Policies, want)
	}
}

func TestDecideRootOnly(t *testing.T) {
	allowAll := mustPolicy(t, "allow-all", api.EffectAllow, "", "")
	in := Input{Activity: ActivityFor(api.TypeSetOrganizationFeature, map[string]any{"name": api.FeatureWebhook, "value": "https://x"})}
	for _, tc := range []struct {
		name      string
		approvers []Approver
		want      string
	}{
		{"a policy cannot allow it", []Approver{alice}, api.OutcomeDenyImplicit},
		{"one root member waits", []Approver{alice, root1}, api.OutcomeRequiresConsensus},
		{"the root quorum completes it", []Approver{root1, root2}, api.OutcomeAllow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in.Approvers = tc.approvers
			d := Decide([]Policy{allowAll}, in, quorum, true)
			if d.Outcome != tc.want {
				t.Errorf("Outcome = %s, want %s (%s)", d.Outcome, tc.want, d.Reason)
			}
			if len(d.Policies) != 0 {
				t.Errorf("policies ran for a root-only activity: %v", d.Policies)
			}
		})
	}
}

func TestZeroThresholdDoesNotLetAnybodyThrough(t *testing.T) {
	d := Decide(nil, input(alice), Quorum{Threshold: 0, UserIDs: []string{"root-1"}}, false)
	if d.Outcome != api.OutcomeDenyImplicit {
		t.Fatalf("Outcome = %s, want %s", d.Outcome, api.OutcomeDenyImplicit)
	}
	d = Decide(nil, input(alice), Quorum{Threshold: 0, UserIDs: []string{"root-1"}}, true)
	if d.Outcome != api.OutcomeDenyImplicit {
		t.Fatalf("root only: Outcome = %s, want %s", d.Outcome, api.OutcomeDenyImplicit)
	}
}

func TestReachable(t *testing.T) {
	twoOps := mustPolicy(t, "two-ops", api.EffectAllow, "", "approvers.filter(u, u.tags.contains('ops')).count() >= 2")
	denyCarol := mustPolicy(t, "deny-carol", api.EffectDeny, "", "approvers.any(u, u.id == 'u-carol')")
	// Harder with the wrong approver: adding carol (no ops tag) breaks it for good.
	onlyOps := mustPolicy(t, "only-ops", api.EffectAllow, "", "approvers.count() >= 2 && approvers.all(u, u.tags.contains('ops'))")
	dave := Approver{ID: "u-dave", Tags: []string{"ops"}}
	tests := []struct {
		name      string
		policies  []Policy
		approvers []Approver
		potential []Approver
		rootOnly  bool
		want      bool
	}{
		{"already allowed, someone left", []Policy{twoOps}, []Approver{alice, bob}, []Approver{carol}, false, true},
		// Only an approval runs it, and none can come: the last voter's rejection settles it.
		{"already allowed, nobody left", []Policy{twoOps}, []Approver{alice, bob}, nil, false, false},
		{"root only: already allowed, nobody left", nil, []Approver{root1, root2}, nil, true, false},
		{"a tagged user may still approve", []Policy{twoOps}, []Approver{alice}, []Approver{carol, bob}, false, true},
		{"nobody left with the tag", []Policy{twoOps}, []Approver{alice}, []Approver{carol}, false, false},
		{"nobody left at all", []Policy{twoOps}, []Approver{alice}, nil, false, false},
		{"skips an approver who would trigger a deny", []Policy{twoOps, denyCarol}, []Approver{alice}, []Approver{carol, dave}, false, true},
		{"an approver who breaks an all() comes first", []Policy{onlyOps}, []Approver{bob}, []Approver{carol, dave}, false, true},
		{"all() with nobody left who keeps it", []Policy{onlyOps}, []Approver{bob}, []Approver{carol}, false, false},
		{"already denied and no root quorum", []Policy{twoOps, denyCarol}, []Approver{carol}, []Approver{alice, bob}, false, false},
		{"root quorum still reachable past a deny", []Policy{denyCarol}, []Approver{carol, root1}, []Approver{root2}, false, true},
		{"root only: enough root members left", nil, []Approver{root1}, []Approver{alice, root3}, true, true},
		{"root only: not enough root members left", []Policy{twoOps}, []Approver{root1, alice}, []Approver{bob}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Reachable(tc.policies, input(tc.approvers...), quorum, tc.rootOnly, tc.potential).Reachable; got != tc.want {
				t.Errorf("Reachable = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReachableDoesNotModifyInput(t *testing.T) {
	twoOps := mustPolicy(t, "two-ops", api.EffectAllow, "", "approvers.count() >= 3")
	approvers := make([]Approver, 1, 8) // spare capacity would expose an aliasing append
	approvers[0] = alice
	in := input(approvers...)
	Reachable([]Policy{twoOps}, in, quorum, false, []Approver{bob, carol})
	if len(in.Approvers) != 1 || approvers[:2][1].ID != "" {
		t.Fatalf("Reachable changed the caller's approvers: %v", approvers[:2])
	}
}

// TestDecideConcurrently runs one compiled policy set from many goroutines, as
// the server does for concurrent votes; run with -race.
func TestDecideConcurrently(t *testing.T) {
	ps := []Policy{mustPolicy(t, "two-ops", api.EffectAllow, "activity.resource == 'USER'",
		"approvers.filter(u, u.tags.contains('ops')).count() >= 2")}
	done := make(chan string)
	for i := range 8 {
		go func() {
			approvers := []Approver{alice}
			if i%2 == 0 {
				approvers = append(approvers, bob)
			}
			done <- Decide(ps, input(approvers...), quorum, false).Outcome
		}()
	}
	counts := map[string]int{}
	for range 8 {
		counts[<-done]++
	}
	if counts[api.OutcomeAllow] != 4 || counts[api.OutcomeRequiresConsensus] != 4 {
		t.Fatalf("outcomes = %v, want 4 allow and 4 requires consensus", counts)
	}
}
