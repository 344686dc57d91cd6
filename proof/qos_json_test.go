package proof

import (
	"strings"
	"testing"
)

// TestQOSCanonicalJSONVectors: the vectors of qos_json's own tests (tkhq/qos
// src/qos_json/src/lib.rs:443-592 at 3d967352) and its SPEC.md, plus the
// U+2028 case serde_json leaves raw.
func TestQOSCanonicalJSONVectors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{}`, `{}`},
		{`{"b":null,"a":"1","nested":{"z":null,"y":"2"},"items":[null,{"x":null,"y":true}]}`, `{"a":"1","items":[null,{"y":true}],"nested":{"y":"2"}}`},
		{`{"empty":null,"items":[null,{"drop":null,"keep":"yes"},null]}`, `{"items":[null,{"keep":"yes"},null]}`},
		{`{"n":1}`, `{"n":"1"}`},
		{`{"n":-9007199254740991}`, `{"n":"-9007199254740991"}`},
		{`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew","1":"One","\ud83d\ude00":"Emoji","\u0080":"Control","\u00f6":"o"}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"o\",\"€\":\"Euro Sign\",\"😀\":\"Emoji\",\"\ufb33\":\"Hebrew\"}"},
		{`{"z":{"b":"2","a":"1"},"a":[{"d":"4","c":"3"},"second",{"b":"2","a":"1"}]}`, `{"a":[{"c":"3","d":"4"},"second",{"a":"1","b":"2"}],"z":{"a":"1","b":"2"}}`},
		{"{\"b\":\"plain\",\"\\n\":\"line feed\",\"\\r\":\"carriage return\",\"\\u0001\":\"control\"}", "{\"\\u0001\":\"control\",\"\\n\":\"line feed\",\"\\r\":\"carriage return\",\"b\":\"plain\"}"},
		{"{\"quote\":\"\\\"\",\"slash\":\"/\",\"control\":\"\\u0001\",\"line\":\"a\\nb\",\"unicode\":\"€\",\"poop\":\"💩\"}", "{\"control\":\"\\u0001\",\"line\":\"a\\nb\",\"poop\":\"💩\",\"quote\":\"\\\"\",\"slash\":\"/\",\"unicode\":\"€\"}"},
		{"{\n  \"z\": [ true, false, null ],\n  \"a\": { \"b\": \"2\", \"a\": \"1\" }\n}", `{"a":{"a":"1","b":"2"},"z":[true,false,null]}`},
		{`{"s":"a\u2028b\u2029<>&\u007f\u001f"}`, "{\"s\":\"a\u2028b\u2029<>&\u007f\\u001f\"}"},
	}
	for _, c := range cases {
		got, err := qosCanonicalJSON([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{`{"n":1.0}`, `{"n":1e0}`, `{"n":-1.25}`} {
		if got, err := qosCanonicalJSON([]byte(in)); err == nil || !strings.Contains(err.Error(), "not an integer") {
			t.Errorf("%s: got %s, %v; qos_json refuses non-integer numbers", in, got, err)
		}
	}
}

// TestV2ManifestHashDropsEmptyPivotEnv: QOS hashes its typed reading, and
// PivotConfigV2 skips an empty env (manifest/v2.rs:40).
func TestV2ManifestHashDropsEmptyPivotEnv(t *testing.T) {
	with, err := qosManifestV2Canonical([]byte(`{"version":"v2","pivot":{"args":[],"env":{}}}`))
	if err != nil || string(with) != `{"pivot":{"args":[]},"version":"v2"}` {
		t.Errorf("got %s, %v", with, err)
	}
}
