package policy

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Two 64-bit amounts whose sum, difference, product or quotient leaves 64
// bits are computed exactly, as the service's i128 and u256 do: CEL's own
// overflow error would leave a DENY such as `a + b > LIMIT` unapplied
// exactly for the largest amounts. A uint difference below zero stays an
// error, as it is on u256.
func TestInt64OverflowIsExact(t *testing.T) {
	const maxInt, minInt = "9223372036854775807", "-9223372036854775808"
	exact := func(op func(z, x, y *big.Int) *big.Int, x, y string) string {
		a, _ := new(big.Int).SetString(x, 10)
		b, _ := new(big.Int).SetString(y, 10)
		return op(new(big.Int), a, b).String()
	}
	cases := []struct{ expr, want string }{
		{"activity.params.max + 1", exact((*big.Int).Add, maxInt, "1")},
		{"activity.params.max + activity.params.max", exact((*big.Int).Add, maxInt, maxInt)},
		{"activity.params.min - 1", exact((*big.Int).Sub, minInt, "1")},
		{"activity.params.max * activity.params.max", exact((*big.Int).Mul, maxInt, maxInt)},
		{"activity.params.min / -1", exact((*big.Int).Quo, minInt, "-1")},
		{"activity.params.min % -1", exact((*big.Int).Rem, minInt, "-1")},
		{"uint(activity.params.max) * 4u", exact((*big.Int).Mul, maxInt, "4")},
	}
	// The expected values travel as JSON numbers in the parameters, so that
	// they compare exactly at evaluation whatever their width.
	params := `{"max": ` + maxInt + `, "min": ` + minInt
	for i, c := range cases {
		params += fmt.Sprintf(`, "want%d": %s`, i, c.want)
	}
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, json.RawMessage(params+"}"))}
	for i, c := range cases {
		cond := fmt.Sprintf("%s == activity.params.want%d", c.expr, i)
		if r, err := mustCompile(t, cond, "").Run(in); err != nil || !r.Condition {
			t.Errorf("%s: want %s exactly; got %v, %v", c.expr, c.want, r.Condition, err)
		}
	}
	if _, err := mustCompile(t, "1u - 2u == 0u", "").Run(in); err == nil || !strings.Contains(err.Error(), "overflow") {
		t.Errorf("1u - 2u: %v; want the unsigned overflow error", err)
	}

	deny := Policy{ID: "deny-large", Effect: api.EffectDeny,
		Compiled: mustCompile(t, "activity.params.max + activity.params.max > 10000", "")}
	allow := Policy{ID: "allow-all", Effect: api.EffectAllow, Compiled: mustCompile(t, "true", "")}
	d := Decide([]Policy{deny, allow}, Input{Activity: in.Activity, Approvers: []Approver{{ID: "u1", Name: "al"}}},
		Quorum{Threshold: 1, UserIDs: []string{"root"}}, false)
	if d.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("a deny on the sum of two large amounts: %s (%s); want OUTCOME_DENY_EXPLICIT", d.Outcome, d.Reason)
	}
}

// Unary minus on -2^63 is 2^63, which the service's i128 holds: exact here,
// as the other 64-bit operations are, and the result compares with numbers
// of any width, so a DENY on it applies.
func TestNegatingMinInt64IsExact(t *testing.T) {
	minInt := new(big.Int).Lsh(big.NewInt(-1), 63)
	negated := new(big.Int).Neg(minInt)
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, json.RawMessage(fmt.Sprintf(
		`{"amount": %s, "negated": %s, "max": 9223372036854775807, "flag": true}`, minInt, negated)))}
	for _, cond := range []string{
		"-(activity.params.amount) == activity.params.negated",
		"-(-9223372036854775807 - 1) == activity.params.negated",
		"-(activity.params.amount) > activity.params.max",
		"-(activity.params.amount) > 9223372036854775807",
		"-(activity.params.amount) - 1 == activity.params.max",
		"-(-(activity.params.amount)) == activity.params.amount",
		"-(activity.params.amount) != 0.0",
		"-(activity.params.max) - 1 == activity.params.amount",
	} {
		if r, err := mustCompile(t, cond, "").Run(in); err != nil || !r.Condition {
			t.Errorf("%s: %v, %v; want true (-(-2^63) is %s)", cond, r.Condition, err, negated)
		}
	}
	// Minus on a value that is not a number (through dyn) stays an error.
	for _, cond := range []string{"-(activity.params.flag) == false", "-(dyn(uint(activity.params.max))) == 1"} {
		if _, err := mustCompile(t, cond, "").Run(in); err == nil {
			t.Errorf("%s: no evaluation error; minus needs an int or a double", cond)
		}
	}
	deny := Policy{ID: "deny-large", Effect: api.EffectDeny,
		Compiled: mustCompile(t, "-(activity.params.amount) > 10000", "")}
	allow := Policy{ID: "allow-all", Effect: api.EffectAllow, Compiled: mustCompile(t, "true", "")}
	d := Decide([]Policy{deny, allow}, Input{Activity: in.Activity, Approvers: []Approver{{ID: "u1", Name: "al"}}},
		Quorum{Threshold: 1, UserIDs: []string{"root"}}, false)
	if d.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("a deny on -(amount) with amount -2^63: %s (%s); want OUTCOME_DENY_EXPLICIT", d.Outcome, d.Reason)
	}
}
