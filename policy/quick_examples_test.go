package policy

import (
	"github.com/vigil-console/vigil/api"
	"math/big"
	"testing"
	"time"
)

// The expressions docs/policy-language.md shows (its quick examples, the
// time field, the syntax table, typed equality), each evaluated against an
// input it matches and one it does not, and the ones it says are refused.
func TestPolicyLanguageDocExpressions(t *testing.T) {
	ops := Approver{ID: "u1", Name: "alice", Tags: []string{"t-ops"}}
	ops2 := Approver{ID: "u2", Name: "bob", Tags: []string{"t-ops"}}
	plain := Approver{ID: "u3", Name: "carol"}
	act := func(typ string, params any) Activity { return ActivityFor(typ, params) }
	type tc struct {
		cond, cons, tm string
		in             Input
		want           bool
	}
	polCreate := act("ACTIVITY_TYPE_CREATE_POLICY_V3", map[string]any{})
	del := act("ACTIVITY_TYPE_DELETE_API_KEYS", map[string]any{"userId": "u1", "apiKeyIds": []any{"k1"}})
	del2 := act("ACTIVITY_TYPE_DELETE_API_KEYS", map[string]any{"userId": "u1", "apiKeyIds": []any{"k1", "k2"}})
	tag := act("ACTIVITY_TYPE_CREATE_USER_TAG", map[string]any{"userTagName": "x"})
	sign := act("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", map[string]any{"encoding": "PAYLOAD_ENCODING_EIP712"})
	sign2 := act("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", map[string]any{"encoding": "PAYLOAD_ENCODING_HEXADECIMAL"})
	cases := []tc{
		{"activity.resource == 'POLICY' && activity.action == 'CREATE'", "approvers.filter(user, user.tags.contains('t-ops')).count() >= 2", "", Input{Activity: polCreate, Approvers: []Approver{ops, ops2}}, true},
		{"activity.resource == 'POLICY' && activity.action == 'CREATE'", "approvers.filter(user, user.tags.contains('t-ops')).count() >= 2", "", Input{Activity: polCreate, Approvers: []Approver{ops, plain}}, false},
		{"", "approvers.any(user, user.id == 'u3')", "", Input{Activity: tag, Approvers: []Approver{ops, plain}}, true},
		{"", "approvers.any(user, user.id == 'u3')", "", Input{Activity: tag, Approvers: []Approver{ops}}, false},
		{"", "approvers.count() >= 2", "", Input{Activity: tag, Approvers: []Approver{ops, plain}}, true},
		{"", "approvers.count() >= 2", "", Input{Activity: tag, Approvers: []Approver{ops}}, false},
		{"", "approvers.all(user, user.tags.contains('t-ops'))", "", Input{Activity: tag, Approvers: []Approver{ops, ops2}}, true},
		{"", "approvers.all(user, user.tags.contains('t-ops'))", "", Input{Activity: tag, Approvers: []Approver{ops, plain}}, false},
		{"", "credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256')", "", Input{Activity: tag, Approvers: []Approver{ops}, Credentials: []Credential{{ID: "k", Type: "CREDENTIAL_TYPE_API_KEY_P256"}}}, true},
		{"", "credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256')", "", Input{Activity: tag, Approvers: []Approver{ops}, Credentials: []Credential{{ID: "k", Type: "CREDENTIAL_TYPE_OAUTH_KEY_P256"}}}, false},
		{"activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'", "", "", Input{Activity: polCreate}, true},
		{"activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'", "", "", Input{Activity: tag}, false},
		{"activity.action == 'DELETE'", "", "", Input{Activity: del}, true},
		{"activity.action == 'DELETE'", "", "", Input{Activity: tag}, false},
		{"activity.params.encoding == 'PAYLOAD_ENCODING_EIP712'", "", "", Input{Activity: sign}, true},
		{"activity.params.encoding == 'PAYLOAD_ENCODING_EIP712'", "", "", Input{Activity: sign2}, false},
		{"activity.params.api_key_ids.count() == 1", "", "", Input{Activity: del}, true},
		{"activity.params.api_key_ids.count() == 1", "", "", Input{Activity: del2}, false},
		{"wallet.id in ['wa', 'wb']", "", "", Input{Activity: sign, Wallet: map[string]any{"id": "wa"}}, true},
		{"wallet.id in ['wa', 'wb']", "", "", Input{Activity: sign, Wallet: map[string]any{"id": "wc"}}, false},
		{"secret.static_properties['kind'] == 'creditCard'", "", "", Input{Activity: act("ACTIVITY_TYPE_EXPORT_SECRETS", nil), Secret: map[string]any{"static_properties": map[string]any{"kind": "creditCard"}}}, true},
		{"secret.static_properties['kind'] == 'creditCard'", "", "", Input{Activity: act("ACTIVITY_TYPE_EXPORT_SECRETS", nil), Secret: map[string]any{"static_properties": map[string]any{"kind": "x"}}}, false},
		{"activity.params.consensus == ''", "", "", Input{Activity: act("ACTIVITY_TYPE_CREATE_POLICY_V3", api.CreatePolicyParams{PolicyName: "p"})}, true},
		{"activity.params.consensus == ''", "", "", Input{Activity: act("ACTIVITY_TYPE_CREATE_POLICY_V3", api.CreatePolicyParams{PolicyName: "p", Consensus: "x"})}, false},
		{"activity.params.user_tag_name == 'x'", "", "", Input{Activity: tag}, true},
		{"activity.params.userTagName == 'y'", "", "", Input{Activity: tag}, false},
		{"-7 / 2 == -3 && -7 % 2 == -1", "", "", Input{Activity: tag}, true},
		{"activity.params.big in {18446744073709551615: true}", "", "", Input{Activity: act("ACTIVITY_TYPE_CREATE_USER_TAG", map[string]any{"big": new(big.Int).SetUint64(18446744073709551615)})}, true},
		{"'abc'[0] == 'a' && [1,2,3][0..2] == [1,2]", "", "", Input{Activity: tag}, true},
		{"'''multi\nline''' != ''", "", "", Input{Activity: tag}, true},
		{"activity.params.user_tag_name.matches('^x$')", "", "", Input{Activity: tag}, true},
		{"", "", "CronSpan('0 22 * * *', '8h', 'America/New_York')", Input{Activity: tag, Now: time.Date(2026, 3, 8, 6, 30, 0, 0, time.FixedZone("", -4*3600))}, true},
		{"", "", "CronSpan('0 22 * * *', '8h', 'America/New_York')", Input{Activity: tag, Now: time.Date(2026, 3, 8, 7, 30, 0, 0, time.FixedZone("", -4*3600))}, false},
		{"", "", "time.now > Timestamp('2026-01-01T00:00:00Z')", Input{Activity: tag, Now: time.Date(2026, 3, 9, 7, 30, 0, 0, time.UTC)}, true},
		{"", "", "time.now > Timestamp('2026-01-01T00:00:00+00:00')", Input{Activity: tag, Now: time.Date(2025, 3, 9, 7, 30, 0, 0, time.UTC)}, false},
	}
	for i, c := range cases {
		comp, err := CompileSource(Source{Condition: c.cond, Consensus: c.cons, Time: c.tm})
		if err != nil {
			t.Errorf("#%d compile %q %q %q: %v", i, c.cond, c.cons, c.tm, err)
			continue
		}
		r, err := comp.Run(c.in)
		got := r.Active && r.Condition && r.Consensus
		if c.cons == "" {
			got = r.Active && r.Condition
		}
		if err != nil || got != c.want {
			t.Errorf("#%d %q %q %q: got %v (%+v) err %v, want %v", i, c.cond, c.cons, c.tm, got, r, err, c.want)
		}
	}
	for _, bad := range []string{"activity.params.otp_length == '6'", "activity.action in ['DELETE', 1]", "1 == 1.0", "activity.params.user_id in [1, 2]", "activity.params.api_key_ids in ['k-1']", "1 in activity.params.user_ids", "activity.params.encoding.contains(1)", "6 in activity.params.otp_length", "activity.params.label.matches(activity.params.x)"} {
		if _, err := Compile(bad, ""); err == nil {
			t.Errorf("compiled %q, doc says refused", bad)
		} else {
			t.Logf("%q: %v", bad, err)
		}
	}
	for _, bad := range []string{"approvers.count() > 0"} {
		if _, err := Compile(bad, ""); err == nil {
			t.Errorf("compiled %q in condition", bad)
		} else {
			t.Logf("%q: %v", bad, err)
		}
	}
	if _, err := CompileSource(Source{Condition: "CronSpan('* * * * *', '1h', 'UTC')"}); err == nil {
		t.Errorf("CronSpan in condition compiled")
	} else {
		t.Log(err)
	}
	for _, bad := range []string{"CronSpan('*/5 * * * *', '1h', 'UTC')", "CronSpan('* * * * *', '8d', 'UTC')", "CronSpan('* * * * *', '99999999999999999999999d', 'UTC')", "Timestamp('2026-01-01T00:00:00+01:00') < time.now", "CronSpan('@daily', '1h', 'UTC')"} {
		if _, err := CompileSource(Source{Time: bad}); err == nil {
			t.Errorf("time %q compiled", bad)
		} else {
			t.Logf("%q: %v", bad, err)
		}
	}
}
