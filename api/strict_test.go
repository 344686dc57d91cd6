package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckStrictJSON(t *testing.T) {
	cases := []struct {
		body, kind, mention string
	}{
		{`{"a":1,"b":{"c":[{"d":1,"d":2}]}}`, JSONDuplicateKey, `b.c[0]`},
		{`{"a":1,"\u0061":2}`, JSONDuplicateKey, `"a"`},
		{`{"a":"\ud800"}`, JSONLoneSurrogate, "D800"},
		{`{"a":"\udfff\ud800"}`, JSONLoneSurrogate, "DFFF"},
		{`{"a":"x\ud800\u0041"}`, JSONLoneSurrogate, "D800"},
		{`{"\ud800":1}`, JSONLoneSurrogate, "D800"},
		{"{\"a\":\"\xc3\x28\"}", JSONInvalidUTF8, "offset 6"},
		{`{"a":`, JSONMalformed, "malformed"},
		{strings.Repeat("[", 65) + strings.Repeat("]", 65), JSONMalformed, "64 levels"},
	}
	for _, c := range cases {
		err := CheckStrictJSON([]byte(c.body))
		var se *StrictJSONError
		if !errors.As(err, &se) || se.Kind != c.kind || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("CheckStrictJSON(%q) = %v, want %s mentioning %s", c.body, err, c.kind, c.mention)
		}
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("CheckStrictJSON(%q) is not an invalid argument", c.body)
		}
	}
	for _, ok := range []string{`{}`, `[]`, `"x"`, `{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}`, `{"e":"\ud83d\ude80 \u00e9 \\u0041 \""}`, strings.Repeat("[", 64) + strings.Repeat("]", 64)} {
		if err := CheckStrictJSON([]byte(ok)); err != nil {
			t.Errorf("CheckStrictJSON(%q) = %v, want nil", ok, err)
		}
	}
}

func TestStrictUnmarshalMatchesKeysExactly(t *testing.T) {
	var req ListActivitiesRequest
	err := StrictUnmarshal([]byte(`{"organizationId":"o","paginationOptions":{"Limit":"5"}}`), &req)
	var se *StrictJSONError
	if !errors.As(err, &se) || se.Kind != JSONKeyCase || se.Path != "paginationOptions" || !strings.Contains(err.Error(), `use "limit"`) {
		t.Fatalf("nested case-folded key: %v", err)
	}
	if err := StrictUnmarshal([]byte(`{"organizationId":"o"} {}`), &req); !errors.As(err, &se) || se.Kind != JSONMalformed || !strings.Contains(err.Error(), "after top-level value") {
		t.Fatalf("trailing data: %v", err)
	}
	if err := StrictUnmarshal([]byte(`{"organizationId":"o","paginationOptions":{"limit":"5"}}`), &req); err != nil || req.PaginationOptions.Limit != "5" {
		t.Fatalf("exact keys: %v %+v", err, req)
	}
}

