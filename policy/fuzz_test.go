package policy

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// FuzzCompile checks that no expression makes Compile, Check or evaluation
// panic, that errors are always *ExprError with a position inside the text,
// and that Check agrees with Compile.
func FuzzCompile(f *testing.F) {
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
	} {
		f.Add(s, s)
	}
	in := input(alice, bob)
	in.Wallet = map[string]any{"id": "a"}
	in.Credentials = []Credential{{ID: "k", Type: api.CredentialAPIKeyP256, UserID: "u-alice"}}
	f.Fuzz(func(t *testing.T, condition, consensus string) {
		c, err := Compile(condition, consensus)
		diags := Check(condition, consensus)
		if err != nil {
			var ee *ExprError
			if !errors.As(err, &ee) {
				t.Fatalf("Compile error %v is %T, want *ExprError", err, err)
			}
			src := condition
			if ee.Field == FieldConsensus {
				src = consensus
			}
			if ee.Line < 1 || ee.Column < 1 || ee.Line > strings.Count(src, "\n")+1 || ee.Column > utf8.RuneCountInString(src)+1 {
				t.Fatalf("position line %d column %d outside %q", ee.Line, ee.Column, src)
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
		Decide([]Policy{{ID: "p", Effect: api.EffectAllow, Compiled: c}, {ID: "q", Effect: api.EffectDeny, Compiled: c}}, in, quorum, false)
	})
}
