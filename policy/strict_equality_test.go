package policy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An ALLOW meant as "delete API keys, but not the admin's" compares the
// list api_key_ids with a string. On the real service, which is strongly
// typed, that is a type error and the allow never applies. It must not
// allow here either: written with a literal it is refused at compile time,
// and with a computed value it is an evaluation error, not "not equal".
func TestCrossTypeNotEqualNeverAllows(t *testing.T) {
	literal := "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS' && activity.params.api_key_ids != 'k-admin'"
	if _, err := Compile(literal, ""); err == nil || !strings.Contains(err.Error(), "list of strings") {
		t.Errorf("%s compiles (%v); want it refused as a list compared with a string", literal, err)
	}
	computed := "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS' && activity.params.api_key_ids != activity.params.user_id"
	allow := Policy{ID: "p-allow", Effect: api.EffectAllow, Compiled: mustCompile(t, computed, "")}
	in := Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, api.DeleteAPIKeysParams{UserID: "admin", APIKeyIDs: []string{"k-admin"}}),
		Approvers: []Approver{{ID: "mallory", Name: "mallory"}}, Requester: "mallory"}
	if d := Decide([]Policy{allow}, in, Quorum{Threshold: 1, UserIDs: []string{"root"}}, false); d.Outcome == api.OutcomeAllow {
		t.Errorf("%s: %s (%s); a list compared with a string must not allow", computed, d.Outcome, d.Reason)
	}
}

// Through activity.params (values of any type), ==, !=, `in` and list
// contains between values of different kinds are evaluation errors that
// name both kinds; numbers of any width compare with each other, and null
// compares with anything, equal only to null.
func TestEqualityBetweenKindsIsAnError(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, json.RawMessage(
		`{"l": ["a"], "s": "a", "i": 1, "d": 1.0, "h": 1.5, "b": true, "m": {"k": "v"}, "n": null, "w": 18446744073709551616}`))}
	errs := map[string][]string{ // condition → words the error must hold
		"activity.params.l == activity.params.s":    {"list", "string"},
		"activity.params.l != activity.params.s":    {"list", "string"},
		"activity.params.s != activity.params.i":    {"string", "int"},
		"activity.params.b == activity.params.s":    {"bool", "string"},
		"activity.params.m != activity.params.l":    {"map", "list"},
		"activity.params.m == activity.params.s":    {"map", "string"},
		"!(activity.params.s == activity.params.w)": {"string", "int"},
		"activity.params.l == [1]":                  {"string", "int"},
		"activity.params.l != [1, 2]":               {"string", "int"},
		"1 in activity.params.l":                    {"int", "string"},
		"activity.params.l.contains(1)":             {"int", "string"},
		"1 in activity.params.m":                    {"int", "string"},
		"activity.params.m == {'k': 1}":             {"string", "int"},
	}
	checkKindErrors(t, in, errs)
	holds := map[string]bool{
		"activity.params.i == activity.params.d":    true,
		"activity.params.i != activity.params.h":    true,
		"activity.params.i == 1u":                   true,
		"activity.params.w == 18446744073709551616": true,
		"activity.params.w != activity.params.i":    true,
		"activity.params.n == null":                 true,
		"activity.params.s != null":                 true,
		"activity.params.l == ['a']":                true,
		"activity.params.l != []":                   true,
		"'a' in activity.params.l":                  true,
		"activity.params.l.contains('b')":           false,
		"'k' in activity.params.m":                  true,
		"activity.params.m == {'k': 'v'}":           true,
		"activity.params.s == 'b'":                  false,
	}
	for cond, want := range holds {
		r, err := mustCompile(t, cond, "").Run(in)
		if err != nil || r.Condition != want {
			t.Errorf("%s: %v, %v; want %v", cond, r.Condition, err, want)
		}
	}
}

// A documented parameter compared with a literal of another type than the
// real service's table gives it is refused at the literal, as `1 == 1.0`
// is; a literal of the right type compiles.
func TestDocumentedParamComparedWithWrongLiteralIsRefused(t *testing.T) {
	for cond, want := range map[string]string{
		"activity.params.api_key_ids != 'k-admin'": "'value' in activity.params.api_key_ids",
		"activity.params.otp_length == '6'":        "without quotes",
		"activity.params['user_id'] == 5":          "quote the value",
		"true && activity.params.user_ids == [1]":  "list<string>",
	} {
		ds := Check(cond, "")
		if len(ds) != 1 || !strings.Contains(ds[0].Message, want) {
			t.Errorf("%s: %v; want one diagnostic saying %q", cond, ds, want)
			continue
		}
		lit := strings.LastIndexAny(cond, "'[5") // the literal's last possible start
		if ds[0].Line != 1 || ds[0].Column < 2 || ds[0].Column-1 > lit {
			t.Errorf("%s: reported at column %d; want the literal's", cond, ds[0].Column)
		}
	}
	for _, cond := range []string{
		"activity.params.api_key_ids == ['k']", "activity.params.api_key_ids == []",
		"activity.params.otp_length == 6", "activity.params.user_id == 'u'", "activity.params.user_id != null",
	} {
		if ds := Check(cond, ""); len(ds) != 0 {
			t.Errorf("%s: %v; want it accepted", cond, ds)
		}
	}
}

// checkKindErrors runs each condition on in and wants an evaluation error
// naming each of its words (the two kinds compared).
func checkKindErrors(t *testing.T, in Input, errs map[string][]string) {
	t.Helper()
	for cond, words := range errs {
		r, err := mustCompile(t, cond, "").Run(in)
		if err == nil {
			t.Errorf("%s: %v with no error; want an evaluation error", cond, r.Condition)
			continue
		}
		for _, w := range words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want it to name %q", cond, err, w)
			}
		}
	}
}
