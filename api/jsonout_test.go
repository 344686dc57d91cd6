package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// assertJSONTerminalSafe checks that out has no raw control (but the indenting
// newlines), C1, bidi or invisible character.
func assertJSONTerminalSafe(t *testing.T, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Fatalf("output is not UTF-8: %q", out)
	}
	for _, r := range string(out) {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || IsInvisible(r) {
			t.Fatalf("raw %U in the --json output %q", r, out)
		}
	}
}

func TestEncodeJSONKeepsValuesExactAndEscaped(t *testing.T) {
	values := []string{
		"\x1b[31mred\x1b[0m", "a\x1b]52;c;aGk=\x07b", "user\u202egnp.exe", "ad\u200bmin", "id\ufeff1",
		"c1\u0085\u009b31m", "del\x7f", "tag\U000e0041", "vs\ufe0f", "line\nnext\ttab\r", "sep\u2028\u2029",
		"naïve 日本語 🙂 مرحبا", `back\slash "quoted" <b>&`, "\\u200b literally", "",
	}
	m := map[string]string{}
	for _, v := range values {
		m["k"+v] = v // keys too
	}
	in := struct {
		Values []string          `json:"values"`
		ByKey  map[string]string `json:"byKey"`
	}{values, m}
	var buf bytes.Buffer
	if err := EncodeJSON(&buf, in); err != nil {
		t.Fatal(err)
	}
	out := buf.Bytes()
	assertJSONTerminalSafe(t, out)
	for _, want := range []string{`\u001b[31m`, `\u202e`, `\u200b`, `\ufeff`, `\u0085`, `\u009b`, `\u007f`,
		`\udb40\udc41`, `\ufe0f`, `\u2028`, "日本語 🙂", `<b>&`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if !bytes.HasSuffix(out, []byte("}\n")) {
		t.Errorf("output does not end with a newline: %q", out)
	}
	var back struct {
		Values []string          `json:"values"`
		ByKey  map[string]string `json:"byKey"`
	}
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("output does not decode: %v\n%s", err, out)
	}
	for i, v := range values {
		if back.Values[i] != v {
			t.Errorf("value %d decodes to %q, want exactly %q", i, back.Values[i], v)
		}
		if back.ByKey["k"+v] != v {
			t.Errorf("key %q lost or changed", "k"+v)
		}
	}
}

func TestEncodeJSONLeavesPlainOutputAlone(t *testing.T) {
	var got, want bytes.Buffer
	v := map[string]any{"a": "plain", "n": 1, "s": []string{"日本", "x >= 2"}}
	if err := EncodeJSON(&got, v); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("plain output changed:\n%s\nwant\n%s", got.String(), want.String())
	}
}

// Whatever string goes in (valid UTF-8), the output is terminal-safe and decodes
// back to it exactly.
func FuzzEncodeJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31m", "\u202e\u2066", "\u200b", "\U000e0041", "\u0085", "a\"b\\c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD") // JSON cannot carry invalid bytes
		}
		var buf bytes.Buffer
		if err := EncodeJSON(&buf, map[string]string{s: s}); err != nil {
			t.Fatal(err)
		}
		assertJSONTerminalSafe(t, buf.Bytes())
		var back map[string]string
		if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
			t.Fatalf("%q: %v", buf.Bytes(), err)
		}
		if v, ok := back[s]; !ok || v != s || len(back) != 1 {
			t.Fatalf("%q round-trips to %q", s, back)
		}
	})
}

// A raw reply is written as the service sent it, but a byte that is not UTF-8
// (0x9b starts a control sequence on some terminals) never reaches the
// terminal: it becomes \ufffd, and the JSON stays valid.
func TestEncodeJSONRawMessageWithInvalidBytes(t *testing.T) {
	raw := json.RawMessage("{\"activity\":{\"policyName\":\"a\x9b2Jb\xff\"}}")
	var buf bytes.Buffer
	if err := EncodeJSON(&buf, raw); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(buf.Bytes()) || !strings.Contains(buf.String(), `"a\ufffd2Jb\ufffd"`) {
		t.Errorf("written: %q", buf.Bytes())
	}
	assertJSONTerminalSafe(t, buf.Bytes())
	if !json.Valid(buf.Bytes()) {
		t.Errorf("not JSON: %q", buf.Bytes())
	}
}
