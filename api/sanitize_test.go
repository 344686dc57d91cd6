package api

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode"
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
		case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff, r == 0x00ad, r == 0x2028, r == 0x2029,
			r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0000 && r <= 0xe007f, r == 0x3164, r == 0x034f:
			t.Fatalf("Sanitize(%q) = %q: invisible character %U", in, out, r)
		}
	}
}

// unescape reverses Sanitize's escapes on text that had no backslash of its own.
func unescape(t *testing.T, out string) string {
	t.Helper()
	back, err := strconv.Unquote(`"` + strings.ReplaceAll(out, `"`, `\"`) + `"`)
	if err != nil {
		t.Fatalf("Sanitize's output %q does not unescape: %v", out, err)
	}
	return back
}

func TestSanitize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text 123", "plain text 123"},
		{"naïve 日本語 🙂 مرحبا", "naïve 日本語 🙂 مرحبا"},
		{"\x1b[31mred\x1b[0m", `\u001b[31mred\u001b[0m`},
		{"\x1b[2J\x1b[Hwiped", `\u001b[2J\u001b[Hwiped`},
		{"a\x1b]52;c;aGVsbG8=\x07b", `a\u001b]52;c;aGVsbG8=\u0007b`}, // OSC 52 clipboard write, shown, not done
		{"a\x1b]0;pwned title\x1b\\b", `a\u001b]0;pwned title\u001b\b`},
		{"ok\rEVIL", `ok\rEVIL`},
		{"line1\nline2\tcol", `line1\nline2\tcol`},
		{"a\x00b\x07c\x08d\fe", `a\u0000b\u0007c\bd\fe`},
		{"a\x7fb", `a\u007fb`},
		{"a\u0085b", `a\u0085b`},
		{"a\u009b31mb", `a\u009b31mb`},
		{"id\ufeff1", `id\ufeff1`},
		{"user\u202egnp.exe", `user\u202egnp.exe`},
		{"x\u2066y\u2069\u200e\u200f\u061cz", `x\u2066y\u2069\u200e\u200f\u061cz`},
		{"ad\u200bmin", `ad\u200bmin`},                         // zero-width space
		{"ad\u200c\u200d\u2060min", `ad\u200c\u200d\u2060min`}, // joiners, word joiner
		{"ad\u00admin", `ad\u00admin`},                         // soft hyphen
		{"admin\ufe0f", `admin\ufe0f`},                         // variation selector
		{"admin\U000e0041", `admin\U000e0041`},                 // tag character
		{"ad\u3164min", `ad\u3164min`},                         // Hangul filler
		{"a\xffb", `a\xffb`},
		{"a\uFFFDb", "a\uFFFDb"}, // a real U+FFFD is visible
		{"a\u2028b", `a\u2028b`},
		{"\x1b", `\u001b`},
		{"日本語\x1b[31m日本語", `日本語\u001b[31m日本語`}, // UTF-8 continuation bytes 0x80–0x9F are not C1
	}
	for _, tc := range cases {
		got := Sanitize(tc.in)
		if got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		assertTerminalSafe(t, tc.in, got)
	}
}

// IsInvisible's shortcuts agree with the Unicode tables for every rune.
func TestIsInvisibleShortcutsMatchTheTables(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if IsInvisible(r) != invisibleByTable(r) {
			t.Fatalf("IsInvisible(%U) = %v, the tables say %v", r, IsInvisible(r), invisibleByTable(r))
		}
	}
}

// Two names that differ only by invisible characters never look the same.
func TestSanitizeKeepsLookalikesApart(t *testing.T) {
	for _, r := range []rune{0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x202e, 0x2066, 0x061c,
		0xfe0f, 0xe0041, 0x3164, 0x034f, 0x115f, 0x1b, 0x85, 0x7f} {
		name := "ad" + string(r) + "min"
		if Sanitize(name) == Sanitize("admin") {
			t.Errorf("%q shows as %q, like admin", name, Sanitize(name))
		}
	}
}

func TestSanitizeID(t *testing.T) {
	cases := []struct{ in, want string }{
		{"act_01HZX", "act_01HZX"},
		{"sha256:9f86d08", "sha256:9f86d08"},
		{"act\u202e1", `"act\u202e1"`},
		{"act\x1b[8m1", `"act\u001b[8m1"`},
		{"act\u200b1", `"act\u200b1"`},
		{"a\"b\\c\u200b", `"a\"b\\c\u200b"`},
		{"act\r1", `"act\r1"`},
		{"a\xffb", `"a\xffb"`},
		// Runes that draw as nothing, as a space, or as an ASCII letter.
		{"ab\u2800c", `"ab\u2800c"`},
		{"ab\u3000c", `"ab\u3000c"`},
		{"ab\u2000c", `"ab\u2000c"`},
		{"acc1\u00a0", `"acc1\u00a0"`},
		{"ab\u0301c", `"ab\u0301c"`},
		{"\u0430cc1", `"\u0430cc1"`},
		{"k\U0001d5bd", `"k\U0001d5bd"`},
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
		// Nothing is lost: without backslashes of its own, the input comes back.
		if !strings.Contains(s, `\`) {
			if back := unescape(t, out); back != s {
				t.Fatalf("Sanitize(%q) = %q unescapes to %q", s, out, back)
			}
		}
		id := SanitizeID(s)
		if id != s {
			// A changed id must be a Go-quoted string that unquotes to the input.
			back, err := strconv.Unquote(id)
			if err != nil || back != s {
				t.Fatalf("SanitizeID(%q) = %q does not unquote to the input (%v)", s, id, err)
			}
		}
		assertTerminalSafe(t, s, id)
	})
}

func TestSanitizeValue(t *testing.T) {
	const evil = "\x1b]52;c;cm0gLXJmIC8=\x07ok\r\u202e\u009b"
	const evilShown = `\u001b]52;c;cm0gLXJmIC8=\u0007ok\r\u202e\u009b`
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
		"status":        {a.Status, StatusConsensusNeeded + `\u001b[2J`},
		"fingerprint":   {a.Fingerprint, `"sha256:\u001b[8m"`},
		"vote user id":  {a.Votes[0].UserID, `"u\u001b1"`},
		"vote userName": {a.Votes[0].User.UserName, "mallory" + evilShown},
		"user tag":      {a.Votes[0].User.UserTags[0], "t" + evilShown},
		"api key name":  {a.Votes[0].User.APIKeys[0].APIKeyName, "k" + evilShown},
		"public key":    {a.Votes[0].User.APIKeys[0].Credential.PublicKey, `"02\u202eab"`},
		"signature":     {a.Votes[0].Signature, `"30\u001b"`},
		"intent name":   {a.Intent.CreatePolicyIntentV3.PolicyName, "p" + evilShown},
		"intent notes":  {a.Intent.CreatePolicyIntentV3.Notes, `line\nnext`},
		"result ids":    {a.Result.CreateInvitationsResult.InvitationIDs[0], `"inv\u001b"`},
		"failure":       {a.Failure.Message, "denied" + evilShown},
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
	if got := cfg.OauthClientIDs[`"goo\u001b[1mgle"`]; got != `"id\u001b1"` {
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
	if want := `{"a":["x\\u001b[31m",{"\"b\\u202e\"":"y\\r"}],"n":1}`; string(out) != want {
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
	if n.Name != `a\u001b` {
		t.Errorf("cyclic node name = %q", n.Name)
	}
	SanitizeValue(nil)
	SanitizeValue("not a pointer\x1b") // must not panic
	if s := strings.Repeat("é", 3); Sanitize(s) != s {
		t.Error("clean non-ASCII changed")
	}
}
