package policy

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func mustCompile(t *testing.T, cond, cons string) *Compiled {
	t.Helper()
	c, err := Compile(cond, cons)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wideParams is an activity whose params are the given JSON object.
func wideParams(t *testing.T, params map[string]*big.Int) Input {
	t.Helper()
	fields := make([]string, 0, len(params))
	for k, v := range params {
		fields = append(fields, fmt.Sprintf("%q: %s", k, v))
	}
	return Input{Activity: ActivityFor(api.TypeCreateUserTag, json.RawMessage("{"+strings.Join(fields, ",")+"}"))}
}

func bigOf(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad number %s", s)
	}
	return n
}

// "Deny sending 5 ETH or more", written with a division, must deny 10 ETH
// (1e19 wei, beyond 2^63) as it denies 6 ETH: were the division to fail,
// the deny would be ignored and the allow would allow the transfer.
func TestDenyByDivisionHoldsForAmountsBeyond64Bits(t *testing.T) {
	deny := Policy{ID: "deny-big", Effect: api.EffectDeny, Compiled: mustCompile(t, "eth.tx.value / 1000000000000000000 >= 5", "")}
	allow := Policy{ID: "allow-all", Effect: api.EffectAllow, Compiled: mustCompile(t, "has(eth.tx)", "")}
	for _, wei := range []string{"6000000000000000000", "10000000000000000000", "115792089237316195423570985008687907853269984665640564039457584007913129639935"} {
		in := Input{Activity: ActivityFor("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", nil),
			Payloads:  map[string]map[string]any{PayloadEthTx: {"value": wei, "to": "0xabc"}},
			Approvers: []Approver{{ID: "u1", Name: "al"}}}
		d := Decide([]Policy{deny, allow}, in, Quorum{Threshold: 1, UserIDs: []string{"root"}}, false)
		if d.Outcome != api.OutcomeDenyExplicit {
			t.Errorf("%s wei: %s (%s); want OUTCOME_DENY_EXPLICIT", wei, d.Outcome, d.Reason)
		}
	}
}

// `/` and `%` are exact, truncated toward zero like Go's big.Int Quo and
// Rem, for every pairing of a number beyond 64 bits with an int, a uint or
// another wide number, on either side.
func TestWideDivisionAndModuloAreExact(t *testing.T) {
	wides := []string{"18446744073709551615", "-1267650600228229401496703205376", "57896044618658097711785492504343953926634992332820282019728792003956564819967"}
	type operand struct {
		text string   // as written in the condition
		n    *big.Int // its value
	}
	var cases [][2]operand
	for _, w := range wides {
		wide := operand{"activity.params.w", bigOf(t, w)}
		for _, small := range []operand{{"7", big.NewInt(7)}, {"-3", big.NewInt(-3)}, {"3u", big.NewInt(3)}} {
			cases = append(cases, [2]operand{wide, small}, [2]operand{small, wide})
		}
		for _, w2 := range wides {
			cases = append(cases, [2]operand{wide, {"activity.params.v", bigOf(t, w2)}})
		}
	}
	for _, c := range cases {
		for _, op := range []struct {
			sym string
			fn  func(z, x, y *big.Int) *big.Int
		}{{"/", (*big.Int).Quo}, {"%", (*big.Int).Rem}} {
			want := op.fn(new(big.Int), c[0].n, c[1].n)
			cond := fmt.Sprintf("%s %s %s == activity.params.want", c[0].text, op.sym, c[1].text)
			params := map[string]*big.Int{"want": want}
			for _, o := range c {
				switch o.text {
				case "activity.params.w":
					params["w"] = o.n
				case "activity.params.v":
					params["v"] = o.n
				}
			}
			r, err := mustCompile(t, cond, "").Run(wideParams(t, params))
			if err != nil || !r.Condition {
				t.Errorf("%s with w=%v v=%v: %v, %v; want true (the result is %s)", cond, params["w"], params["v"], r.Condition, err, want)
			}
		}
	}
}

// Dividing a wide number by zero is an evaluation error that says so.
func TestWideDivisionByZeroIsAClearError(t *testing.T) {
	in := wideParams(t, map[string]*big.Int{"w": bigOf(t, "18446744073709551615"), "zero": big.NewInt(0)})
	for cond, want := range map[string]string{
		"activity.params.w / 0 == 1":                    "division by zero",
		"activity.params.w % activity.params.zero == 1": "modulo by zero",
		"activity.params.w / 0u == 1u":                  "division by zero",
	} {
		_, err := mustCompile(t, cond, "").Run(in)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: %v; want an error saying %q", cond, err, want)
		}
	}
}

// A map literal keyed by a number beyond 64 bits finds it, whether the
// number is written in the expression or read from the activity, and a
// missing one is reported by its digits, not by a Go pointer.
func TestMapKeyedByWideNumberFindsIt(t *testing.T) {
	const w = "18446744073709551615"
	in := wideParams(t, map[string]*big.Int{"w": bigOf(t, w), "other": bigOf(t, w+"0")})
	for _, cond := range []string{
		"activity.params.w in {" + w + ": true}",
		"{" + w + ": 1}[activity.params.w] == 1",
		"{activity.params.w: 1}[" + w + "] == 1",
		"activity.params.w in {" + w + "u: true}",
		"{activity.params.w: 1}[" + w + "u] == 1",
	} {
		r, err := mustCompile(t, cond, "").Run(in)
		if err != nil || !r.Condition {
			t.Errorf("%s: %v, %v; want true", cond, r.Condition, err)
		}
	}
	_, err := mustCompile(t, "{"+w+": 1}[activity.params.other] == 1", "").Run(in)
	if err == nil || !strings.Contains(err.Error(), w+"0") || strings.Contains(err.Error(), "0x") {
		t.Errorf("missing wide key: %v; want an error naming %s0", err, w)
	}
}
