package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A condition comparing activity.type, kind, resource or action with a value
// no activity has compiles, yet never matches: a deny written so never
// denies. Warnings says so, naming the value likely meant (audit 212, F1).
func TestWarningsOnActivityValuesNoActivityHas(t *testing.T) {
	del := Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, map[string]any{"userId": "u2", "apiKeyIds": []any{"k1"}}),
		Approvers: []Approver{{ID: "u1", Name: "mallory"}}}
	allow := mustPolicy(t, "allow-all", api.EffectAllow, "true", "")
	for _, tc := range []struct {
		condition string
		want      []string // substrings of the one warning
	}{
		{"activity.action == 'delete'", []string{`"delete" is never an activity.action`, "upper case: 'DELETE'", "never denies"}},
		{"activity.resource == 'API_KEY'", []string{`"API_KEY"`, "'CREDENTIAL'"}},
		{"activity.kind == 'DELETE_API_KEYS_V1'", []string{"a kind has no version: 'DELETE_API_KEYS'"}},
		{"activity.type == 'ACTIVITY_TYPE_DELETE_API_KEY'", []string{"'ACTIVITY_TYPE_DELETE_API_KEYS'"}},
		{"activity.action == 'DЕLETE'", []string{`"D\u0415LETE"`, "docs/policy-language.md"}}, // Cyrillic Е, shown escaped
		// reversed, !=, in, and nested anywhere
		{"'delete' == activity.action", []string{"'DELETE'"}},
		{"activity.action != 'delete'", []string{"always true"}},
		{"activity.action in ['CREATE', 'delete']", []string{`"delete"`}},
		{"true && (false || !(activity.resource in ['wallet']))", []string{"'WALLET'"}},
	} {
		if ds := Check(tc.condition, ""); len(ds) != 0 {
			t.Errorf("%s: refused %v (a warning must not refuse: a newer service may add values)", tc.condition, ds)
			continue
		}
		ws := Warnings(Source{Condition: tc.condition})
		if len(ws) != 1 {
			t.Errorf("%s: %d warnings %v, want 1", tc.condition, len(ws), ws)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(ws[0].Message, w) {
				t.Errorf("%s: warning %q lacks %q", tc.condition, ws[0].Message, w)
			}
		}
		if strings.ContainsRune(ws[0].Message, 'Е') {
			t.Errorf("%s: warning %q shows a look-alike unescaped", tc.condition, ws[0].Message)
		}
		if strings.HasPrefix(tc.condition, "activity.") && strings.Contains(tc.condition, "==") {
			// The reason for the warning: beside an allow-all, such a deny lets a key deletion through.
			d := Decide([]Policy{allow, mustPolicy(t, "deny", api.EffectDeny, tc.condition, "")}, del,
				Quorum{Threshold: 2, UserIDs: []string{"r1", "r2"}}, false)
			if d.Outcome != api.OutcomeAllow {
				t.Errorf("%s: a deny gives %s, want it never to match (the warning's premise)", tc.condition, d.Outcome)
			}
		}
	}
}

// Every value of the tables, of every field, is one an activity has: none is
// warned of. The values are read from the tables themselves (the real
// service's documented rows and this service's own types), not a hand list.
func TestWarningsSpareEveryValueOfTheTables(t *testing.T) {
	check := func(field, v string) {
		t.Helper()
		for _, cond := range []string{
			"activity." + field + " == '" + v + "'",
			"'" + v + "' != activity." + field,
			"activity." + field + " in ['" + v + "']",
		} {
			if ws := Warnings(Source{Condition: cond}); len(ws) != 0 {
				t.Errorf("%s: warned %v, yet it is a value of the tables", cond, ws)
			}
		}
	}
	n := 0
	for _, table := range []map[string][2]string{documentedResourceActions, resourceActions} {
		for typ, ra := range table {
			n++
			check("type", typ)
			if k := KindOf(typ); k != "" {
				check("kind", k)
			}
			check("resource", ra[0])
			check("action", ra[1])
		}
	}
	for typ := range rootQuorumTypes {
		check("type", typ)
	}
	if n < 80 {
		t.Fatalf("only %d types in the tables: the test covers too little", n)
	}
	// The docs' lists of resources and actions (features/policies/language.mdx,
	// "Activity resources and actions").
	for _, r := range strings.Fields("AUTH AUTH_PROXY CONFIG CREDENTIAL INVITATION ORGANIZATION OTP PAYMENT_METHOD POLICY " +
		"PRIVATE_KEY RECOVERY SMART_CONTRACT_INTERFACE SUBSCRIPTION TVC_APP TVC_DEPLOYMENT TVC_OPERATOR TVC_QUORUM_KEY USER WALLET WEBHOOK_ENDPOINT") {
		check("resource", r)
	}
	for _, a := range strings.Fields("CREATE UPDATE DELETE SIGN EXPORT IMPORT VERIFY ENCRYPT") {
		check("action", a)
	}
}

// How the warning says the comparison reads follows where it stands: one
// dead element of an `in` list leaves the others matching, and under a `!`
// a dead == makes a deny deny every time, not never (audit 220, L4).
func TestActivityValueWarningFollowsItsContext(t *testing.T) {
	for _, tc := range []struct {
		condition     string
		want, notWant string
	}{
		{"activity.type in ['ACTIVITY_TYPE_DELETE_API_KEYS', 'delete_api_keys']", "this value never matches; the others in the list still can", "never denies"},
		{"activity.type in ['delete_api_keys']", "never true (a deny written on it never denies)", "the others"},
		{"activity.action == 'DELETE' && !(activity.type == 'delete_api_keys')", `"delete_api_keys" is never an activity.type:`, "never"},
		{"!(activity.action != 'delete')", `"delete" is never an activity.action:`, "always true"},
		{"activity.action == 'DELETE' || activity.type == 'delete_api_keys'", "never denies", "always"},
	} {
		ws := Warnings(Source{Condition: tc.condition})
		if len(ws) != 1 {
			t.Errorf("%s: %d warnings %v, want 1", tc.condition, len(ws), ws)
			continue
		}
		rest := strings.Replace(ws[0].Message, tc.want, "", 1)
		if !strings.Contains(ws[0].Message, tc.want) || strings.Contains(strings.SplitN(rest, ":", 2)[0], tc.notWant) {
			t.Errorf("%s: warning %q; want %q and, before the hint, no %q", tc.condition, ws[0].Message, tc.want, tc.notWant)
		}
	}
}
