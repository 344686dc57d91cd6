package api

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Look-alike names: "deploymеnts" with a Cyrillic е reads exactly like the
// Latin "deployments", so a policy or user named to imitate another cannot be
// told from it on screen. Quote shows such names so that they look different
// from what they imitate, without making ordinary text in other scripts (or
// text mixing languages word by word, "Политика для Kubernetes") unreadable:
//   - a word that mixes letters of two look-alike scripts (TR39's mixed-script
//     case, within one word) shows the letters outside its main script escaped;
//   - a name made only of letters that read as Latin ones, in another script
//     ("орѕ" for "ops", "ΑΡΙ" for "API"), is followed by its script's name:
//     "орѕ" (Cyrillic), readable and never taken for Latin;
//   - compatibility forms of ASCII (fullwidth, mathematical letters), Latin
//     look-alikes (IPA and small capitals: ɑ, ʀ, ᴀ; ǀ for l) and spaces other
//     than U+0020 are escaped wherever they are.

// scriptTables are Latin and the scripts whose letters imitate Latin ones (and
// each other). Only mixing two of these is flagged: Japanese mixes Han and
// Katakana, and "財務team" mixes Han and Latin, with nothing imitated (TR39's
// "highly restrictive" profile allows both).
var scriptTables = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin},
	{"Cyrillic", unicode.Cyrillic},
	{"Greek", unicode.Greek},
	{"Armenian", unicode.Armenian},
	{"Cherokee", unicode.Cherokee},
	{"Coptic", unicode.Coptic},
	{"Lisu", unicode.Lisu},
	{"Canadian Aboriginal", unicode.Canadian_Aboriginal},
	{"Tifinagh", unicode.Tifinagh},
}

// scriptOf names r's script when it is one of scriptTables; "" for every other
// rune (digits, punctuation, spaces, marks, letters of other scripts).
func scriptOf(r rune) string {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	}
	if !unicode.IsLetter(r) {
		return ""
	}
	for _, s := range scriptTables {
		if unicode.Is(s.table, r) {
			return s.name
		}
	}
	return ""
}

// Scripts lists the look-alike scripts of s's letters (scriptTables), its main
// one (the most letters) first, when there are two or more; nil otherwise.
func Scripts(s string) []string {
	if isASCIIText(s) {
		return nil
	}
	count := map[string]int{}
	var order []string
	for _, r := range s {
		sc := scriptOf(r)
		if sc == "" {
			continue
		}
		if count[sc] == 0 {
			order = append(order, sc)
		}
		count[sc]++
	}
	if len(order) < 2 {
		return nil
	}
	main := 0
	for i, sc := range order {
		if count[sc] > count[order[main]] {
			main = i
		}
	}
	order[0], order[main] = order[main], order[0]
	return order
}

func isASCIIText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lookalikes are letters of other scripts that read as Latin ones. Lower-case
// в, к, м, н, т read as small capitals, not as Latin letters, so that Russian
// words like "Москва" are not taken for Latin ones; Lisu letters all read as
// Latin capitals.
const lookalikes = "аАВеЕКМНоОрРсСТуХхѕЅіІјЈӏӀһҺԁԛԚԜԝүҮ" + // Cyrillic
	"ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαγικνορυωϲϳ" + // Greek
	"օսհոզ" + // Armenian
	"ᎪᏴᏟᎬᏀᎻᎥᏦᏞᎷᏁᎾᏢᏚᎢᏙᏔᏃ" + // Cherokee
	"ᑭᑕᒪᑎᐯᐱᗞᕼᒍ" + // Canadian syllabics
	"ⵔⵙⵏⵀⵜⴷ" // Tifinagh

// isLookalike reports a letter of another script that reads as a Latin one.
func isLookalike(r rune) bool {
	return strings.ContainsRune(lookalikes, r) || unicode.Is(unicode.Lisu, r) && unicode.IsLetter(r)
}

