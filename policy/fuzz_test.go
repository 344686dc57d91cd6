package policy

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// FuzzCompile checks that no expression makes Compile, Check, evaluation or
// the explanation of a decision panic, that errors are always *ExprError with a position inside the text,
// and that Check agrees with Compile. The seeds include every example policy
// of the real service's documentation.
func FuzzCompile(f *testing.F) {
	for _, ex := range loadDocExamples(f) {
		f.Add(ex.Condition, ex.Consensus, ex.Time)
	}
	for _, s := range []string{
		"",
		"approvers.any(user, user.id == 'u1')",
		"approvers.count() >= 2",
		"approvers.filter(user, user.tags.contains('ops')).count() >= 2",
		"approvers.all(user, user.tags.contains('ops'))",
		"credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256')",
		"activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'",
		"activity.resource == 'POLICY' && activity.action == 'CREATE'",
		"wallet.id in ['a','b']",
		"activity.params.userTagName.contains('ops')",
		"activity.params.userIds.count() > 1",
		"aprovers.count() >= 2",
		"activity.type = 'x'",
		"activity.type == \"x\"",
		"'''a\"b''' == ''",
		"((((((((((true))))))))))",
		"[1,2,3].map(x, [x, x]).count() > 0",
		"approvers.exists_one(u, u.id == 'x')",
		"has(wallet.id) && wallet.id.size() > 0",
		"activity.params.order / 0 == 1",
		"'\\u00e9' == 'é'",
		"1 in [1, 2, 3",
		"\xff\xfe",
		"a.b.c.d.e.f.g",
		"eth.tx.data[0..10] == '0xa9059cbb' && 'abc'[1] == 'b'",
		"solana.tx.transfers.count == 1",
		"eth.tx.value > 115792089237316195423570985008687907853269984665640564039457584007913129639935",
		"x[1..2..3]", "[..]", "]..[", "CronSpan(", "CronSpan()",
	} {
		f.Add(s, s, s)
	}
	in := input(alice, bob)
	in.Wallet = map[string]any{"id": "a"}
	in.Credentials = []Credential{{ID: "k", Type: api.CredentialAPIKeyP256, UserID: "u-alice"}}
	in.Payloads = map[string]map[string]any{
		PayloadEthTx:     {"to": "0xabc", "data": "0xa9059cbb00", "value": "1000000000000000000000", "contract_call_args": map[string]any{"wad": 5}},
		PayloadSolanaTx:  {"transfers": []any{map[string]any{"to": "x", "amount": 1}}},
		PayloadBitcoinTx: {"fee": 10, "outputs": []any{map[string]any{"value": 1}}},
	}
	in.Now = time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, condition, consensus, timeExpr string) {
		src := Source{Condition: condition, Consensus: consensus, Time: timeExpr}
		c, err := CompileSource(src)
		diags := CheckSource(src)
		if err != nil {
			var ee *ExprError
			if !errors.As(err, &ee) {
				t.Fatalf("Compile error %v is %T, want *ExprError", err, err)
			}
			text := map[string]string{FieldCondition: condition, FieldConsensus: consensus, FieldTime: timeExpr}[ee.Field]
			if ee.Line < 1 || ee.Column < 1 || ee.Line > strings.Count(text, "\n")+1 || ee.Column > utf8.RuneCountInString(text)+1 {
				t.Fatalf("position line %d column %d outside %q", ee.Line, ee.Column, text)
			}
			if len(diags) == 0 {
				t.Fatalf("Compile failed (%v) but Check found nothing", err)
			}
			return
		}
		if len(diags) != 0 {
			t.Fatalf("Compile succeeded but Check found %v", diags)
		}
		c.Evaluate(in)
		allow := Policy{ID: "p", Effect: api.EffectAllow, Compiled: c}
		for _, policies := range [][]Policy{{allow}, {allow, {ID: "q", Effect: api.EffectDeny, Compiled: c}}} {
			// What the console shows of a decision is worked out for any
			// policy: who decided, why, and who could still approve.
			d := Decide(policies, in, quorum, false)
			Decider(d)
			ExplainWith(d, in, []Approver{alice, bob, carol})
		}
		Simulate(nil, allow, in, quorum, false)
	})
}
