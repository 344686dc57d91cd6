package screens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// distinctPolicies are n policies whose condition and consensus are each
// about size bytes of valid expression, no two alike (as an organization's
// are), so that a cache cannot serve one from another.
func distinctPolicies(n, size int) []api.Policy {
	out := make([]api.Policy, n)
	for i := range out {
		term := fmt.Sprintf("activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS_%04d' || ", i)
		cterm := fmt.Sprintf("approvers.any(user, user.tags.contains('ops-team-%04d')) || ", i)
		out[i] = api.Policy{PolicyID: fmt.Sprintf("pol-%04d", i), PolicyName: fmt.Sprintf("policy %04d", i), Effect: api.EffectAllow,
			Condition: strings.Repeat(term, max((size-60)/len(term), 1)) + "false",
			Consensus: strings.Repeat(cterm, max((size-60)/len(cterm), 1)) + "approvers.count() >= 2"}
	}
	return out
}

// BenchmarkPoliciesReload is what one load of 200 policies costs the
// console in compiling them (the organization's load and the Policies
// screen's each pay it, on every completed activity): "uncompiled" is every
// load before the compile cache, "unchanged" a reload through the cache of
// policies that did not change, which is every reload now but the first.
// docs/performance.md has the figures.
func BenchmarkPoliciesReload(b *testing.B) {
	for _, size := range []int{1 << 10, 16 << 10} {
		records := distinctPolicies(200, size)
		b.Run(fmt.Sprintf("uncompiled/%dKiB", size>>10), func(b *testing.B) {
			for b.Loop() {
				if ec := newEvaluationContext(nil, nil, api.OrganizationConfigs{}, records); len(ec.ordered) != len(records) {
					b.Fatalf("%d of %d policies compiled", len(ec.ordered), len(records))
				}
			}
		})
		b.Run(fmt.Sprintf("unchanged/%dKiB", size>>10), func(b *testing.B) {
			cache := policy.NewCompileCache(consoleCompileBudget)
			newEvaluationContext(cache, nil, api.OrganizationConfigs{}, records) // the first load
			for b.Loop() {
				if ec := newEvaluationContext(cache, nil, api.OrganizationConfigs{}, records); len(ec.ordered) != len(records) {
					b.Fatalf("%d of %d policies compiled", len(ec.ordered), len(records))
				}
			}
		})
	}
}
