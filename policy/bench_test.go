package policy

import (
	"fmt"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func BenchmarkCompile(b *testing.B) {
	const (
		condition = "activity.resource == 'POLICY' && activity.action == 'CREATE'"
		consensus = "approvers.filter(user, user.tags.contains('ops')).count() >= 2"
	)
	if _, err := Compile(condition, consensus); err != nil { // build the environments outside the loop
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(condition, consensus); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecide20Policies evaluates a decision over 20 typical policies
// (a mix of allows and denies, conditions and consensus) with 3 approvers.
func BenchmarkDecide20Policies(b *testing.B) {
	var ps []Policy
	for i := range 20 {
		effect := api.EffectAllow
		if i%4 == 0 {
			effect = api.EffectDeny
		}
		ps = append(ps, mustPolicy(b, fmt.Sprint("p", i), effect,
			fmt.Sprintf("activity.resource == 'USER' && activity.params.userTagName != 'tag-%d'", i),
			fmt.Sprintf("approvers.filter(u, u.tags.contains('t%d')).count() >= 2 || approvers.any(u, u.id == 'u%d')", i, i)))
	}
	in := input(alice, bob, carol)
	b.ReportAllocs()
	for b.Loop() {
		Decide(ps, in, quorum, false)
	}
}
