package ui

import (
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// checkWrapped fails t unless out is in wrapped to width the way a reader
// needs: every line within the width; nothing lost but the spaces where a
// line breaks, and those as the row's end says (from 8 columns): ↩ for
// none, nothing for one, a ␣ for each of more; the escape sequences all
// kept, in order; and every break either at a space, after ",", "&&" or
// "||", or inside a word longer than a whole line — and then never inside
// a sanitizer escape or a grapheme cluster.
func checkWrapped(t *testing.T, in string, width int, out string) {
	t.Helper()
	lines := strings.Split(ansi.Strip(out), "\n")
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > width && !indivisible(l) {
			t.Errorf("wrapped to %d, a line is %d wide: %q\n(from %q)", width, w, l, in)
		}
	}
	seqs := regexp.MustCompile("\x1b\\[[0-9;]*m")
	if a, b := seqs.FindAllString(in, -1), seqs.FindAllString(out, -1); strings.Join(a, "") != strings.Join(b, "") {
		t.Errorf("escape sequences changed: %q became %q", a, b)
	}
	// The marks' own characters in the text are shown escaped.
	orig := strings.NewReplacer("↩", `\u21a9`, "␣", `\u2423`).Replace(ansi.Strip(in))
	marks := width >= 8
	// shown: the spaces shown as ␣ since the last text, all the spaces
	// between it and the next.
	shown, prevCont, prevLabel := 0, false, false
	canSplit, pieces := splittable(orig), pieceWidths(orig)
	// An indented line's continuations start with its indentation.
	hang := keptIndent(len(orig)-len(strings.TrimLeft(orig, " ")), width)
	if strings.TrimLeft(orig, " ") == "" {
		hang = 0
	}
	// Align each line with the text it came from: only spaces lie between.
	at := 0
	for i, l := range lines {
		room := width
		if i > 0 && hang > 0 {
			if !strings.HasPrefix(l, strings.Repeat(" ", hang)) {
				t.Errorf("line %d %q does not keep the indentation (%d) of %q", i, l, hang, orig)
			} else {
				l, room = l[hang:], width-hang
			}
		}
		lead := 0
		for ; strings.HasPrefix(l, "␣"); lead++ {
			l = strings.TrimPrefix(l, "␣")
		}
		cont := strings.HasSuffix(l, "↩")
		l = strings.TrimSuffix(l, "↩")
		trail := 0
		for ; strings.HasSuffix(l, "␣"); trail++ {
			l = strings.TrimSuffix(l, "␣")
		}
		if !marks && (cont || lead+trail > 0) {
			t.Errorf("wrapped to %d, too narrow for marks, line %d has some: %q", width, i, out)
		}
		start := at
		if i > 0 && marks {
			// The spaces at the break are as many as the marks say.
			if l == "" && trail == 0 {
				shown += lead // a row of ␣ alone: the spaces go on
				prevCont = cont
				continue
			}
			gap := shown + lead
			if gap == 0 && !prevCont {
				gap = 1
				for prevLabel && at+gap < len(orig) && orig[at+gap] == ' ' {
					gap++ // spaces after a label's colon align, unmarked
				}
			}
			if at+gap > len(orig) || strings.Count(orig[at:at+gap], " ") != gap || at+gap < len(orig) && orig[at+gap] == ' ' && l != "" {
				t.Errorf("line %d %q: the break does not show the spaces at %d of %q: %q", i, l, at, orig, out)
			}
			at = min(at+gap, len(orig))
			if gap > 0 {
				start = -1 // a break at spaces is inside no word
			}
		} else {
			for at < len(orig) && orig[at] == ' ' && !strings.HasPrefix(orig[at:], l) {
				at++
			}
		}
		mark := 0
		if marks {
			mark = 1 // the cell ↩ takes when the word goes on with no space
		}
		if i > 0 && at == start && !breakPointAt(orig, at) {
			if n := pieces[at]; n+mark <= room {
				t.Errorf("a %d-cell word that fits in %d is broken at %d: %q", n, room, at, out)
			}
			if !canSplit[at] {
				t.Errorf("a sanitizer escape or a grapheme cluster is split at %d: %q", at, out)
			}
		}
		if !strings.HasPrefix(orig[at:], l) {
			t.Fatalf("line %d %q is not the text at %d of %q", i, l, at, orig)
		}
		at += len(l)
		shown, prevCont, prevLabel = trail, cont, strings.HasSuffix(l, ":")
	}
	if rest := orig[at:]; strings.TrimLeft(rest, " ") != "" {
		t.Errorf("text lost at the end: %q", rest)
	}
}

