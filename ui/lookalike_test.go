package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

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
