package policy

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A constant pattern that is not a plain string is charged for what RE2's
// NFA does: up to a live thread per program instruction on every byte. The
// budgets assume about 100 ns a unit, and RE2 takes about 8 to 12 ns a
// (character × instruction) step (docs/performance.md), so a unit pays for
// at most about 10 steps. \pL{90}! is 8 characters of pattern and 93
// instructions: charged by its length alone, it ran ~50 times longer than
// paid for, in the service's single writer.
func TestMatchesChargedByProgramSize(t *testing.T) {
	const n = 2000 // small enough for the cost limit
	for _, p := range []string{`\\pL{90}!`, `[a-z]{40}!`, `(a|b|c)+x`, `self.*destruct`} {
		pattern := strings.ReplaceAll(p, `\\`, `\`)
		parsed, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(parsed.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		steps := uint64(n) * uint64(len(prog.Inst))
		c, err := Compile("activity.params.user_id.matches('"+p+"')", "")
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		in := Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, map[string]any{"userId": strings.Repeat("a", n), "apiKeyIds": []any{"k1"}}),
			Approvers: []Approver{{ID: "u1"}}}
		d := Decide([]Policy{{ID: "p", Effect: api.EffectDeny, Compiled: c}}, in, Quorum{Threshold: 2}, false)
		if d.Work < steps/10 {
			t.Errorf("matches('%s') over %d bytes (%d instructions, %d steps) was charged %d units: under a unit for 10 steps",
				pattern, n, len(prog.Inst), steps, d.Work)
		}
	}
}

// A plain-string pattern is matched by a substring search (Go's regexp
// keeps ~95 threads live on each byte for a{95}b over a string of a's:
// BenchmarkMatches), and says what regexp says.
func TestLiteralMatchesAgreesWithRegexp(t *testing.T) {
	patterns := []string{"selfdestruct", "^ops-", "a{5}b", "(abc)", "", "é", `\x{FFFD}`, "^", "a|a", "(?s)ab", `\.x`}
	inputs := []string{"", "ops-1", "x ops-", "aaaaab", "aaaab", "zabcz", "café", "a\xffb", "\xff", "ab", ".x", "ob"}
	for _, p := range patterns {
		c, err := newConstMatch(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		re := regexp.MustCompile(p)
		for _, s := range inputs {
			if got, want := c.match(s), re.MatchString(s); got != want {
				t.Errorf("matches(%q) on %q: %v, regexp says %v", p, s, got, want)
			}
		}
	}
	if c, _ := newConstMatch("a{95}b"); !c.literal {
		t.Error("a{95}b is a plain string, but is left to regexp's NFA")
	}
}
