package policy

import (
	"encoding/json"
	"math/big"
	"reflect"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func TestEverySubmitOperationHasAResourceAndAction(t *testing.T) {
	for _, op := range api.SubmitOperations() {
		res, act, ok := ResourceAction(op.Type)
		if !ok || res == "" || act == "" {
			t.Errorf("%s: resource %q, action %q, ok %v", op.Type, res, act, ok)
		}
	}
	if _, _, ok := ResourceAction("ACTIVITY_TYPE_NOT_A_THING"); ok {
		t.Error("an unknown type has a resource")
	}
}

// TestResourceActionFollowsTheDocs checks the types listed in the real
// service's "Activity Breakdown" table (docs.turnkey.com, policy language).
func TestResourceActionFollowsTheDocs(t *testing.T) {
	for typ, want := range map[string][2]string{
		"ACTIVITY_TYPE_OAUTH":                    {"AUTH", "CREATE"},
		"ACTIVITY_TYPE_CREATE_INVITATIONS":       {"INVITATION", "CREATE"},
		"ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE": {"ORGANIZATION", "UPDATE"},
		"ACTIVITY_TYPE_CREATE_POLICY_V3":         {"POLICY", "CREATE"},
		"ACTIVITY_TYPE_CREATE_USER_TAG":          {"USER", "CREATE"},
		"ACTIVITY_TYPE_DELETE_API_KEYS":          {"CREDENTIAL", "DELETE"},
	} {
		res, act, _ := ResourceAction(typ)
		if res != want[0] || act != want[1] {
			t.Errorf("%s = %s/%s, want %s/%s", typ, res, act, want[0], want[1])
		}
	}
}

func TestActivityForParams(t *testing.T) {
	raw := `{"userId":"u1","apiKeyIds":["k1","k2"],"nested":{"someKey":1.5},"order":2,"big":12345678901234567890}`
	want := map[string]any{
		"userId": "u1", "user_id": "u1",
		"apiKeyIds": []any{"k1", "k2"}, "api_key_ids": []any{"k1", "k2"},
		"nested": map[string]any{"someKey": 1.5, "some_key": 1.5},
		"order":  int64(2),
		"big":    bigFrom("12345678901234567890"), // beyond int64: exact
	}
	for name, params := range map[string]any{
		"raw message": json.RawMessage(raw),
		"bytes":       []byte(raw),
		"struct": struct {
			UserID    string         `json:"userId"`
			APIKeyIDs []string       `json:"apiKeyIds"`
			Nested    map[string]any `json:"nested"`
			Order     int            `json:"order"`
			Big       uint64         `json:"big"`
		}{"u1", []string{"k1", "k2"}, map[string]any{"someKey": 1.5}, 2, 12345678901234567890},
	} {
		t.Run(name, func(t *testing.T) {
			a := ActivityFor(api.TypeDeleteAPIKeys, params)
			if a.Type != api.TypeDeleteAPIKeys || a.Resource != "CREDENTIAL" || a.Action != "DELETE" {
				t.Errorf("activity = %s %s/%s", a.Type, a.Resource, a.Action)
			}
			if !reflect.DeepEqual(a.Params, want) {
				t.Errorf("params = %#v\nwant     %#v", a.Params, want)
			}
		})
	}
}

func TestActivityForNonObjectParams(t *testing.T) {
	for name, params := range map[string]any{
		"nil": nil, "array": []int{1, 2}, "string": "x", "bad json": json.RawMessage(`{`),
		"unmarshalable": func() {}, "null": json.RawMessage(`null`),
	} {
		a := ActivityFor(api.TypeCreatePolicyV3, params)
		if a.Params == nil || len(a.Params) != 0 {
			t.Errorf("%s: params = %#v, want an empty map", name, a.Params)
		}
		if a.Resource != "POLICY" {
			t.Errorf("%s: resource %q", name, a.Resource)
		}
	}
	if a := ActivityFor("ACTIVITY_TYPE_UNKNOWN", nil); a.Resource != "" || a.Action != "" || a.Type != "ACTIVITY_TYPE_UNKNOWN" {
		t.Errorf("unknown type: %+v", a)
	}
}

func TestParamsAreUsableInConditions(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeCreateMfaPolicy, json.RawMessage(
		`{"userId":"u1","order":0,"requiredAuthenticationMethods":[{"any":[{"type":"AUTHENTICATION_TYPE_PASSKEY"}]}]}`))}
	c, err := Compile("activity.params.order == 0 && activity.params.required_authentication_methods[0].any[0].type == 'AUTHENTICATION_TYPE_PASSKEY'", "")
	if err != nil {
		t.Fatal(err)
	}
	cond, _, err := c.Evaluate(in)
	if err != nil || !cond {
		t.Fatalf("condition = %v, %v; want true", cond, err)
	}
}

func bigFrom(s string) *big.Int {
	n, _ := new(big.Int).SetString(s, 10)
	return n
}

// TestParametersLeftEmptyReadAsTheirZeroValue: the service's parameters are a
// typed message, so a parameter left out (or sent empty, which the records
// cannot tell apart) reads as its zero value, at every depth: a DENY written
// as `activity.params.consensus == ”` stops a policy without a consensus
// instead of failing to evaluate and being ignored.
func TestParametersLeftEmptyReadAsTheirZeroValue(t *testing.T) {
	a := ActivityFor(api.TypeCreatePolicyV3, &api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Condition: "true"})
	for _, key := range []string{"consensus", "notes", "policy_name"} {
		if _, ok := a.Params[key]; !ok {
			t.Errorf("params lack %q: %v", key, a.Params)
		}
	}
	if a.Params["consensus"] != "" || a.Params["condition"] != "true" {
		t.Errorf("consensus %#v, condition %#v", a.Params["consensus"], a.Params["condition"])
	}
	inv := ActivityFor(api.TypeCreateInvitations, &api.CreateInvitationsParams{Invitations: []api.Invitation{{ReceiverUserName: "dave", ReceiverUserEmail: "d@x"}}})
	first := inv.Params["invitations"].([]any)[0].(map[string]any)
	if tags, ok := first["receiverUserTags"].([]any); !ok || len(tags) != 0 {
		t.Errorf("an invitation without tags: receiverUserTags %#v, want []", first["receiverUserTags"])
	}

	allow, err := Compile("activity.resource == 'POLICY'", "")
	if err != nil {
		t.Fatal(err)
	}
	deny, err := Compile("activity.resource == 'POLICY' && activity.params.consensus == ''", "")
	if err != nil {
		t.Fatal(err)
	}
	in := input(alice)
	in.Activity = a
	d := Decide([]Policy{{ID: "allow", Effect: api.EffectAllow, Compiled: allow}, {ID: "no-consensus", Effect: api.EffectDeny, Compiled: deny}},
		in, Quorum{Threshold: 2}, false)
	if d.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("a policy without a consensus: %s (%s), want the DENY to stop it", d.Outcome, d.Reason)
	}
}