// FuzzCheckStrictJSON: no panic, and what it accepts is UTF-8 JSON whose
// objects have no two equal keys (checked by an independent decode).
func FuzzCheckStrictJSON(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":"\ud800"}`, `{"a":[{"b":"\ud83d\ude80"}]}`, "{\"\xff\":1}", `[1,"x",null,true,{"":{}}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if CheckStrictJSON(b) != nil {
			return
		}
		if !utf8.Valid(b) || !json.Valid(b) {
			t.Fatalf("accepted %q, which is not UTF-8 JSON", b)
		}
		if hasDuplicateKey(json.NewDecoder(strings.NewReader(string(b)))) {
			t.Fatalf("accepted %q, which has a duplicated key", b)
		}
	})
}

// hasDuplicateKey walks tokens; the decoder unescapes keys, so "\u0061" and "a" compare equal.
func hasDuplicateKey(dec *json.Decoder) bool {
	type frame struct {
		keys      map[string]bool
		expectKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				if top != nil && top.keys != nil {
					top.expectKey = true
				}
				stack = append(stack, &frame{keys: map[string]bool{}, expectKey: true})
				continue
			case '[':
				if top != nil && top.keys != nil {
					top.expectKey = true
				}
				stack = append(stack, &frame{})
				continue
			default:
				stack = stack[:len(stack)-1]
				continue
			}
		case string:
			if top != nil && top.keys != nil && top.expectKey {
				if top.keys[v] {
					return true
				}
				top.keys[v] = true
				top.expectKey = false
				continue
			}
		}
		if top != nil && top.keys != nil {
			top.expectKey = true
		}
	}
}

// TestStrictUnmarshalWalksNestedValues: keys are checked inside arrays of
// objects and past values holding brackets, quotes and escapes; an escaped
// key that decodes to a field's exact name is that field.
func TestStrictUnmarshalWalksNestedValues(t *testing.T) {
	var p ListUsersResponse
	body := `{"users":[{"userName":"a \"}]{[\" b","apiKeys":[],"userTags":[]},{"userName":"c","UserEmail":"x"}]}`
	err := StrictUnmarshal([]byte(body), &p)
	var se *StrictJSONError
	if !errors.As(err, &se) || se.Kind != JSONKeyCase || se.Path != "users[1]" {
		t.Fatalf("a case-folded key in the second user: %v", err)
	}
	var req ListActivitiesRequest
	if err := StrictUnmarshal([]byte(`{"organization\u0049d":"o"}`), &req); err != nil || req.OrganizationID != "o" {
		t.Fatalf("escaped exact key: %v %+v", err, req)
	}
}

// FuzzObjectMembers: on any UTF-8 JSON (what CheckStrictJSON lets through),
// ObjectMembers finds the keys and values encoding/json finds.
func FuzzObjectMembers(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,{"c":"}"}],"d":"\"{"}`, ` { "\u0041" : null , "x":{"y":[]} } `, `[1]`, `"s"`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) || !utf8.Valid(b) {
			return
		}
		var want map[string]json.RawMessage
		wantOK := json.Unmarshal(b, &want) == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("{"))
		got, ok := ObjectMembers(b)
		if ok != wantOK {
			t.Fatalf("%q: object %v, encoding/json says %v", b, ok, wantOK)
		}
		if !ok {
			return
		}
		seen := map[string]json.RawMessage{}
		for _, m := range got {
			seen[m.Key] = m.Value // the last of equal keys wins, as in encoding/json
		}
		if len(seen) != len(want) {
			t.Fatalf("%q: keys %v, want %d of them", b, got, len(want))
		}
		for k, v := range want {
			if g, ok := seen[k]; !ok || !bytes.Equal(bytes.TrimSpace(g), bytes.TrimSpace(v)) {
				t.Fatalf("%q: key %q is %q, want %q", b, k, g, v)
			}
		}
	})
}

// A StrictBody carries its check: CheckStrict refuses what CheckStrictJSON
// refuses, and Unmarshal does not walk the body for those rules again (the
// server checks a request's body once, before it authenticates it, and
// decodes the StrictBody after). Unmarshal still refuses unknown and
// miscased keys, which depend on the type decoded into.
func TestStrictBodyIsCheckedOnce(t *testing.T) {
	duplicate := []byte(`{"organizationId":"o","organizationId":"p"}`)
	if _, err := CheckStrict(duplicate); err == nil {
		t.Fatal("CheckStrict accepted a duplicated key")
	}
	var req GetAPIKeyRequest
	// Built by hand, as only this package can: no second check refuses it.
	if err := (StrictBody{b: duplicate}).Unmarshal(&req); err != nil {
		t.Fatalf("Unmarshal checked the body again: %v", err)
	}
	checked, err := CheckStrict([]byte(`{"organizationId":"o","apiKeyID":"k"}`))
	if err != nil {
		t.Fatal(err)
	}
	var se *StrictJSONError
	if err := checked.Unmarshal(&req); !errors.As(err, &se) || se.Kind != JSONKeyCase {
		t.Fatalf("Unmarshal of a miscased key = %v, want %s", err, JSONKeyCase)
	}
	if err := (StrictBody{}).Unmarshal(&req); !errors.As(err, &se) || se.Kind != JSONMalformed {
		t.Fatalf("Unmarshal of the zero StrictBody = %v, want %s", err, JSONMalformed)
	}
}

