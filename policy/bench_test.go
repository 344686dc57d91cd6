package policy

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

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

// BenchmarkCompileDocExamples compiles every documented example policy
// (placeholders filled in); ns/policy is the compile time of one policy.
func BenchmarkCompileDocExamples(b *testing.B) {
	var srcs []Source
	for _, ex := range loadDocExamples(b) {
		srcs = append(srcs, Source{Condition: fill(ex.Condition), Consensus: fill(ex.Consensus), Time: fill(ex.Time)})
	}
	if _, err := CompileSource(srcs[0]); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range srcs {
			if _, err := CompileSource(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(srcs)), "ns/policy")
}

// docOrganization is a 100-policy organization made of the documented
// examples (placeholders filled in), in page order, cycling.
func docOrganization(b *testing.B) []Policy {
	examples := loadDocExamples(b)
	var ps []Policy
	for i := range 100 {
		ex := examples[i%len(examples)]
		c, err := CompileSource(Source{Condition: fill(ex.Condition), Consensus: fill(ex.Consensus), Time: fill(ex.Time)})
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, Policy{ID: fmt.Sprint("p", i), Effect: ex.Effect, Compiled: c})
	}
	return ps
}

// BenchmarkDecide100DocPolicies decides one activity against a 100-policy
// organization of documented examples: a user tag creation of this service
// (no transaction: most conditions read a keyword it lacks) and a simulated
// Ethereum signing with a parsed transaction and wallet.
func BenchmarkDecide100DocPolicies(b *testing.B) {
	ps := docOrganization(b)
	service := input(alice, bob)
	service.Now = time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC)
	signing := Input{
		Activity:  ActivityFor("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", map[string]any{"type": "TRANSACTION_TYPE_ETHEREUM"}),
		Approvers: []Approver{alice, bob},
		Wallet:    map[string]any{"id": "WALLET_ID", "label": "treasury"},
		Payloads: map[string]map[string]any{PayloadEthTx: {
			"to": "CONTRACT_ADDRESS", "value": "1000000000000000000000", "chain_id": 1, "nonce": 2,
			"data": "0xa9059cbb000000000000000000000000", "function_name": "transfer",
			"contract_call_args": map[string]any{"wad": 5, "dst": "0x08d2b0a37F869FF76BACB5Bab3278E26ab7067B7"},
		}},
		Now: service.Now,
	}
	for name, in := range map[string]Input{"service-activity": service, "eth-signing": signing} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Decide(ps, in, quorum, false)
			}
		})
	}
}

