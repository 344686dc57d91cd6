package policy

import (
	"strings"
	"testing"
)

// `in` and contains() between a documented parameter and a literal of a kind
// it can never be found with are a type error on the real service (the
// policy never applies), as == with such a literal is: refused at compile
// time, at the literal (or at the parameter's name, when the parameter is the
// wrong container), with what to write instead.
func TestDocumentedParamMembershipWithWrongLiteralIsRefused(t *testing.T) {
	for cond, want := range map[string]struct {
		says, at string // at: the text the diagnostic points to
	}{
		"activity.params.user_id in [1, 2]":                 {"quote the value", "1"},
		"activity.params.user_id in ['a', 2]":               {"quote the value", "2"},
		"activity.params.otp_length in ['6', '8']":          {"without quotes", "'6'"},
		"activity.params.api_key_ids in ['k-admin']":        {"'value' in activity.params.api_key_ids", "'k-admin'"},
		"activity.params.user_ids in [[1]]":                 {"list<int>", "[1]"},
		"activity.params.otp_length in {'6': true}":         {"without quotes", "'6'"},
		"1 in activity.params.api_key_ids":                  {"looks up an int", "1"},
		"activity.params.user_ids.contains(7)":              {"looks up an int", "7"},
		"['a', 'b'].contains(activity.params.otp_length)":   {"without quotes", "'a'"},
		"'abc' in activity.params.user_id":                  {"not a list", ".user_id"},
		"6 in activity.params.otp_length":                   {"not a list", ".otp_length"},
		"activity.params.encoding.contains(1)":              {"needs a string", "1"},
		"activity.params['otp_length'].contains('6')":       {"needs a list or a string", "['otp_length']"},
		"true && !(activity.params['api_key_ids'] in [1u])": {"list<string>", "1u"},
	} {
		ds := Check(cond, "")
		if len(ds) != 1 || !strings.Contains(ds[0].Message, want.says) || !strings.Contains(ds[0].Message, "type error") {
			t.Errorf("%s: %v; want one diagnostic saying %q", cond, ds, want.says)
			continue
		}
		if ds[0].Line != 1 || !strings.HasPrefix(cond[ds[0].Column-1:], want.at) {
			t.Errorf("%s: reported at column %d; want it at %q", cond, ds[0].Column, want.at)
		}
	}
	for _, cond := range []string{
		"activity.params.user_id in ['a', 'b']", "activity.params.otp_length in [6, 8]",
		"activity.params.api_key_ids in [['k']]", "activity.params.api_key_ids in [[]]",
		"'k' in activity.params.api_key_ids", "activity.params.user_ids.contains('u')",
		"['a', 'b'].contains(activity.params.user_id)", "activity.params.encoding.contains('EIP712')",
		"activity.params.user_id in {'u': true}", "activity.params.user_id in ['a', null]",
		"activity.params.some_list.contains(1)", "1 in activity.params.some_list",
		"activity.params.user_id in activity.params.api_key_ids",
	} {
		if ds := Check(cond, ""); len(ds) != 0 {
			t.Errorf("%s: %v; want it accepted", cond, ds)
		}
	}
}
