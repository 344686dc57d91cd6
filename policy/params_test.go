package policy

import (
	"strings"
	"testing"
)

// The real service lets policies read only the parameters of its table, in
// snake_case; any other read is a MissingField error there, and the policy
// neither allows nor denies. A deny written on a camelCase field compiles and
// denies here but never denies there, so vigil warns (it does not refuse:
// the local service reads every parameter).
func TestWarningsOnParamsTheRealServiceDoesNotExpose(t *testing.T) {
	for _, tc := range []struct {
		condition string
		want      []string // substrings of the one warning; nil: no warning
	}{
		{"activity.params.userTagName.contains('ops')", []string{"userTagName", "snake_case", "user_tag_name", "MissingField", "never denies"}},
		{"activity.params.apiKeyIds.count() == 1", []string{"write activity.params.api_key_ids", "ACTIVITY_TYPE_DELETE_API_KEYS"}},
		{"activity.params['userId'] == 'u'", []string{"write activity.params.user_id"}},
		{"activity.params.user_tag_name == 'ops'", []string{"user_tag_name is not among", "MissingField"}},
		{"activity.params.api_key_ids.count() == 1", nil},
		{"activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && activity.params.hash_function == 'HASH_FUNCTION_NO_OP' && activity.params.encoding != 'PAYLOAD_ENCODING_EIP712'", nil},
		{"activity.resource == 'AUTH' && activity.params.session_profile_id == 'x'", nil},
		{"activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'", nil},
	} {
		if _, err := Compile(tc.condition, ""); err != nil {
			t.Errorf("%s: refused (a warning must not refuse): %v", tc.condition, err)
		}
		ws := Warnings(Source{Condition: tc.condition})
		if tc.want == nil {
			if len(ws) != 0 {
				t.Errorf("%s: warnings %v, want none (the real service exposes the field)", tc.condition, ws)
			}
			continue
		}
		if len(ws) != 1 {
			t.Errorf("%s: %d warnings %v, want 1", tc.condition, len(ws), ws)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(ws[0].Message, w) {
				t.Errorf("%s: warning %q does not say %q", tc.condition, ws[0].Message, w)
			}
		}
		if ws[0].Field != FieldCondition || ws[0].Column < 17 {
			t.Errorf("%s: warning at %s column %d, want the field's name in the condition", tc.condition, ws[0].Field, ws[0].Column)
		}
	}
}

// A warning quotes the author's name shortened: a name thousands of
// characters long must not fill the terminal or the console's editor.
func TestWarningsClipLongNames(t *testing.T) {
	long := "userTag" + strings.Repeat("X", 3000)
	for _, condition := range []string{
		"activity.params." + long + " == 'x'",
		"activity.params['" + strings.Repeat("y", 3000) + "'] == 'x'",
	} {
		ws := Warnings(Source{Condition: condition})
		if len(ws) != 1 {
			t.Fatalf("%d warnings %v, want 1", len(ws), ws)
		}
		if n := len([]rune(ws[0].Message)); n > 600 {
			t.Errorf("warning is %d characters long; the name in it is not shortened: %.120q…", n, ws[0].Message)
		}
		if !strings.Contains(ws[0].Message, "MissingField") {
			t.Errorf("shortened warning lost what it says: %q", ws[0].Message)
		}
	}
}

// A documented parameter read on a type the real service does not expose it
// for (user_ids exists only on DELETE_USERS) is MissingField there: the
// policy never allows, although vigil, which reads every parameter on every
// type, allows. The warning depends on the types the condition pins.
func TestWarningsOnParamsReadOnTypesThatDoNotExposeThem(t *testing.T) {
	for _, tc := range []struct {
		condition string
		want      []string // substrings of the one warning; nil: no warning
	}{
		{"activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' && activity.params.user_ids.count() <= 1",
			[]string{"user_ids", "ACTIVITY_TYPE_DELETE_USERS", "ACTIVITY_TYPE_CREATE_USER_TAG", "MissingField", "every activity type"}},
		{"activity.kind == 'CREATE_MFA_POLICY' && activity.params.user_id == 'u'", []string{"kind CREATE_MFA_POLICY", "ACTIVITY_TYPE_DELETE_API_KEYS"}},
		{"activity.type in ['ACTIVITY_TYPE_DELETE_API_KEYS', 'ACTIVITY_TYPE_UPDATE_WALLET'] && activity.params.user_id == 'u'", []string{"ACTIVITY_TYPE_UPDATE_WALLET"}},
		{"activity.type == 'ACTIVITY_TYPE_DELETE_USERS' && activity.params.user_ids.count() <= 1", nil},
		{"activity.kind == 'CREATE_API_KEYS' && activity.params.user_id == 'u'", nil},
		{"activity.type in ['ACTIVITY_TYPE_DELETE_API_KEYS', 'ACTIVITY_TYPE_UPDATE_WALLET'] && activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS' && activity.params.user_id == 'u'", nil},
		// A resource or an action pins many types: a read none of them
		// exposes can never succeed there; one some of them expose can.
		{"activity.resource == 'WALLET' && activity.params.user_ids.count() > 0",
			[]string{"user_ids", "ACTIVITY_TYPE_DELETE_USERS", "resource WALLET", "MissingField"}},
		{"activity.action in ['CREATE', 'UPDATE'] && activity.params.api_key_ids.count() > 0",
			[]string{"api_key_ids", "action CREATE", "action UPDATE"}},
		{"activity.resource == 'USER' && activity.action == 'DELETE' && activity.params.user_ids.count() > 0", nil},
		{"activity.resource == 'WALLET' && activity.params.wallet_id == 'w'", nil},
		{"activity.action == 'EXPORT' && activity.params.target_public_key == 'k'", nil},
	} {
		ws := Warnings(Source{Condition: tc.condition})
		if tc.want == nil {
			if len(ws) != 0 {
				t.Errorf("%s: warnings %v, want none", tc.condition, ws)
			}
			continue
		}
		if len(ws) != 1 {
			t.Errorf("%s: %d warnings %v, want 1", tc.condition, len(ws), ws)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(ws[0].Message, w) {
				t.Errorf("%s: warning %q does not say %q", tc.condition, ws[0].Message, w)
			}
		}
	}
}
