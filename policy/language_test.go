package policy

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// evalCondition compiles and runs a condition against an input.
func evalCondition(t *testing.T, condition string, in Input) (Result, error) {
	t.Helper()
	c, err := Compile(condition, "")
	if err != nil {
		t.Fatalf("%s: %v", condition, err)
	}
	return c.Run(in)
}

func paramsInput(params map[string]any) Input {
	return Input{Activity: ActivityFor(api.TypeCreateUserTag, params)}
}

// TestSlicingAgreesWithGo: x[a..b] on lists and strings is Go's x[a:b]
// (strings in characters), an index is Go's x[i]; bounds Go would refuse
// are evaluation errors, never a value.
func TestSlicingAgreesWithGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab0x9éü€ ")
	for range 400 {
		n := rng.IntN(7)
		list := make([]any, n)
		for i := range list {
			list[i] = int64(rng.IntN(5))
		}
		rs := make([]rune, rng.IntN(7))
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		a, b := rng.IntN(10)-2, rng.IntN(10)-2
		inRange := 0 <= a && a <= b && b <= n
		in := paramsInput(map[string]any{"xs": list, "s": string(rs)})

		var want []any
		if inRange {
			want = list[a:b]
		}
		r, err := evalCondition(t, fmt.Sprintf("activity.params.xs[%d..%d] == %s", a, b, celList(want)), in)
		if inRange != (err == nil) || err == nil && !r.Condition {
			t.Fatalf("%v[%d..%d]: result %+v, err %v; want %v", list, a, b, r, err, want)
		}

		strInRange := 0 <= a && a <= b && b <= len(rs)
		wantStr := ""
		if strInRange {
			wantStr = string(rs[a:b])
		}
		r, err = evalCondition(t, fmt.Sprintf("activity.params.s[%d..%d] == '%s'", a, b, wantStr), in)
		if strInRange != (err == nil) || err == nil && !r.Condition {
			t.Fatalf("%q[%d..%d]: result %+v, err %v; want %q", string(rs), a, b, r, err, wantStr)
		}

		i := rng.IntN(10) - 2
		if 0 <= i && i < len(rs) {
			r, err = evalCondition(t, fmt.Sprintf("activity.params.s[%d] == '%c'", i, rs[i]), in)
		} else {
			r, err = evalCondition(t, fmt.Sprintf("activity.params.s[%d] == ''", i), in)
			if err == nil {
				t.Fatalf("%q[%d] out of range evaluated to %+v", string(rs), i, r)
			}
			continue
		}
		if err != nil || !r.Condition {
			t.Fatalf("%q[%d]: %+v %v", string(rs), i, r, err)
		}
	}
	// Literals, as in the language table.
	for _, cond := range []string{"[1,2,3][0..2] == [1,2]", "'abc'[0..2] == 'ab'", "'abc'[0] == 'a'", "[1,2,3][0] == 1", "[[1,2],[3]][0][1] == 2"} {
		if r, err := evalCondition(t, cond, Input{}); err != nil || !r.Condition {
			t.Errorf("%s: %+v %v", cond, r, err)
		}
	}
}