// keptIndent is the indentation a wrapped line's continuations keep, written
// out here rather than taken from wrap.go so that a wrong rule there fails:
// the line's own, when it leaves them at least half the width and at least
// 12 cells (the widest sanitizer escape, \U000e0041, with room to spare);
// else none.
func keptIndent(indent, width int) int {
	room := width - indent
	if indent > 0 && room >= width/2 && room >= 12 {
		return indent
	}
	return 0
}

// indivisible reports a line that is one grapheme cluster or one sanitizer
// escape (with the marks combining with its last character), besides
// zero-width ones: wider than the width, it can only overflow.
func indivisible(line string) bool {
	var b strings.Builder
	for i := 0; i < len(line); {
		g, w := ansi.FirstGraphemeCluster(line[i:], ansi.GraphemeWidth)
		if w > 0 {
			b.WriteString(g)
		}
		i += max(len(g), 1)
	}
	s := b.String()
	if n := escapeLen(s); n > 0 {
		g, _ := ansi.FirstGraphemeCluster(s[n-1:], ansi.GraphemeWidth)
		return n-1+len(g) == len(s)
	}
	g, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	return len(g) == len(s)
}

// breakPointAt reports whether a line may end at byte at of s without a
// space: after ",", "&&" or "||" not followed by more of the same marks.
func breakPointAt(s string, at int) bool {
	before, after := s[:at], s[at:]
	if at == 0 {
		return false
	}
	if g, _ := ansi.FirstGraphemeCluster(s[at-1:], ansi.GraphemeWidth); len(g) != 1 {
		return false // the mark is a character with what combines with it
	}
	return (strings.HasSuffix(before, ",") || strings.HasSuffix(before, "&&") || strings.HasSuffix(before, "||")) &&
		(after == "" || !strings.ContainsRune(",&|", rune(after[0])))
}

// pieceWidths gives, for each byte of s, the width of the unbreakable piece
// it is in (between spaces and break points).
func pieceWidths(s string) []int {
	out := make([]int, len(s)+1)
	// A space is one only alone: with a combining mark it is a character.
	space := func(i int) bool {
		g, _ := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		return g == " "
	}
	from := 0
	for to := 0; to <= len(s); to++ {
		if to == len(s) || s[to] == ' ' && space(to) || breakPointAt(s, to) {
			w := ansi.StringWidth(s[from:to])
			for i := from; i <= to; i++ {
				out[i] = max(out[i], w)
			}
			from = to
			if to < len(s) && s[to] == ' ' && space(to) {
				from = to + 1
			}
		}
	}
	return out
}

// splittable marks the byte offsets of s a hard break may fall on: grapheme
// cluster boundaries outside sanitizer escapes.
func splittable(s string) []bool {
	ok := make([]bool, len(s)+1)
	for i := 0; i < len(s); {
		ok[i] = true
		g, _ := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		i += max(len(g), 1)
	}
	ok[len(s)] = true
	for i := range len(s) {
		if n := escapeLen(s[i:]); n > 0 {
			for j := i + 1; j < i+n; j++ {
				ok[j] = false
			}
		}
	}
	return ok
}

// A line breaks where a reader expects it: a word or an id that fits on a
// line is never split, a condition breaks after its && and commas, and only
// a word longer than a line (a fingerprint) is broken — never inside an
// escape, a wide character or a style.
func TestWrapBreaksOnlyWordsLongerThanTheLine(t *testing.T) {
	id := "01a209a7-804a-7ccb-b680-5c899dbd8556"
	condition := "activity.type in ['ACTIVITY_TYPE_CREATE_INVITATIONS','ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT']&&approvers.any(user, user.id == '" + id + "')"
	cases := []struct {
		in    string
		width int
	}{
		{condition, 50},
		{condition, 30},
		{"votes: " + id + ", " + id + ", " + id, 45},
		{"fingerprint: sha256:73a6e2f6ba2784ab61ba2677e47f4aa7e98d811df4780560f1b1947276c91d27", 40},
		{`policy "deploym\u0435nts deploym\u0435nts deploym\u0435nts" \U000e0041\U000e0041\U000e0041\U000e0041\xff\xff`, 17},
		{"財務チーム財務チーム財務チーム 財務チーム", 9},
		{"👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻👩🏽‍💻 team", 5},
		{"\x1b[1mlabel:\x1b[0m   a value long enough to wrap \x1b[31mred words here\x1b[0m end", 20},
		{"        \"receiverUserName\": \"a name with look-alikes, deploym\\u0435nts\",", 24},
		{"a&&b||c,d,,e&&&f", 4},
		// An evaluation under its activity: continued under itself.
		{"    REQUIRES_CONSENSUS  \"Operator changes need two ops approvers\" (01a2…) — condition matched; consensus not met yet", 60},
		// Long runs of plain ASCII, split where the width ends, beside
		// what must not be split: a mark combining with the run's last
		// letter, an escape, a wide character, a style.
		{"key: " + strings.Repeat("ab", 40) + "e\u0301" + strings.Repeat("cd", 30) + "\u0435" + strings.Repeat("x", 25), 13},
		{strings.Repeat("\\\\\"", 30) + "財務" + strings.Repeat("z", 31) + "\x1b[1m" + strings.Repeat("y", 40) + "\x1b[0m", 7},
		{"  " + strings.Repeat("q", 50), 1},
	}
	for _, c := range cases {
		out := wrapLine(c.in, c.width)
		checkWrapped(t, c.in, c.width, out)
	}
	// What the old wrap broke mid-word: an id that fits moves to the next
	// line whole; the condition's parts stay whole.
	out := ansi.Strip(wrapLine(condition, 50))
	for _, whole := range []string{"'" + id + "')", "'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT']&&", "approvers.any(user,"} {
		if !strings.Contains(out, whole) {
			t.Errorf("%q is not whole on a line:\n%s", whole, out)
		}
	}
	// A value longer than the line starts beside its label.
	if first := strings.Split(wrapLine(cases[3].in, 40), "\n")[0]; !strings.HasPrefix(first, "fingerprint: sha256:73a6") {
		t.Errorf("the fingerprint left its label: %q", first)
	}
}

