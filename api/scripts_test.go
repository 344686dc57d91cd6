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

// Names that draw exactly as "alice" must not show as it: a dotless ı with a
// combining dot above, an i with a second dot, a Latin capital iota for l.
func TestQuoteMarksNamesThatDrawAsAnother(t *testing.T) {
	for _, name := range []string{"al\u0131\u0307ce", "ali\u0307ce", "a\u0196ice", "al\u0131ce", "a\ua7aeice", "\u0251lice"} {
		for _, shown := range []string{Quote(name), NameText(name)} {
			if strings.Contains(shown, name) || !strings.Contains(shown, `\u`) {
				t.Errorf("%+q shows as %s, which draws as plain text", name, shown)
			}
		}
	}
}

// A letter spelt precomposed and spelt decomposed are two names: they never
// look the same, and the precomposed one (NFC) shows as it is.
func TestQuoteTellsSpellingsOfTheSameLetterApart(t *testing.T) {
	composed, decomposed := "caf\u00e9", "cafe\u0301"
	if got := Quote(composed); got != `"`+composed+`"` {
		t.Errorf("Quote(%+q) = %s, want it as it is", composed, got)
	}
	if Quote(composed) == Quote(decomposed) || NameText(composed) == NameText(decomposed) {
		t.Errorf("%+q and %+q both show as %s", composed, decomposed, Quote(composed))
	}
	if got := Quote(decomposed); !strings.Contains(got, `\u0301`) || !strings.Contains(got, "not NFC") {
		t.Errorf("Quote(%+q) = %s, want its mark escaped and it flagged as not NFC", decomposed, got)
	}
	// Hangul spelt in conjoining jamo draws as the precomposed syllable.
	if got := Quote("\u1112\u1161\u11ab"); !strings.Contains(got, "not NFC") {
		t.Errorf("Quote(jamo) = %s, want it flagged as not NFC", got)
	}
}

// A script's own marks on its own letters are how it is written.
func TestQuoteKeepsAScriptsOwnMarks(t *testing.T) {
	for _, s := range []string{"नमस्ते", "שָׁלוֹם", "สวัสดี"} {
		if got, want := Quote(s), `"`+s+`"`; got != want {
			t.Errorf("Quote(%q) = %s, want it as it is", s, got)
		}
	}
	// The same marks on a Latin letter stand out.
	if got := Quote("i\u094d"); !strings.Contains(got, `\u094d`) {
		t.Errorf("Quote(i + virama) = %s, want the virama escaped", got)
	}
}

// A name that could read as holding an id, or whose brackets or quotes could
// end it early, is quoted: "carol (<carol's id>)" shown next to its own id
// must not read as carol; a plain name stays as it is.
func TestNameTextQuotesNamesThatCouldHoldAnID(t *testing.T) {
	carolID := "01a22b94-1983-7514-85e3-c1a08c13fd60"
	for _, n := range []string{"carol (" + carolID + ")", "carol " + carolID, "carol [x]", "carol {x}", "carol <x>", "carol `x`", "carol \u201cx\u201d", "carol 0192abcd"} {
		if got := NameText(n); got != Quote(n) {
			t.Errorf("NameText(%q) = %s; want it quoted as %s", n, got, Quote(n))
		}
	}
	if got := NameWithID("carol ("+carolID+")", "u-fake"); strings.HasPrefix(got, "carol (") {
		t.Errorf("the impostor shows as %s, which reads as carol with carol's id", got)
	}
	for _, n := range []string{"carol", "Carol Doe", "ops-team-2", "deadbeef", "2024"} {
		if got := NameText(n); got != n {
			t.Errorf("NameText(%q) = %s; want it as it is", n, got)
		}
	}
}