func celList(xs []any) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// TestU256ComparisonsAgreeWithBig compares random numbers up to 2^256-1 (and
// negatives down to -2^127), as literals and as transaction values, with
// every comparison operator, against math/big.
func TestU256ComparisonsAgreeWithBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	random := func() *big.Int {
		switch rng.IntN(6) {
		case 0:
			return big.NewInt(rng.Int64N(1000) - 500)
		case 1: // around the int64 limits
			n := new(big.Int).Lsh(big.NewInt(1), 63)
			return n.Add(n, big.NewInt(rng.Int64N(5)-3))
		case 2:
			return new(big.Int).Neg(randBits(rng, 127))
		case 3:
			return new(big.Int).Set(maxUint256)
		}
		bits := uint(rng.IntN(256) + 1)
		return randBits(rng, bits)
	}
	ops := []struct {
		op   string
		want func(c int) bool
	}{
		{"<", func(c int) bool { return c < 0 }}, {"<=", func(c int) bool { return c <= 0 }},
		{">", func(c int) bool { return c > 0 }}, {">=", func(c int) bool { return c >= 0 }},
		{"==", func(c int) bool { return c == 0 }}, {"!=", func(c int) bool { return c != 0 }},
	}
	for range 300 {
		a, b := random(), random()
		if rng.IntN(4) == 0 {
			b = new(big.Int).Set(a)
		}
		op := ops[rng.IntN(len(ops))]
		want := op.want(a.Cmp(b))
		// As literals.
		r, err := evalCondition(t, fmt.Sprintf("%s %s %s", a, op.op, b), Input{})
		if err != nil || r.Condition != want {
			t.Fatalf("%s %s %s: %+v %v, want %v", a, op.op, b, r, err, want)
		}
		// A transaction value (u256) against a literal, both sides.
		if a.Sign() >= 0 {
			in := Input{Payloads: map[string]map[string]any{PayloadEthTx: {"value": a}}}
			r, err = evalCondition(t, fmt.Sprintf("eth.tx.value %s %s", op.op, b), in)
			if err != nil || r.Condition != want {
				t.Fatalf("value=%s %s %s: %+v %v, want %v", a, op.op, b, r, err, want)
			}
			r, err = evalCondition(t, fmt.Sprintf("%s %s eth.tx.value", b, op.op), in)
			if err != nil || r.Condition != op.want(b.Cmp(a)) {
				t.Fatalf("%s %s value=%s: %+v %v", b, op.op, a, r, err)
			}
		}
	}
	// A literal beyond u256 is refused where it stands.
	_, err := Compile("eth.tx.value < 115792089237316195423570985008687907853269984665640564039457584007913129639936", "")
	if ee := exprErr(t, err); ee.Column != 16 || !strings.Contains(ee.Message, "2^256") {
		t.Errorf("2^256 literal: %v", err)
	}
}

// randBits is a random number below 2^bits.
func randBits(rng *rand.Rand, bits uint) *big.Int {
	n := new(big.Int)
	for i := uint(0); i < bits; i += 64 {
		n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(rng.Uint64()))
	}
	return n.Rsh(n, uint((bits+63)/64*64-bits))
}

func exprErr(t *testing.T, err error) *ExprError {
	t.Helper()
	var ee *ExprError
	if !asExprError(err, &ee) {
		t.Fatalf("error %v (%T), want *ExprError", err, err)
	}
	return ee
}