// An indented line's continuations stay under it while that leaves them
// half the line and 12 cells; past that they start at the margin rather
// than in a sliver at the right.
func TestWrapKeepsTheIndentationWhileHalfTheLineIsLeft(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  string
	}{
		// 4 of 24: 20 cells are left.
		{"    alpha beta gamma delta epsilon", 24, "    alpha beta gamma\n    delta epsilon"},
		// 12 of 24: 12 left, half the line and the minimum.
		{strings.Repeat(" ", 12) + "alpha beta gamma", 24, strings.Repeat(" ", 12) + "alpha beta\n" + strings.Repeat(" ", 12) + "gamma"},
		// 13 of 24: 11 left, under the minimum.
		{strings.Repeat(" ", 13) + "alpha beta gamma", 24, strings.Repeat(" ", 13) + "alpha beta\ngamma"},
		// 15 of 30: half the line left.
		{strings.Repeat(" ", 15) + "alpha beta gamma", 30, strings.Repeat(" ", 15) + "alpha beta\n" + strings.Repeat(" ", 15) + "gamma"},
		// 16 of 30: less than half left.
		{strings.Repeat(" ", 16) + "alpha beta gamma", 30, strings.Repeat(" ", 16) + "alpha beta\ngamma"},
		// 4 of 14: 10 left, half the line but under the minimum.
		{"    alpha beta gamma", 14, "    alpha beta\ngamma"},
	}
	for _, c := range cases {
		if got := wrapLine(c.in, c.width); got != c.want {
			t.Errorf("%q wrapped to %d:\n%s\nwant:\n%s", c.in, c.width, got, c.want)
		}
	}
}

// Opening an activity that uploads a 400 kB contract interface wraps its
// intent line on every render, on the UI goroutine: a long word costs about
// its own size in memory, not an allocation per letter (71 MB once, and
// half a second with it).
func TestWrapLongWordCostsItsSize(t *testing.T) {
	for name, l := range map[string]string{
		"letters":        `    "smartContractInterface": "` + strings.Repeat("a", 400_000) + `",`,
		"escaped quotes": `    "smartContractInterface": "[\"` + strings.Repeat(`\\\"`, 133_000) + `\"]",`,
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out := wrapLine(l, 98)
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 8*uint64(len(l)) {
			t.Errorf("%s: wrapping a %d-byte line allocated %d bytes", name, len(l), got)
		}
		// The first line holds 97 cells and its ↩, each next one 93 and
		// its ↩ beside the indentation of 4 it keeps, the last up to 94.
		if want := ansi.StringWidth(l); strings.Count(out, "\n") != (want-98+92)/93 {
			t.Errorf("%s: %d lines for %d cells wrapped to 98", name, strings.Count(out, "\n")+1, want)
		}
	}
}

// Whatever the text, a wrapped line keeps the properties checkWrapped checks.
func FuzzWrapLine(f *testing.F) {
	f.Add("activity.resource == 'USER' && approvers.count() >= 2, x", 12)
	f.Add("\x1b[31mred\x1b[0m \u0435 財務 \x00\x1b[2J", 3)
	f.Add("👩🏽‍💻 a,b,,c &&& d", 2)
	f.Add("  abcdefghe\u0301fgh\\u0041ijkl\\xffmn財op", 4)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = 1 + (width%80+80)%80
		in := Clean(s) // what reaches the wrap is always cleaned
		checkWrapped(t, in, width, wrapLine(in, width))
	})
}