// TestStringValue reads a member's value as encoding/json would, taking the
// fast path only when there is nothing to unescape.
func TestStringValue(t *testing.T) {
	for _, raw := range []string{`""`, `"org-1"`, `"a\"b"`, `"\u00e9t\u00e9"`, `"\\"`, `"tab\there"`, `"😀 \ud83d\ude00"`} {
		var want string
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		got, ok := StringValue([]byte(raw))
		if !ok || got != want {
			t.Errorf("StringValue(%s) = %q, %v; want %q, true", raw, got, ok, want)
		}
	}
	for _, raw := range []string{`123`, `null`, `true`, `{"a":"b"}`, `["a"]`, ``, `"`} {
		if got, ok := StringValue([]byte(raw)); ok {
			t.Errorf("StringValue(%s) = %q, true; want not a string", raw, got)
		}
	}
}

// upperText decodes itself: the plain-string path must leave it to its
// UnmarshalText, as encoding/json does.
type upperText string

func (u *upperText) UnmarshalText(b []byte) error {
	*u = upperText(strings.ToUpper(string(b)))
	return nil
}

// TestStrictBodyDecodesAsEncodingJSON checks the decoder's shortcut for
// bodies of plain strings against encoding/json, on the bodies it takes and
// those it must leave to encoding/json.
func TestStrictBodyDecodesAsEncodingJSON(t *testing.T) {
	type request struct {
		OrganizationID string    `json:"organizationId"`
		ActivityID     string    `json:"activityId,omitempty"`
		Status         string    `json:"status,omitempty"`
		Text           upperText `json:"text,omitempty"`
		Count          int64     `json:"count,string,omitempty"`
		Quoted         string    `json:"quoted,string,omitempty"`
	}
	for _, body := range []string{
		`{"organizationId":"org-1"}`,
		`{"organizationId":"org-1","activityId":"a\"b\u00e9"}`,
		`{ "activityId" : "x" , "organizationId" : "" }`,
		`{"organizationId":"org-1","text":"shout"}`,
		`{"organizationId":"org-1","count":"12"}`,
		`{"organizationId":"org-1","quoted":"\"inner\""}`,
		`{"organizationId":null,"activityId":"x"}`,
		`{}`,
	} {
		want := request{OrganizationID: "kept"}
		if err := json.Unmarshal([]byte(body), &want); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		sb, err := CheckStrict([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		got := request{OrganizationID: "kept"}
		if err := sb.Unmarshal(&got); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if got != want {
			t.Errorf("%s: decoded %+v, encoding/json %+v", body, got, want)
		}
	}
	// A number where a string belongs is still the type error it was.
	sb, _ := CheckStrict([]byte(`{"organizationId":12}`))
	var r request
	var se *StrictJSONError
	if err := sb.Unmarshal(&r); !errors.As(err, &se) || se.Kind != JSONWrongType {
		t.Errorf("organizationId as a number: %v, want a %s error", err, JSONWrongType)
	}
}

// TestStrictBodyIntoANilPointer is an error, as with encoding/json, not a
// panic.
func TestStrictBodyIntoANilPointer(t *testing.T) {
	sb, err := CheckStrict([]byte(`{"organizationId":"org-1"}`))
	if err != nil {
		t.Fatal(err)
	}
	var r *GetActivityRequest
	if err := sb.Unmarshal(r); err == nil {
		t.Fatal("decoding into a nil pointer gave no error")
	}
}