// BenchmarkCostliestPolicy evaluates, for each shape of costly policy, the
// largest one within the cost limit: one evaluation is the most a policy
// can cost the service (docs/performance.md).
func BenchmarkCostliestPolicy(b *testing.B) {
	list := "[" + strings.Repeat("1,", 1499) + "1]"
	text := "'" + strings.Repeat("é", 7000) + "'" // 14 KiB
	for _, shape := range []struct {
		name string
		of   func(k int) string
	}{
		{"nested loops", func(k int) string {
			return fmt.Sprintf("%s[0..%d].all(a, %s.all(b, %s.all(d, a + b + d > 0)))", list, k, twenty, twenty)
		}},
		{"list slices", func(k int) string { return fmt.Sprintf("%s.all(a, %s[0..%d].count() > 0)", list, list, k) }},
		{"string indexes", func(k int) string {
			return fmt.Sprintf("%s.all(a, %s[0..%d].all(b, %s[6999] == 'é'))", twenty, twenty, min(k, 20), text)
		}},
	} {
		c := largestWithinCostLimit(b, shape.of)
		in := input(alice)
		b.Run(shape.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := c.Evaluate(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// largestWithinCostLimit compiles of(k) for the largest k in 1..1500 whose
// evaluation stays within the cost limit.
func largestWithinCostLimit(b *testing.B, of func(k int) string) *Compiled {
	b.Helper()
	within := func(k int) *Compiled {
		c, err := Compile(of(k), "")
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.Evaluate(input(alice)); err != nil {
			return nil
		}
		return c
	}
	c := largestWithin(within)
	if c == nil {
		b.Fatalf("even %q exceeds the cost limit", of(1))
	}
	return c
}

// largestWithin is within(k) for the largest k in 1..1500 that gives one
// (nil: over the cost limit), found by bisection; nil when even 1 is over.
func largestWithin(within func(k int) *Compiled) *Compiled {
	lo, hi := 1, 1500
	for lo < hi {
		if mid := (lo + hi + 1) / 2; within(mid) != nil {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return within(lo)
}

// BenchmarkReachableWorstCase is the costliest rejection the server can be
// asked to settle: 20 costly policies that no set of approvers meets and 8
// members left to vote, so the search stops at ReachBudget
// (docs/performance.md).
func BenchmarkReachableWorstCase(b *testing.B) {
	ps, in, voters := costlyPolicies(b, 20), input(alice), potentialVoters(8)
	for b.Loop() {
		if r := Reachable(ps, in, quorum, false, voters); !r.Exhausted {
			b.Fatalf("Reachable = %+v, want the budget exhausted", r)
		}
	}
}

// BenchmarkDecideWorstCase is the costliest decision the server can be
// asked to make at a submission or vote: 20 deny policies whose time,
// condition and consensus are each the largest nested loops within the cost
// limit, the consensus never met, so every one must be judged. Bounded by
// DecideBudget, the decision stops after the policy that crosses it; the
// unbounded one is what every write of the service waited behind before
// (docs/performance.md).
func BenchmarkDecideWorstCase(b *testing.B) {
	list := "[" + strings.Repeat("1,", 1499) + "1]"
	loops := func(k int) string {
		return fmt.Sprintf("%s[0..%d].all(a, %s.all(b, %s.all(d, a + b + d > 0)))", list, k, twenty, twenty)
	}
	// The largest k whose three expressions each stay within the cost limit.
	source := func(k int) Source {
		return Source{Time: loops(k), Condition: loops(k), Consensus: loops(k) + " && approvers.size() > 100"}
	}
	within := func(k int) *Compiled {
		c, err := CompileSource(source(k))
		if err != nil {
			b.Fatal(err)
		}
		in := input(alice)
		in.Now = time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC)
		if r, err := c.Run(in); err != nil || !r.Active || !r.Condition || r.Consensus {
			return nil
		}
		return c
	}
	c := largestWithin(within)
	if c == nil {
		b.Fatal("even the smallest loops exceed the cost limit")
	}
	ps := make([]Policy, 20)
	for i := range ps {
		ps[i] = Policy{ID: fmt.Sprint("costliest-", i), Effect: api.EffectDeny, Compiled: c}
	}
	in := input(alice)
	in.Now = time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC)
	for _, run := range []struct {
		name   string
		budget uint64
	}{{"bounded", DecideBudget}, {"unbounded", math.MaxUint64}} {
		b.Run(run.name, func(b *testing.B) {
			b.ReportAllocs()
			var d Decision
			for b.Loop() {
				d = decide(ps, in, quorum, false, &meter{budget: run.budget})
			}
			if d.Outcome == api.OutcomeDenyExplicit || d.Exhausted != (run.budget == DecideBudget) {
				b.Fatalf("decision %s (exhausted %v), want every deny judged not to apply or the budget to run out", d.Outcome, d.Exhausted)
			}
			b.ReportMetric(float64(d.Work), "units/op")
		})
	}
}

// BenchmarkMapLiteralLoops decides six deny policies that read a
// 1,500-key map literal 4,761 times each, the literal folded (constants) or
// built at each read: ns/unit is the time per cost unit
// charged, which the budgets assume to be about 100 ns (docs/performance.md).
func BenchmarkMapLiteralLoops(b *testing.B) {
	for _, shape := range []struct{ name, first string }{{"constant", ""}, {"built", "size(activity.type)"}} {
		c, err := Compile(loopsOver(bigMapLiteral(1500, shape.first)), "")
		if err != nil {
			b.Fatal(err)
		}
		ps := make([]Policy, 6)
		for i := range ps {
			ps[i] = Policy{ID: fmt.Sprint("deny-", i), Effect: api.EffectDeny, Compiled: c}
		}
		in := input(alice)
		b.Run(shape.name, func(b *testing.B) {
			var work uint64
			for b.Loop() {
				work += Decide(ps, in, quorum, false).Work
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(work), "ns/unit")
		})
	}
}

// BenchmarkCronSpanLoops decides ten deny policies whose time expression
// calls CronSpan 100,000 times in nested loops, at an instant where the
// schedule has no window open (the costliest answer: every fire that may be
// in the window is looked at). The arguments are constants, or computed at
// each call (the time zone constant). ns/unit is the time per cost unit
// charged, which the budgets assume to be about 100 ns (docs/performance.md).
func BenchmarkCronSpanLoops(b *testing.B) {
	ten := "[0,1,2,3,4,5,6,7,8,9]"
	loops := func(call string) string {
		return ten + ".all(a, " + ten + ".all(b, " + ten + ".all(c, " + ten + ".all(d, " + ten + ".all(e, !" + call + ")))))"
	}
	for _, shape := range []struct{ name, call string }{
		{"constant", "CronSpan('0-58 * * * *', '1m', 'America/New_York')"},
		{"computed", "CronSpan('0-' + string(50 + a) + ' * * * *', '1m', 'America/New_York')"},
	} {
		c, err := CompileSource(Source{Time: loops(shape.call)})
		if err != nil {
			b.Fatal(err)
		}
		ps := make([]Policy, 10)
		for i := range ps {
			ps[i] = Policy{ID: fmt.Sprint("deny-", i), Effect: api.EffectDeny, Compiled: c}
		}
		in := input(alice)
		in.Now = time.Date(2026, 11, 28, 10, 59, 30, 0, time.UTC) // no fire in (10:58:30, 10:59:30]
		b.Run(shape.name, func(b *testing.B) {
			var work uint64
			for b.Loop() {
				work += Decide(ps, in, quorum, false).Work
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(work), "ns/unit")
			b.ReportMetric(float64(work)/float64(b.N), "units/op")
		})
	}
}