// latinLookalikes are single Latin letters outside the IPA and small-capital
// blocks that Unicode's confusables (TR39) draw as an ASCII letter or digit:
// the dotless ı and ȷ (i, j), ĸ (k), Ƅ ƅ (b), Ɩ and Ɪ (l), Ʀ (R), Ƨ and Ꝛ (2),
// Ʒ Ȝ Ꝫ (3), Ƽ (5), ƿ (p), Ȣ ȣ (8), the small capitals ꜰ ꜱ (F, s), Ʝ (J),
// ꬵ (f) and ꭎ ꭒ (u). Turkish names thus show their ı escaped: "alıce" must
// not read as "alice".
const latinLookalikes = "ıȷĸƄƅƖƦƧƷƼƿȜȢȣꜰꜱꞮꝚꝪꞲꬵꭎꭒ"

// latinLookalike reports Latin-script letters that read as other ASCII ones:
// the IPA letters (ɑ as a, ɡ as g, ʀ as R), small capitals (ᴀ), the click
// letters (ǀ as l or |) and latinLookalikes.
func latinLookalike(r rune) bool {
	return r >= 0x1C0 && r <= 0x1C3 || r >= 0x250 && r <= 0x2AF || r >= 0x1D00 && r <= 0x1D2B ||
		strings.ContainsRune(latinLookalikes, r)
}

// markStandsOut reports a combining mark (left standing after NFC: Quote sees
// the name as sent) that could make a name draw like another: any mark of
// no script of its own (the generic accents U+0300–036F, Arabic vowel points,
// the combining kana voicing marks…), whose place on its base depends on the
// font ("al\u0131\u0307ce" and "ali\u0307ce" both draw as "alice"), and any
// mark on a base of another script, or on none. A script's own marks on its
// own letters (Devanagari vowel signs and virama, Hebrew points, Thai vowels)
// are how that script is written, and show as they are. A precomposed letter
// (é) is one rune, not a mark, and shows as it is; the same letter spelt
// decomposed (e\u0301) shows its mark escaped, so the two never look alike.
func markStandsOut(base, mark rune, haveBase bool) bool {
	if !haveBase || unicode.Is(unicode.Inherited, mark) || unicode.Is(unicode.Common, mark) {
		return true
	}
	for _, table := range unicode.Scripts {
		if unicode.Is(table, mark) {
			return !unicode.Is(table, base)
		}
	}
	return true
}

// brailleBlank is U+2800 BRAILLE PATTERN BLANK: a symbol (So) that takes a
// cell and shows nothing.
const brailleBlank = 0x2800

// imitatesASCII reports a rune that stands for ASCII text without being it: a
// letter or digit whose NFKC normal form is ASCII (fullwidth ｄ, mathematical
// 𝖽, the ligature ﬁ, ℓ), any fullwidth form of ASCII (－ for -), a Latin
// look-alike, a space other than U+0020 (alice\u00a0smith is not alice
// smith), or a symbol that draws as a space: the blank Braille pattern
// U+2800, which no space class holds (bob\u2800 would read as bob).
func imitatesASCII(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return false
	case unicode.IsSpace(r), unicode.Is(unicode.Zs, r), r == brailleBlank, r >= 0xFF01 && r <= 0xFF5E, latinLookalike(r):
		return true
	case !unicode.IsLetter(r) && !unicode.IsNumber(r):
		return false
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	return !norm.NFKC.IsNormal(buf[:n]) && isASCIIText(norm.NFKC.String(string(buf[:n])))
}

// lookalikeScript names the script of a name that has letters, none of them
// Latin, all of them reading as Latin ones ("Cyrillic" for "орѕ"); "" for any
// other name.
func lookalikeScript(s string) string {
	script := ""
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		sc := scriptOf(r)
		if sc == "" || sc == "Latin" || !isLookalike(r) {
			return ""
		}
		switch {
		case script == "":
			script = sc
		case script != sc:
			script = "mixed"
		}
	}
	return script
}

