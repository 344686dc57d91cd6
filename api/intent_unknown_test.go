package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// An activity of a type the real service has and this client does not
// (ACTIVITY_TYPE_CREATE_USERS_V3): its intent creates a user with an API key.
const unknownTypeActivity = `{"activity":{"id":"a1","organizationId":"o1",
 "status":"ACTIVITY_STATUS_CONSENSUS_NEEDED","type":"ACTIVITY_TYPE_CREATE_USERS_V3",
 "intent":{"createUsersIntentV3":{"users":[{"userName":"mallory","userEmail":"m@evil.example",
   "apiKeys":[{"apiKeyName":"k","publicKey":"02aa"}],"authenticators":[],"oauthProviders":[],"userTags":[]}]}},
 "result":{"createUsersResult":{"userIds":["u9"]}},"votes":[],"fingerprint":"sha256:00","canApprove":true,"canReject":true,
 "createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`

func TestIntentOfAnUnknownTypeIsKeptExactly(t *testing.T) {
	var r ActivityResponse
	if err := json.Unmarshal([]byte(unknownTypeActivity), &r); err != nil {
		t.Fatal(err)
	}
	if typ, params := r.Activity.Intent.Params(); params != nil {
		t.Fatalf("an unknown intent reads as a known one: %s", typ)
	}
	if r.Activity.Result.Value() != nil {
		t.Fatalf("an unknown result reads as a known one: %#v", r.Activity.Result.Value())
	}
	again, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var sent, kept map[string]map[string]any
	if err := json.Unmarshal([]byte(unknownTypeActivity), &sent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &kept); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"intent", "result"} {
		if !reflect.DeepEqual(sent["activity"][key], kept["activity"][key]) {
			t.Errorf("%s changed on the way through the client:\nsent %v\nkept %v", key, sent["activity"][key], kept["activity"][key])
		}
	}
}

// A known intent sent beside an unknown key keeps both, and its known field
// still decodes only under its exact wire name.
func TestIntentKnownAndUnknownKeysTogether(t *testing.T) {
	var in Intent
	if err := json.Unmarshal([]byte(`{"createUserTagIntent":{"userTagName":"t","userIds":["u1"]},"CreateUserTagIntent":{"userTagName":"x"}}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.CreateUserTagIntent == nil || in.CreateUserTagIntent.UserTagName != "t" {
		t.Errorf("known key: %+v", in.CreateUserTagIntent)
	}
	if _, ok := in.Other["CreateUserTagIntent"]; !ok {
		t.Errorf("the key in another case was not kept: %v", in.Other)
	}
	text := strings.Join(IntentLines(in), "\n")
	if !strings.Contains(text, `"t"`) || !strings.Contains(text, `"x"`) {
		t.Errorf("both keys are not shown:\n%s", text)
	}
}

func TestIntentLinesShowAnUnknownIntentFieldByField(t *testing.T) {
	var r ActivityResponse
	if err := json.Unmarshal([]byte(unknownTypeActivity), &r); err != nil {
		t.Fatal(err)
	}
	lines := IntentLines(r.Activity.Intent)
	text := strings.Join(lines, "\n")
	for _, want := range []string{"createUsersIntentV3:", `"mallory"`, `"m@evil.example"`, "02aa", "apiKeys:"} {
		if !strings.Contains(text, want) {
			t.Errorf("the lines lack %s:\n%s", want, text)
		}
	}
	// Wire order, not sorted: userName before userEmail before apiKeys.
	if i, j := strings.Index(text, "userName"), strings.Index(text, "apiKeys"); i < 0 || j < i {
		t.Errorf("fields out of wire order:\n%s", text)
	}
}

// The sender chooses every key and value of an unknown intent: none of them
// reaches the terminal unescaped, none can fake a line of its own, and a
// long decisive value is shown whole.
func TestIntentLinesOfAnUnknownIntentAreSafe(t *testing.T) {
	key := strings.Repeat("f", 300)
	raw := `{"x\u001b[2J":{"` + key + `":"` + strings.Repeat("ab", 400) + `","note\nfake: APPROVED":"\u202eevil\u001b]0;t\u0007",
	 "":"empty key","oidcToken":"secret-token","n":12.5,"ok":true,"none":null,"deep":[[{"publicKey":"\u200b02bb"}]]}}`
	var in Intent
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		t.Fatal(err)
	}
	lines := IntentLines(in)
	text := strings.Join(lines, "\n")
	for _, l := range lines {
		for _, r := range l {
			if r < 0x20 || r == 0x7f || IsBidiControl(r) || IsInvisible(r) {
				t.Errorf("line %q holds %U", l, r)
			}
		}
	}
	if !strings.Contains(text, strings.Repeat("ab", 400)) {
		t.Errorf("a long value was cut:\n%s", text)
	}
	if strings.Contains(text, "secret-token") {
		t.Errorf("a secret is shown:\n%s", text)
	}
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "fake:") {
			t.Errorf("a key faked a line of its own: %q", l)
		}
	}
	for _, want := range []string{"12.5", "true", "(none)", `"empty key"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the lines lack %s:\n%s", want, text)
		}
	}
}