// TestErrorsNameTheProblemAndItsPlace covers type errors, fields that do not
// exist and keywords used in the wrong field, each at its position in the
// text as written (also after a slice, which the dialect rewrites).
func TestErrorsNameTheProblemAndItsPlace(t *testing.T) {
	tests := []struct {
		src       Source
		field     string
		line, col int
		mention   string
	}{
		{Source{Condition: "eth.tx.nope == 1"}, FieldCondition, 1, 7, "undefined field 'nope'"},
		{Source{Condition: "eth.tx.data[0..10] == '0x' && eth.tx.too == 'a'"}, FieldCondition, 1, 37, "did you mean 'to'"},
		{Source{Condition: "eth.tx.value == 'a lot'"}, FieldCondition, 1, 14, "no matching overload"},
		{Source{Condition: "wallet.imported == 1"}, FieldCondition, 1, 17, "no matching overload"},
		{Source{Condition: "solana.tx.transfers[0].amount.contains('x')"}, FieldCondition, 1, 31, "'contains' applied to 'int.(string)'"},
		{Source{Condition: "'abc'[0] == 1"}, FieldCondition, 1, 10, "no matching overload"},
		{Source{Condition: "[1,2][0..'a'] == [1]"}, FieldCondition, 1, 6, "slice"},
		{Source{Condition: "x[..2] == []"}, FieldCondition, 1, 3, "start and an end"},
		{Source{Condition: "approvers.count() > 1"}, FieldCondition, 1, 1, "only available in the consensus"},
		{Source{Consensus: "activity.kind == 'X'"}, FieldConsensus, 1, 1, "only available in the condition"},
		{Source{Consensus: "eth.tx.to == 'x'"}, FieldConsensus, 1, 1, "only available in the condition"},
		{Source{Condition: "time.now > Timestamp('2025-01-01T00:00:00Z')"}, FieldCondition, 1, 1, "only available in the time"},
		{Source{Condition: "activity.kind == 'X' &&\n  CronSpan('0 9 * * 1-5', '8h', 'UTC')"}, FieldCondition, 2, 3, "CronSpan() is only available in the time field"},
		{Source{Time: "activity.kind == 'X'"}, FieldTime, 1, 1, "only available in the condition"},
		{Source{Time: "time.now > Timestamp('2025-01-01T00:00:00-05:00')"}, FieldTime, 1, 22, "zero offset"},
		{Source{Time: "time.now > Timestamp('yesterday')"}, FieldTime, 1, 22, "RFC 3339"},
		{Source{Time: "CronSpan('*/5 * * * *', '8h', 'UTC')"}, FieldTime, 1, 10, "steps"},
		{Source{Time: "CronSpan('0 9 * * MON', '8h', 'UTC')"}, FieldTime, 1, 10, "not a number"},
		{Source{Time: "CronSpan('@daily', '8h', 'UTC')"}, FieldTime, 1, 10, "5"},
		{Source{Time: "CronSpan('0 9 * * *', '1.5h', 'UTC')"}, FieldTime, 1, 23, "whole"},
		{Source{Time: "CronSpan('0 9 * * *', '8d', 'UTC')"}, FieldTime, 1, 23, "7 days"},
		{Source{Time: "CronSpan('0 9 * * *', '8h', 'Mars/Olympus')"}, FieldTime, 1, 29, "IANA"},
		{Source{Time: "CronSpan('0 9 * * *', '8h')"}, FieldTime, 1, 1, "'CronSpan' applied to '(string, string)'"},
		{Source{Condition: "bitcoin.tx.outputs.all(o, o.address == <BITCOIN_ADDRESS>)"}, FieldCondition, 1, 40, "placeholder"},
	}
	for _, tc := range tests {
		_, err := CompileSource(tc.src)
		if err == nil {
			t.Errorf("%+v compiled", tc.src)
			continue
		}
		ee := exprErr(t, err)
		if ee.Field != tc.field || ee.Line != tc.line || ee.Column != tc.col || !strings.Contains(ee.Message, tc.mention) {
			t.Errorf("%+v:\n got %v\nwant %s: line %d, column %d: …%s…", tc.src, err, tc.field, tc.line, tc.col, tc.mention)
		}
		if len(CheckSource(tc.src)) == 0 {
			t.Errorf("%+v: Check found nothing", tc.src)
		}
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestTimeExpressions checks time.now, Timestamp and CronSpan against the
// documented behaviour, with the clock injected.
func TestTimeExpressions(t *testing.T) {
	tests := []struct {
		time, now string
		active    bool
	}{
		{"time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')", "2026-03-01T00:00:00Z", true},
		{"time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')", "2026-04-01T00:00:00Z", false},
		{"time.now == Timestamp('2026-03-01t10:00:00+00:00')", "2026-03-01T10:00:00Z", true},
		{"time.now == Timestamp('2026-03-01T10:00:00-00:00')", "2026-03-01T10:00:00Z", true},
		{"time.now == Timestamp('2026-03-01T10:00:00z')", "2026-03-01T10:00:00Z", true},
		// The docs: after spring-forward the overnight window ends at 7:00 local, after fall-back at 5:00.
		{"CronSpan('0 22 * * *', '8h', 'America/New_York')", "2026-03-08T10:59:00Z", true}, // 06:59 EDT
		{"CronSpan('0 22 * * *', '8h', 'America/New_York')", "2026-03-08T11:00:00Z", false},
		{"CronSpan('0 22 * * *', '8h', 'America/New_York')", "2026-11-01T09:59:00Z", true}, // 04:59 EST
		{"CronSpan('0 22 * * *', '8h', 'America/New_York')", "2026-11-01T10:00:00Z", false},
		// Business hours follow daylight saving: 9:00 is 14:00Z in winter, 13:00Z in summer.
		{"CronSpan('0 9 * * 1-5', '8h', 'America/New_York')", "2026-01-14T13:59:00Z", false},
		{"CronSpan('0 9 * * 1-5', '8h', 'America/New_York')", "2026-01-14T14:00:00Z", true},
		{"CronSpan('0 9 * * 1-5', '8h', 'America/New_York')", "2026-07-15T13:00:00Z", true},
		{"CronSpan('0 9 * * 1-5', '8h', 'America/New_York')", "2026-07-18T15:00:00Z", false}, // Saturday
		// Day of month and day of week are OR'd when both are restricted.
		{"CronSpan('0 9 1 * 1', '1h', 'UTC')", "2026-07-01T09:30:00Z", true},  // the 1st, a Wednesday
		{"CronSpan('0 9 1 * 1', '1h', 'UTC')", "2026-07-06T09:30:00Z", true},  // a Monday
		{"CronSpan('0 9 1 * 1', '1h', 'UTC')", "2026-07-07T09:30:00Z", false}, // neither
		// Lists, ranges, multi-day windows.
		{"CronSpan('15,45 8-9 * 2 *', '10m', 'UTC')", "2026-02-10T09:50:00Z", true},
		{"CronSpan('15,45 8-9 * 2 *', '10m', 'UTC')", "2026-02-10T09:56:00Z", false},
		{"CronSpan('0 0 * * 0', '6d23h59m', 'Europe/Paris')", "2026-05-16T21:00:00Z", true},
		{"!CronSpan('0 2 * * *', '1h', 'UTC')", "2026-05-16T02:30:00Z", false},
	}
	for _, tc := range tests {
		c, err := CompileSource(Source{Time: tc.time})
		if err != nil {
			t.Fatalf("%s: %v", tc.time, err)
		}
		r, err := c.Run(Input{Now: mustTime(t, tc.now)})
		if err != nil || r.Active != tc.active {
			t.Errorf("%s at %s: active %v (%v), want %v", tc.time, tc.now, r.Active, err, tc.active)
		}
	}
	// No clock: a time expression cannot be evaluated.
	c, _ := CompileSource(Source{Time: "time.now > Timestamp('2020-01-01T00:00:00Z')"})
	if _, err := c.Run(Input{}); err == nil || !strings.Contains(err.Error(), "clock") {
		t.Errorf("without a clock: %v", err)
	}
}

// TestTimeInactivePolicyIsSkipped: a false time makes the policy
// OUTCOME_TIME_INACTIVE; neither its allow nor its deny counts.
func TestTimeInactivePolicyIsSkipped(t *testing.T) {
	mk := func(id, effect, tm string) Policy {
		c, err := CompileSource(Source{Condition: "activity.kind == 'CREATE_USER_TAG'", Time: tm})
		if err != nil {
			t.Fatal(err)
		}
		return Policy{ID: id, Effect: effect, Compiled: c}
	}
	in := input(alice)
	in.Now = mustTime(t, "2026-03-18T15:00:00Z")
	ps := []Policy{
		mk("deny-at-night", api.EffectDeny, "CronSpan('0 22 * * *', '8h', 'UTC')"),
		mk("allow-in-2026", api.EffectAllow, "time.now < Timestamp('2027-01-01T00:00:00Z')"),
	}
	d := Decide(ps, in, quorum, false)
	if d.Outcome != api.OutcomeAllow || d.Policies[0].Outcome != api.OutcomeTimeInactive ||
		!strings.Contains(d.Reason, "inactive at this time: deny-at-night") {
		t.Fatalf("daytime: %+v", d)
	}
	in.Now = mustTime(t, "2026-03-18T23:00:00Z")
	if d := Decide(ps, in, quorum, false); d.Outcome != api.OutcomeDenyExplicit {
		t.Fatalf("at night: %+v", d)
	}
	in.Now = mustTime(t, "2027-03-18T15:00:00Z")
	if d := Decide(ps, in, quorum, false); d.Outcome != api.OutcomeDenyImplicit ||
		!slices.Equal([]string{d.Policies[0].Outcome, d.Policies[1].Outcome}, []string{api.OutcomeTimeInactive, api.OutcomeTimeInactive}) {
		t.Fatalf("in 2027: %+v", d)
	}
}

// TestMissingKeywordIsExplained: the decision says which policy did not
// apply and which keyword the activity lacked.
func TestMissingKeywordIsExplained(t *testing.T) {
	p := mustPolicy(t, "tx-allow", api.EffectAllow, "activity.kind == 'CREATE_USER_TAG' && eth.tx.value < 10", "")
	d := Decide([]Policy{p}, input(alice), quorum, false)
	if d.Outcome != api.OutcomeDenyImplicit || !strings.Contains(d.Reason, "tx-allow (reads eth.tx)") {
		t.Fatalf("%+v", d)
	}
}

// TestPayloadsAreChecked: a payload must have the documented shape.
func TestPayloadsAreChecked(t *testing.T) {
	c, _ := Compile("eth.tx.value > 0", "")
	for _, p := range []map[string]map[string]any{
		{PayloadEthTx: {"valu": 1}},
		{PayloadEthTx: {"value": "lots"}},
		{PayloadSolanaTx: {"transfers": []any{map[string]any{"amount": true}}}},
		{"eth.txn": {}},
	} {
		if _, err := c.Run(Input{Payloads: p}); err == nil {
			t.Errorf("payload %v accepted", p)
		}
	}
	r, err := c.Run(Input{Payloads: map[string]map[string]any{PayloadEthTx: {"value": "1000000000000000000000"}}})
	if err != nil || !r.Condition {
		t.Errorf("decimal string value: %+v %v", r, err)
	}
}

func TestKindOf(t *testing.T) {
	for typ, want := range map[string]string{
		"ACTIVITY_TYPE_SIGN_TRANSACTION_V2":        "SIGN_TRANSACTION",
		"ACTIVITY_TYPE_SIGN_TRANSACTION":           "SIGN_TRANSACTION",
		"ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8": "CREATE_SUB_ORGANIZATION",
		"ACTIVITY_TYPE_CREATE_POLICY_V3":           "CREATE_POLICY",
		"ACTIVITY_TYPE_INIT_OTP_AUTH_V3":           "INIT_OTP_AUTH",
		"ACTIVITY_TYPE_OAUTH2_AUTHENTICATE":        "OAUTH2_AUTHENTICATE",
		"ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE":   "",
		"NOT_AN_ACTIVITY":                          "",
	} {
		if got := KindOf(typ); got != want {
			t.Errorf("KindOf(%s) = %q, want %q", typ, got, want)
		}
	}
	if res, act, ok := ResourceAction("ACTIVITY_TYPE_SIGN_TRANSACTION"); !ok || res != "PRIVATE_KEY" || act != "SIGN" {
		t.Errorf("an older version of a documented type: %s %s %v", res, act, ok)
	}
}

// TestHandBuiltActivityGetsItsKind: an Activity without kind, resource and
// action (built by hand, not by ActivityFor) is seen with those its type
// implies, before and inside CEL alike.
func TestHandBuiltActivityGetsItsKind(t *testing.T) {
	in := Input{Activity: Activity{Type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2"}}
	for _, cond := range []string{"activity.kind == 'SIGN_TRANSACTION'", "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'",
		"activity.kind.startsWith('SIGN') && activity.action == 'SIGN'"} {
		if r, err := evalCondition(t, cond, in); err != nil || !r.Condition {
			t.Errorf("%s: %+v %v", cond, r, err)
		}
	}
}

// TestDynArgumentsFailCleanly: dyn() gets any value past the checker; the
// functions refuse it with an evaluation error instead of panicking.
func TestDynArgumentsFailCleanly(t *testing.T) {
	in := Input{Now: mustTime(t, "2026-01-01T00:00:00Z")}
	for _, src := range []Source{
		{Time: "Timestamp(dyn(1)) < time.now"},
		{Time: "CronSpan(dyn(1), '8h', 'UTC')"},
		{Time: "CronSpan('* * * * *', dyn(true), 'UTC')"},
		{Condition: "_vnum(dyn(1)) > 0"},
		{Condition: "_vnum('1' + '0000000000000000000000000000000000000000000000000000000000000000000000000000000') > 0"},
		{Condition: "[1][dyn('a')] == 1"},
		{Condition: "'abc'[dyn(1.5)] == 'b'"},
		{Condition: "dyn(1)[0..1] == []"},
	} {
		c, err := CompileSource(src)
		if err != nil {
			continue // refused by the checker: fine too
		}
		if _, err := c.Run(in); err == nil {
			t.Errorf("%+v evaluated without error", src)
		}
	}
}
