package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// The intent JSON is shown exactly as it is, and a string in it that
// api.Quote would flag (a Cyrillic letter in a Latin name, a name all in
// look-alikes of another script, a fullwidth letter) is named after it, by
// its path, as Quote shows it; ordinary names in any script are not.
func TestJSONWarnsOfLookalikesAndStaysExact(t *testing.T) {
	type invitation struct {
		Name string   `json:"receiverUserName"`
		Tags []string `json:"receiverUserTags"`
	}
	v := map[string]any{
		"createPolicyIntentV3": map[string]any{"policyName": "Ops may delete deploym\u0435nts", "notes": `say "hi" \ Москва, 財務チーム`},
		"invitations": []invitation{
			{Name: "dave", Tags: []string{"t-1"}},
			{Name: "\u043e\u0440\u0455", Tags: []string{"t-2", "ａdmins"}}, // "орѕ", all Cyrillic, reads "ops"
		},
	}
	b := NewDetailBuilder(plainTheme)
	b.JSON(v)
	out := ansi.Strip(b.String())

	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, want.String()) {
		t.Errorf("the JSON is not shown exactly:\n%s\nwant it to start with\n%s", out, want.String())
	}
	warnings := strings.Split(strings.TrimSpace(strings.TrimPrefix(out, want.String())), "\n")
	wantWarnings := []string{
		`⚠ look-alike characters in createPolicyIntentV3.policyName: "Ops may delete deploym\u0435nts"`,
		`⚠ look-alike characters in invitations[1].receiverUserName: "орѕ" (Cyrillic)`,
		`⚠ look-alike characters in invitations[1].receiverUserTags[1]: "\uff41dmins"`,
	}
	if strings.Join(warnings, "\n") != strings.Join(wantWarnings, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}

	// Nothing flagged, nothing added.
	plain := NewDetailBuilder(plainTheme)
	plain.JSON(map[string]string{"policyName": "Москва", "notes": `a "quoted" \ name`})
	if strings.Contains(plain.String(), "⚠") {
		t.Errorf("a warning for ordinary names:\n%s", plain.String())
	}
}

// Whatever the document (the walk reads what the encoder wrote, but a walk
// must never panic), it returns only quoted strings.
func FuzzLookalikeStrings(f *testing.F) {
	f.Add(`{"a":["x",{"b":"deploym\u0435nts"}],"c":1}`)
	f.Add(`[[[]]]}`)
	f.Add(`{"a":`)
	f.Fuzz(func(t *testing.T, doc string) {
		for _, l := range lookalikeStrings([]byte(doc)) {
			if !strings.HasPrefix(l.quoted, `"`) {
				t.Fatalf("%q: a warning shows %q", doc, l.quoted)
			}
		}
	})
}

// A look-alike letter in a 372 kB contract interface is named without
// repeating the whole interface: the warning shows the letter's escape with
// what surrounds it, marks where it was cut and says how long the string is.
func TestLookalikeWarningOfALongStringShowsTheLetter(t *testing.T) {
	abi := `[{"name":"transfer","type":"function"}` + strings.Repeat(`,{"name":"x","type":"function"}`, 12_000) +
		",{\"name\":\"\u0430pprove\"}]" // a Cyrillic а
	b := NewDetailBuilder(plainTheme)
	b.JSON(map[string]string{"smartContractInterface": abi})
	out := ansi.Strip(b.String())
	i := strings.Index(out, "⚠")
	if i < 0 {
		t.Fatalf("no warning for the look-alike letter:\n%.300s", out)
	}
	warning := out[i:]
	if len(warning) > 400 {
		t.Errorf("the warning repeats %d bytes of the string: %.500s", len(warning), warning)
	}
	for _, want := range []string{
		`⚠ look-alike characters in smartContractInterface: "…`,
		`{\"name\":\"\u0430pprove\"}]"`,
		fmt.Sprintf(" (%d characters)", utf8.RuneCountInString(abi)),
	} {
		if !strings.Contains(warning, want) {
			t.Errorf("the warning lacks %q: %s", want, warning)
		}
	}

	// Cut at the start and the end, not inside an escape nor between a
	// letter and its mark (a script's own marks, which Quote leaves as they
	// are: a Devanagari virama and vowel sign); a short string stays whole.
	long := strings.Repeat("\u0915\u094d\\", 200) + "deploym\u0435nts" + strings.Repeat("\u0915\u093e\"", 200)
	q, ok := LooksAlike(long)
	body := strings.TrimSuffix(strings.TrimPrefix(q, `"…`), fmt.Sprintf(`…" (%d characters)`, utf8.RuneCountInString(long)))
	if !ok || body == q || !strings.Contains(body, `deploym\u0435nts`) {
		t.Fatalf("LooksAlike(%.40q…) = %q, %v", long, q, ok)
	}
	if r, _ := utf8.DecodeRuneInString(body); unicode.IsMark(r) || strings.HasPrefix(body, `\"`) || strings.HasPrefix(body, `"`) {
		t.Errorf("cut before %q", body[:min(len(body), 8)])
	}
	if strings.HasSuffix(body, `\`) || strings.HasSuffix(body, "\u0915") {
		t.Errorf("cut inside an escape or before a mark: …%q", body[max(len(body)-8, 0):])
	}
	if q, _ := LooksAlike("deploym\u0435nts"); q != `"deploym\u0435nts"` {
		t.Errorf("a short string is shown as %q", q)
	}
}