// Quote shows a name from the service between double quotes, as a Go string
// literal: the quotes and backslashes inside it escaped (a name cannot close its
// own quotes and go on as if it were the console's text), every rune Sanitize
// escapes escaped, and look-alikes shown as such (see the top of this file): in
// a word that mixes scripts, the letters outside its main one escaped
// ("deploym\u0435nts"); compatibility forms of ASCII, Latin look-alikes,
// spaces other than U+0020 and combining marks that could draw like part of
// another letter (markStandsOut) escaped; a name made only of another
// script's look-alikes followed by the script's name: "орѕ" (Cyrillic); and a
// name not in Unicode's NFC form, which some other spelling draws the same
// as, followed by (not NFC).
func Quote(s string) string {
	if isASCIIText(s) {
		return `"` + escape(s, true) + `"`
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		// A word: letters, marks and digits; anything else stands alone.
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && n == 1 || !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) {
				break
			}
			j += n
		}
		if j == i {
			_, n := utf8.DecodeRuneInString(s[i:])
			quoteRunes(&b, s[i:i+n], "")
			i += n
			continue
		}
		main := ""
		if scripts := Scripts(s[i:j]); scripts != nil {
			main = scripts[0]
		}
		quoteRunes(&b, s[i:j], main)
		i = j
	}
	b.WriteByte('"')
	if sc := lookalikeScript(s); sc != "" {
		b.WriteString(" (" + sc + ")")
	}
	if !norm.NFC.IsNormalString(s) {
		// Another spelling of the same text (its NFC form) draws the same:
		// Hangul spelt in jamo, a precomposed letter Unicode spells decomposed.
		b.WriteString(" (not NFC)")
	}
	return b.String()
}

// quoteRunes writes part of a name for Quote: when main is set (a word mixing
// look-alike scripts), letters of other look-alike scripts are escaped.
func quoteRunes(b *strings.Builder, s, main string) {
	var base rune // the last rune that is not a mark, which marks sit on
	haveBase := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		sc := scriptOf(r)
		mark := unicode.IsMark(r)
		if !mark {
			base, haveBase = r, true
		}
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(escape(s[i:i+n], true))
		case main != "" && sc != "" && sc != main, imitatesASCII(r), mark && markStandsOut(base, r, haveBase):
			writeEscaped(b, r)
		default:
			b.WriteString(escape(s[i:i+n], true))
		}
		i += n
	}
}

// NameText shows a name from the service as it is when it can only read as
// itself, and quoted (Quote) when it could pass for other words or another
// name: it holds a quote, a backslash, spaces that hide at its ends or widen a
// gap, brackets or a word shaped like an id (`carol (<carol's id>)` next to its
// own id would read as carol), or anything Quote escapes (look-alike letters,
// characters Sanitize escapes). A name with a real control character and one
// holding its escape typed as text thus never look the same: the first is
// quoted and escaped, the second quoted with its backslash doubled.
func NameText(n string) string {
	q := Quote(n)
	if q != `"`+n+`"` || n == "" || strings.ContainsAny(n, nameMarks) || strings.TrimSpace(n) != n || strings.Contains(n, "  ") || holdsIDLikeWord(n) {
		return q
	}
	return n
}

// nameMarks are the characters that, in a name shown unquoted, could close it
// early or open text that reads as something else (an id in parentheses).
const nameMarks = "'`\"()[]{}<>\u2018\u2019\u201c\u201d\u00ab\u00bb"

// holdsIDLikeWord reports a word of n that reads as an id or a key: at least
// eight characters, all hex digits and dashes, one of them a digit.
func holdsIDLikeWord(n string) bool {
	words := strings.FieldsFunc(n, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' })
	for _, w := range words {
		if len(w) >= 8 && strings.ContainsAny(w, "0123456789") && strings.IndexFunc(w, func(r rune) bool { return !isHexDigit(r) && r != '-' }) < 0 {
			return true
		}
	}
	return false
}

func isHexDigit(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
}

// NameWithID shows a name from the service with the id it belongs to, as
// `alice (0192…)`: two users, keys or tags may share a name.
func NameWithID(name, id string) string { return NameText(name) + " (" + SanitizeID(id) + ")" }

// QuotedNameWithID is NameWithID with the name always quoted, for a member
// named among a vote's own words: a plain name written as those words then
// still reads as a name.
func QuotedNameWithID(name, id string) string { return Quote(name) + " (" + SanitizeID(id) + ")" }
