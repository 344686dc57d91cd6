package api

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// assertTerminalSafe checks the sanitiser's promise on s, independently of its code.
func assertTerminalSafe(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("Sanitize(%q) = %q: invalid UTF-8", in, out)
	}
	for i := 0; i < len(out); i++ {
		if out[i] < 0x20 || out[i] == 0x7f {
			t.Fatalf("Sanitize(%q) = %q: control byte %#x at %d", in, out, out[i], i)
		}
	}
	for _, r := range out {
		if r >= 0x80 && r <= 0x9f {
			t.Fatalf("Sanitize(%q) = %q: C1 control %U", in, out, r)
		}
		switch {
		case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			t.Fatalf("Sanitize(%q) = %q: bidi control %U", in, out, r)
		}
	}
}

func TestSanitize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text 123", "plain text 123"},
		{"naïve 日本語 🙂 مرحبا", "naïve 日本語 🙂 مرحبا"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b[2J\x1b[Hwiped", "wiped"},
		{"a\x1b]52;c;aGVsbG8=\x07b", "ab"},                         // OSC 52 clipboard write, BEL-terminated
		{"a\x1b]0;pwned title\x1b\\b", "ab"},                       // window title, ST-terminated
		{"a\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\", "alink"}, // hyperlink
		{"ok\rEVIL", "ok EVIL"},
		{"line1\nline2\tcol", "line1 line2 col"},
		{"a\x00b\x07c\x08d", "abcd"},
		{"a\x7fb", "ab"},
		{"a\u0085b", "ab"},
		{"a\u009b31mb", "ab"},                // C1 CSI goes whole, parameters included
		{"a\u009d0;evil title\u009cb", "ab"}, // C1 OSC (window title) goes whole
		{"id\ufeff1", "id1"},                 // zero-width no-break space hides inside ids
		{"user\u202egnp.exe", "usergnp.exe"},
		{"x\u2066y\u2069\u200e\u200f\u061cz", "xyz"},
		{"a\xffb", "a\uFFFDb"},
		{"a\u2028b", "a b"},
		{"\x1b", ""},
		{"日本語\x1b[31m日本語", "日本語日本語"},       // UTF-8 continuation bytes 0x80–0x9F are not C1
		{"a\x1bPq#0;2;0;0;0\x1b\\b", "ab"}, // DCS (sixel)
		{"a\x1b_apc\x1b\\b", "ab"},         // APC
	}
	for _, tc := range cases {
		got := Sanitize(tc.in)
		if got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		assertTerminalSafe(t, tc.in, got)
	}
}

func TestSanitizeID(t *testing.T) {
	cases := []struct{ in, want string }{
		{"act_01HZX", "act_01HZX"},
		{"sha256:9f86d08", "sha256:9f86d08"},
		{"act\u202e1", `"act\u202e1"`},
		{"act\x1b[8m1", `"act\x1b[8m1"`},
		{"act\r1", `"act\r1"`},
		{"a\xffb", `"a\xffb"`},
	}
	for _, tc := range cases {
		if got := SanitizeID(tc.in); got != tc.want {
			t.Errorf("SanitizeID(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mred", "\x1b]52;c;aGk=\x07", "\x1bP+q\x1b\\", "a\rb\nc\td",
		"\u009b1;2H", "\u202e\u2066", "\xff\xfe", "\xc2\x9b", "\x1b", "\x1b[", "\x1b]", "日本\x1b[0m語", "\u0085\u009f\u0080"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		assertTerminalSafe(t, s, out)
		if Sanitize(out) != out {
			t.Fatalf("Sanitize not idempotent on %q: %q then %q", s, out, Sanitize(out))
		}
		id := SanitizeID(s)
		if id != s {
			// A changed id must be an ASCII Go-quoted string that unquotes to the input.
			back, err := strconv.Unquote(id)
			if err != nil || (utf8.ValidString(s) && back != s) {
				t.Fatalf("SanitizeID(%q) = %q does not unquote to the input (%v)", s, id, err)
			}
			for i := 0; i < len(id); i++ {
				if id[i] < 0x20 || id[i] >= 0x7f {
					t.Fatalf("SanitizeID(%q) = %q: byte %#x", s, id, id[i])
				}
			}
		} else {
			assertTerminalSafe(t, s, id)
		}
	})
}

func TestSanitizeValue(t *testing.T) {
	const evil = "\x1b]52;c;cm0gLXJmIC8=\x07ok\r\u202e\u009b"
	a := &Activity{
		ID:          "act\u202e1",
		Status:      StatusConsensusNeeded + "\x1b[2J",
		Fingerprint: "sha256:\x1b[8m",
		Votes: []Vote{{
			UserID: "u\x1b1",
			User: User{UserName: "mallory" + evil, UserTags: []string{"t" + evil},
				APIKeys: []APIKey{{APIKeyName: "k" + evil, Credential: Credential{PublicKey: "02\u202eab"}}}},
			Signature: "30\x1b",
		}},
		Intent:  Intent{CreatePolicyIntentV3: &CreatePolicyParams{PolicyName: "p" + evil, Notes: "line\nnext"}},
		Result:  Result{CreateInvitationsResult: &CreateInvitationsResult{InvitationIDs: []string{"inv\x1b"}}},
		Failure: &Failure{Message: "denied" + evil},
	}
	SanitizeValue(a)
	checks := map[string][2]string{
		"id":            {a.ID, `"act\u202e1"`},
		"status":        {a.Status, StatusConsensusNeeded},
		"fingerprint":   {a.Fingerprint, `"sha256:\x1b[8m"`},
		"vote user id":  {a.Votes[0].UserID, `"u\x1b1"`},
		"vote userName": {a.Votes[0].User.UserName, "mallory" + "ok "},
		"user tag":      {a.Votes[0].User.UserTags[0], "tok "},
		"api key name":  {a.Votes[0].User.APIKeys[0].APIKeyName, "kok "},
		"public key":    {a.Votes[0].User.APIKeys[0].Credential.PublicKey, `"02\u202eab"`},
		"signature":     {a.Votes[0].Signature, `"30\x1b"`},
		"intent name":   {a.Intent.CreatePolicyIntentV3.PolicyName, "pok "},
		"intent notes":  {a.Intent.CreatePolicyIntentV3.Notes, "line next"},
		"result ids":    {a.Result.CreateInvitationsResult.InvitationIDs[0], `"inv\x1b"`},
		"failure":       {a.Failure.Message, "deniedok "},
	}
	for name, c := range checks {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
}

func TestSanitizeValueMapsInterfacesRaw(t *testing.T) {
	cfg := &WalletKitConfig{OauthClientIDs: map[string]string{"goo\x1b[1mgle": "id\x1b1", "apple": "a1"}}
	SanitizeValue(cfg)
	// OauthClientIDs holds ids, so a tampered value is quoted too.
	if got := cfg.OauthClientIDs[`"goo\x1b[1mgle"`]; got != `"id\x1b1"` {
		t.Errorf("tampered key not quoted / value not cleaned: %#v", cfg.OauthClientIDs)
	}
	if cfg.OauthClientIDs["apple"] != "a1" || len(cfg.OauthClientIDs) != 2 {
		t.Errorf("clean entries changed: %#v", cfg.OauthClientIDs)
	}

	var decoded any
	if err := json.Unmarshal([]byte(`{"a":["x\u001b[31m",{"b\u202e":"y\r"}],"n":1}`), &decoded); err != nil {
		t.Fatal(err)
	}
	SanitizeValue(&decoded)
	out, _ := json.Marshal(decoded)
	if want := `{"a":["x",{"\"b\\u202e\"":"y "}],"n":1}`; string(out) != want {
		t.Errorf("decoded JSON sanitised to %s, want %s", out, want)
	}

	raw := struct{ Raw json.RawMessage }{Raw: json.RawMessage(`"\u001b"`)}
	SanitizeValue(&raw)
	if string(raw.Raw) != `"\u001b"` {
		t.Errorf("RawMessage changed: %s", raw.Raw)
	}

	type node struct {
		Name string
		Next *node
	}
	n := &node{Name: "a\x1b"}
	n.Next = n
	SanitizeValue(n) // must terminate
	if n.Name != "a" {
		t.Errorf("cyclic node name = %q", n.Name)
	}
	SanitizeValue(nil)
	SanitizeValue("not a pointer\x1b") // must not panic
	if s := strings.Repeat("é", 3); Sanitize(s) != s {
		t.Error("clean non-ASCII changed")
	}
}
