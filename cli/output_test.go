package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestWriteJSONKeepsValuesExactAndEscapesTerminalControls(t *testing.T) {
	values := []string{
		"a >= 2 && b < 3",                    // HTML characters stay readable
		"\x1b]52;c;ZXZpbA==\x07",             // OSC 52 clipboard write
		"\u202egnp.exe\u202c",                // bidi override
		"C1 \u009b31m csi, \u0085 nel, \x7f", // C1 controls and DEL
		"line\u2028sep\u2029 \ufeffbom",
		"héllo ✓ 日本",
	}
	for _, v := range values {
		var b bytes.Buffer
		if err := writeJSON(&b, map[string]string{"v": v}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, r := range out {
			if r < 0x20 && r != '\n' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e || r == 0x2028 || r == 0xfeff {
				t.Errorf("%q: raw U+%04X in output %q", v, r, out)
			}
		}
		var back map[string]string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["v"] != v {
			t.Errorf("%q: read back %q (%v)", v, back["v"], err)
		}
	}
	var b bytes.Buffer
	writeJSON(&b, map[string]string{"c": "a >= 2"})
	if !strings.Contains(b.String(), `"a >= 2"`) {
		t.Errorf("HTML characters escaped: %s", b.String())
	}
}

func TestAskYes(t *testing.T) {
	for in, want := range map[string]error{"y\n": nil, "YES\n": nil, "n\n": errNotConfirmed, "\n": errNotConfirmed, "": errNotConfirmed, "yep\n": errNotConfirmed} {
		var out bytes.Buffer
		err := askYes(strings.NewReader(in), &out, "Approve this activity", "type: X\nrequester: bob")
		if !errors.Is(err, want) && !(err == nil && want == nil) {
			t.Errorf("answer %q: %v, want %v", in, err, want)
		}
		if !strings.Contains(out.String(), "requester: bob\nApprove this activity? [y/N]") {
			t.Errorf("prompt should show the details then ask: %q", out.String())
		}
	}
}
