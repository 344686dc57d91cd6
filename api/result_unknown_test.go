package api

import (
	"encoding/json"
	"strings"
	"testing"
)

func decodeResult(t *testing.T, raw string) Result {
	t.Helper()
	var r Result
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return r
}

// Nobody votes on a result, so a known result holding a member this client
// does not know is still read: its known fields are filled and the other
// member is kept aside, by path, to be shown.
func TestResultWithAnUnknownMemberIsReadAndTheMemberKept(t *testing.T) {
	r := decodeResult(t, `{"oauthResult":{"userId":"u","apiKeyId":"k","credentialBundle":"b","expiresAt":"2027-01-01T00:00:00Z"}}`)
	if res := r.OauthResult; res == nil || res.UserID != "u" || res.APIKeyID != "k" || res.CredentialBundle != "b" {
		t.Fatalf("the known fields are not read: %#v (other: %v)", res, r.Other)
	}
	if len(r.Other) != 0 {
		t.Errorf("the known key is also kept as unknown: %v", r.Other)
	}
	if len(r.UnknownFields) != 1 || r.UnknownFields[0].Key != "oauthResult.expiresAt" || string(r.UnknownFields[0].Value) != `"2027-01-01T00:00:00Z"` {
		t.Errorf("the unknown member is not kept by path: %+v", r.UnknownFields)
	}
}

// encoding/json matches keys case-insensitively, so a member named
// "CREDENTIALBUNDLE" after the real one would replace its value. Only the
// exact name fills a field; the other is shown as a field vigil does not know.
func TestResultMemberInAnotherCaseDoesNotReplaceTheRealOne(t *testing.T) {
	for _, raw := range []string{
		`{"oauthResult":{"userId":"u","apiKeyId":"k","credentialBundle":"real","CREDENTIALBUNDLE":"forged"}}`,
		`{"oauthResult":{"CREDENTIALBUNDLE":"forged","userId":"u","apiKeyId":"k","credentialBundle":"real"}}`,
	} {
		r := decodeResult(t, raw)
		if r.OauthResult == nil || r.OauthResult.CredentialBundle != "real" {
			t.Errorf("%s: the bundle read is %#v, not the one sent under its exact name", raw, r.OauthResult)
		}
		if len(r.UnknownFields) != 1 || r.UnknownFields[0].Key != "oauthResult.CREDENTIALBUNDLE" {
			t.Errorf("%s: the case variant is not kept aside: %+v", raw, r.UnknownFields)
		}
	}
	// Only a case variant, no exact name: the field stays empty.
	r := decodeResult(t, `{"createPolicyResult":{"POLICYID":"p-forged"}}`)
	if r.CreatePolicyResult == nil || r.CreatePolicyResult.PolicyID != "" {
		t.Errorf("a case variant alone fills the field: %#v", r.CreatePolicyResult)
	}
}

// A result that cannot be read one way (a member sent twice: which one is
// meant?) or not as its type is not read at all: it is kept whole in Other.
func TestResultThatCannotBeReadOneWayIsKeptAsSent(t *testing.T) {
	for _, raw := range []string{
		`{"oauthResult":{"userId":"u","apiKeyId":"k","credentialBundle":"a","credentialBundle":"b"}}`,
		`{"createPolicyResult":{"policyId":7}}`,
		`{"createPolicyResult":"p-1"}`,
	} {
		r := decodeResult(t, raw)
		if r.Value() != nil || len(r.Other) != 1 || len(r.UnknownFields) != 0 {
			t.Errorf("%s: read as %#v, other %v, unknown %+v", raw, r.Value(), r.Other, r.UnknownFields)
		}
	}
}

// A result read with a member this client does not know encodes back as
// sent: nothing is lost on the way through, and the hash an app proof's
// binding compares (proof.ResultHash, of this encoding) is not the hash of
// the result without that member.
func TestResultWithAnUnknownMemberEncodesAsSent(t *testing.T) {
	withExtra := decodeResult(t, `{"createUserTagResult":{"userTagId":"tag-42","userIds":["u1"],"createdBy":"u-root"}}`)
	without := decodeResult(t, `{"createUserTagResult":{"userTagId":"tag-42","userIds":["u1"]}}`)
	a, err := json.Marshal(withExtra)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(without)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) == string(b) {
		t.Errorf("the member vigil does not know is dropped on encoding: %s", a)
	}
	if !strings.Contains(string(a), `"createdBy":"u-root"`) || strings.Count(string(a), "createUserTagResult") != 1 {
		t.Errorf("encoded as %s", a)
	}
	again := decodeResult(t, string(a))
	if again.CreateUserTagResult == nil || again.CreateUserTagResult.UserTagID != "tag-42" || len(again.UnknownFields) != 1 {
		t.Errorf("re-read as %#v, unknown %+v", again.CreateUserTagResult, again.UnknownFields)
	}
}
