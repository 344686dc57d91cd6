package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode"
	"unicode/utf8"
)

// replyTypes are the records the client decodes from a service's replies.
var replyTypes = []func() any{
	func() any { return new(ListActivitiesResponse) },
	func() any { return new(ActivityResponse) },
	func() any { return new(ListPoliciesResponse) },
	func() any { return new(GetPolicyEvaluationsResponse) },
	func() any { return new(ListAppProofsResponse) },
	func() any { return new(BootProofResponse) },
	func() any { return new(WhoamiResponse) },
	func() any { return new(GetOrganizationConfigsResponse) },
	func() any { return new(ListUsersResponse) },
	func() any { return new(GetMfaPoliciesResponse) },
	func() any { return new(GetAPIKeyResponse) },
	func() any { return new(ErrorBody) },
}

// FuzzReplyDecode decodes arbitrary replies into every record type: no panic;
// a reply the sanitising client accepts holds no string that would act on a
// terminal or hide text (outside the fields kept exact for their signatures
// and raw JSON, decoded when used); and a reply the exact client accepts
// encodes back to JSON, as --json prints it.
func FuzzReplyDecode(f *testing.F) {
	when := `{"seconds":"1795000000","nanos":"0"}`
	act := `{"id":"act-1","organizationId":"o","status":"ACTIVITY_STATUS_CONSENSUS_NEEDED","type":"ACTIVITY_TYPE_CREATE_POLICY_V3",` +
		`"intent":{"createPolicyIntentV3":{"policyName":"p\u202e","effect":"EFFECT_ALLOW","condition":"true","notes":"\u001b[2J"}},` +
		`"result":{"createPolicyResult":{"policyId":"p1","extra":"\u200b"},"someFutureResult":{"k":"\u0007"}},` +
		`"votes":[{"id":"v","userId":"u","user":{"userId":"u","userName":"bob\u2066"},"selection":"VOTE_SELECTION_APPROVED","message":"{\"a\":1}\r","createdAt":` + when + `}],` +
		`"fingerprint":"sha256:00","canApprove":true,"canReject":true,"createdAt":` + when + `,"updatedAt":` + when +
		`,"failure":{"code":3,"message":"m\u009b","details":[{"@type":"t","x":["\u001b]52;c;x\u0007"]}]}}`
	for i := range replyTypes {
		f.Add(uint8(i), []byte(`{}`))
	}
	f.Add(uint8(0), []byte(`{"activities":[`+act+`,`+act+`]}`))
	f.Add(uint8(1), []byte(`{"activity":`+act+`}`))
	f.Add(uint8(1), []byte(`{"activity":{"intent":{"unknownIntentV9":{"\u001b":"\u202e"}},"result":{"createPolicyResult":5}}}`))
	f.Add(uint8(2), []byte(`{"policies":[{"policyId":"p","policyName":"\u0085","effect":"EFFECT_DENY","condition":"x","createdAt":`+when+`}]}`))
	f.Add(uint8(6), []byte(`{"organizationId":"o\u0000","organizationName":"\u00ad","userId":"u","username":"\ufeff"}`))
	f.Add(uint8(7), []byte(`{"configs":{"features":[{"name":"FEATURE_NAME_WEBHOOK","value":"\u2028"}],"quorum":{"threshold":1,"userIds":["u\u0301"]}}}`))
	f.Add(uint8(11), []byte(`{"code":7,"message":"\u001b[31mdenied","details":[{"@type":"x","errorCode":"\u009d"}]}`))
	sanitising, exact := &Client{}, &Client{exact: true}
	f.Fuzz(func(t *testing.T, which uint8, reply []byte) {
		newOut := replyTypes[int(which)%len(replyTypes)]
		out := newOut()
		if err := sanitising.decodeOneReading("query/fuzz", reply, out); err == nil {
			walkStrings(reflect.ValueOf(out), "", func(path, s string) {
				for _, r := range s {
					if r == utf8.RuneError || r < 0x20 || r >= 0x7f && r <= 0x9f || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
						t.Fatalf("%T%s = %q keeps %U", out, path, s, r)
					}
				}
			})
		}
		raw := newOut()
		if err := exact.decodeOneReading("query/fuzz", reply, raw); err == nil {
			var buf bytes.Buffer
			if err := EncodeJSON(&buf, raw); err != nil {
				t.Fatalf("%T decoded from %q does not encode back: %v", raw, reply, err)
			}
		}
	})
}

// walkStrings calls visit with every string reachable from v, but those of
// fields tagged sanitize:"exact" and raw JSON (bytes, decoded when used).
func walkStrings(v reflect.Value, path string, visit func(path, s string)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), path, visit)
		}
	case reflect.String:
		visit(path, v.String())
	case reflect.Slice, reflect.Array:
		if v.Type() == reflect.TypeFor[json.RawMessage]() || v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			walkStrings(v.Index(i), path+"[]", visit)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walkStrings(it.Key(), path+"{key}", visit)
			walkStrings(it.Value(), path+"{}", visit)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.IsExported() && f.Tag.Get("sanitize") != "exact" {
				walkStrings(v.Field(i), path+"."+f.Name, visit)
			}
		}
	}
}
