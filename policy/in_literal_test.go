package policy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// `v in [literal list]` is as strict as `in` on any list: cel-go's optimizer
// would rewrite it into a hash-set lookup, where a value of another kind than
// the list's elements is "absent" (false), not the documented evaluation
// error, and !(… in […]) would make an ALLOW allow.
func TestInConstantListIsStrict(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, json.RawMessage(
		`{"l": ["a"], "s": "a", "i": 1}`))}
	checkKindErrors(t, in, map[string][]string{
		"!(activity.params.i in ['a', 'b'])": {"int", "string"},
		"!(activity.params.l in ['a', 'b'])": {"list", "string"},
		"!(activity.params.s in [1, 2])":     {"string", "int"},
	})
	// A mixed literal is refused when submitted (TestMixedListLiteralRefused);
	// one stored before is an error at evaluation.
	c, err := CompileStored(Source{Condition: "'a' in [1, 'a']"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := c.Run(in); err == nil || !strings.Contains(err.Error(), "string") || !strings.Contains(err.Error(), "int") {
		t.Errorf("'a' in [1, 'a'] (stored): %v, %v; want an error naming string and int", r.Condition, err)
	}
}

// The docs' own example (policy-language.md "Equality is typed"), written
// with `in` on a literal list: an ALLOW meant as "delete API keys, but not
// k-admin" allows deleting k-admin.
func TestNotInLiteralListNeverAllows(t *testing.T) {
	cond := "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS' && !(activity.params.api_key_ids in ['k-admin'])"
	c, err := Compile(cond, "")
	if err != nil {
		return // refused at compile time: fine
	}
	allow := Policy{ID: "p-allow", Effect: api.EffectAllow, Compiled: c}
	in := Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, api.DeleteAPIKeysParams{UserID: "admin", APIKeyIDs: []string{"k-admin"}}),
		Approvers: []Approver{{ID: "mallory", Name: "mallory"}}, Requester: "mallory"}
	if d := Decide([]Policy{allow}, in, Quorum{Threshold: 1, UserIDs: []string{"root"}}, false); d.Outcome == api.OutcomeAllow {
		t.Errorf("%s: %s (%s); a list looked up in a list of strings must not allow", cond, d.Outcome, d.Reason)
	}
}
