package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A complete-literal pattern is a substring search: over a 1 MiB string it
// costs a scan, as contains() does, far from the cost limit (it was charged
// by the string's length times its compiled program, and failed at 40 KB).
// An anchored pattern of bounded length reads only the string's start.
func TestLiteralMatchesCostsAScan(t *testing.T) {
	for _, tc := range []struct {
		cond string
		n    int
	}{
		{"activity.params.user_id.matches('selfdestruct')", 1 << 20},
		{"activity.params.user_id.matches('^ops-')", 1 << 20},
		{"activity.params.user_id.matches('^[a-z0-9-]{1,64}$')", 60_000},
	} {
		c, err := Compile(tc.cond, "")
		if err != nil {
			t.Fatalf("%s: %v", tc.cond, err)
		}
		in := longParam(tc.n)
		if _, err := c.Run(in); err != nil {
			t.Errorf("%s over %d bytes: %v", tc.cond, tc.n, err)
			continue
		}
		scan := scanCost(tc.n) // what contains() costs over the same string
		d := Decide([]Policy{{ID: "p", Effect: api.EffectDeny, Compiled: c}}, in, Quorum{Threshold: 2}, false)
		if d.Work > scan+judgeCost+100 {
			t.Errorf("%s over %d bytes cost %d units, more than a scan of it (%d)", tc.cond, tc.n, d.Work, scan)
		}
	}
}

// BenchmarkMatches measures what a constant pattern's match costs against
// what it is charged (ns/unit; the budgets assume about 100 ns a unit, so
// a figure well above 100 is an undercharge): docs/performance.md. a{95}b
// is a plain string (a substring search: by regexp's NFA it took ~1 s on
// 1 MiB); \pL{90}! is short but compiles to 93 instructions.
func BenchmarkMatches(b *testing.B) {
	for _, tc := range []struct {
		pattern string
		n       int
	}{
		{"selfdestruct", 1 << 20},
		{"^ops-", 1 << 20},
		{"^[a-z0-9-]{1,64}$", 1 << 20},
		{"self.*destruct", 1 << 20},
		{"^.*x", 100_000},
		{"(a|b|c)+x", 100_000},
		{"[a-z]{100}x", 10_000},
		{"[a-z]{1000}x", 10_000},
		{"a{95}b", 1 << 20},
		{`\pL{90}!`, 10_000},
	} {
		c, err := newConstMatch(tc.pattern)
		if err != nil {
			b.Fatal(err)
		}
		s := strings.Repeat("a", tc.n)
		b.Run(fmt.Sprintf("%s/%d", tc.pattern, tc.n), func(b *testing.B) {
			for b.Loop() {
				c.match(s)
			}
			units := c.cost(tc.n)
			b.ReportMetric(float64(units), "units")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(units), "ns/unit")
		})
	}
}
