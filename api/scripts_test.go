package api

import (
	"strings"
	"testing"
)

func TestQuoteShowsLookAlikesAndCannotBeClosedFromInside(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ops may delete TVC deployments", `"Ops may delete TVC deployments"`},
		// U+0435 CYRILLIC SMALL LETTER IE imitating the Latin e.
		{"Ops may delete TVC deploym\u0435nts", `"Ops may delete TVC deploym\u0435nts"`},
		// A mostly Cyrillic word keeps its Cyrillic; the Latin letter hidden in it shows.
		{"Казначействoo", `"Казначейств\u006f\u006f"`},
		// A name made only of another script's look-alikes says which script it is.
		{"орѕ", `"орѕ" (Cyrillic)`},
		{"ΑΡΙ", `"ΑΡΙ" (Greek)`},
		{"ꓮꓓꓟꓲꓠ", `"ꓮꓓꓟꓲꓠ" (Lisu)`},
		// Look-alike letters of other scripts inside a Latin word.
		{"ᑭayments", `"\u146dayments"`},
		{"ⵔps", `"\u2d54ps"`},
		// Compatibility forms of ASCII, Latin look-alikes and other spaces, anywhere.
		{"ｄｅｐｌｏｙ", `"\uff44\uff45\uff50\uff4c\uff4f\uff59"`},
		{"𝖽𝖾𝗉", `"\U0001d5bd\U0001d5be\U0001d5c9"`},
		{"admin\u01c0", `"admin\u01c0"`},
		{"\u0280oot", `"\u0280oot"`},
		{"alice\u00a0smith", `"alice\u00a0smith"`},
		{"a\uff0db", `"a\uff0db"`},
		// A name cannot end its own quotes and add words of its own.
		{`No one may delete the treasury" (DENY)`, `"No one may delete the treasury\" (DENY)"`},
		{`back\slash`, `"back\\slash"`},
		// Escapes typed as text stay distinct from the characters they name.
		{"a\u202eb", `"a\u202eb"`},
		{`a\u202eb`, `"a\\u202eb"`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// Ordinary text shows as it is: other scripts, accents, and languages mixed
// word by word (a policy's notes, bilingual names).
func TestQuoteLeavesOrdinaryTextReadable(t *testing.T) {
	for _, s := range []string{
		"Ünïcödé café", "Москва", "Сергей", "Олена", "Αθήνα", "Ђорђе", "Казначейство",
		"財務チーム", "財務 team", "Политика для Kubernetes", "Jovan Јовановић", "Ђорђе Đorđe",
		"Лимит USDC для API и ETH", "Σύνοψη API και ETH",
	} {
		if got, want := Quote(s), `"`+s+`"`; got != want {
			t.Errorf("Quote(%q) = %s, want it as it is", s, got)
		}
	}
}

func TestQuoteIsTotal(t *testing.T) {
	for _, s := range []string{"\xff\xfe", "a\x9bb", strings.Repeat("ж", 1<<16) + "a", "\u0301\u0301", ""} {
		got := Quote(s)
		if !strings.HasPrefix(got, `"`) || !isClean(got) {
			t.Errorf("Quote(%q) = %q", s, got)
		}
	}
}

func TestScripts(t *testing.T) {
	if got := Scripts("deploym\u0435nts"); len(got) != 2 || got[0] != "Latin" || got[1] != "Cyrillic" {
		t.Errorf("Scripts = %v", got)
	}
	for _, s := range []string{"plain", "Ünïcödé café", "Казначейство", "team 2 — ops", ""} {
		if got := Scripts(s); got != nil {
			t.Errorf("Scripts(%q) = %v, want nil", s, got)
		}
	}
}

// A name ending in U+2800, the blank Braille pattern, draws exactly like the
// name without it: it is quoted, with the character escaped.
func TestNameTextMarksABrailleBlank(t *testing.T) {
	for _, n := range []string{"bob\u2800", "\u2800bob", "b\u2800ob"} {
		got := NameText(n)
		if got == n || !strings.Contains(got, `\u2800`) {
			t.Errorf("NameText(%q) = %q; want it quoted with the blank escaped", n, got)
		}
	}
}
