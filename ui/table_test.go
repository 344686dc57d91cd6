package ui

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sahilm/fuzzy"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

var plainTheme = theme.New(theme.Options{NoColor: true})

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	return tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
}

var (
	types      = []string{"CREATE_POLICY_V3", "SET_ORGANIZATION_FEATURE", "DELETE_API_KEYS", "CREATE_USER_TAG", "CREATE_INVITATIONS", "DELETE_WALLET_ACCOUNTS"}
	requesters = []string{"alice", "bob", "carol", "operator", "dave"}
	statuses   = []string{"CONSENSUS_NEEDED", "COMPLETED", "FAILED", "REJECTED"}
)

func activityRows(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{ID: fmt.Sprintf("act-%08d", i), Cells: []string{
			fmt.Sprintf("%dm", i%60), types[i%len(types)], requesters[(i/7)%len(requesters)],
			statuses[(i/3)%len(statuses)], fmt.Sprintf("%d/2", i%3), "vote"}}
	}
	return rows
}

func newTestTable(rows []Row) Table {
	t := NewTable(plainTheme, []Column{{Title: "AGE", Width: 4}, {Title: "TYPE", Width: 26, Grow: true},
		{Title: "REQUESTER", Width: 10}, {Title: "STATUS", Width: 17}, {Title: "VOTES", Width: 5}, {Title: "YOU", Width: 4}})
	t.SetSize(120, 30)
	t.SetRows(rows)
	return t
}

// isSubsequence is an independent statement of a fuzzy match: every rune of the
// pattern appears in s in order, ignoring case.
func isSubsequence(pattern, s string) bool {
	p := []rune(strings.ToLower(pattern))
	i := 0
	for _, r := range strings.ToLower(s) {
		if i < len(p) && r == p[i] {
			i++
		}
	}
	return i == len(p)
}

func typeInto(t Table, s string) Table {
	for _, r := range s {
		t, _ = t.Update(press(string(r)))
	}
	return t
}

func TestFilterMatchesExactlyTheSubsequenceRows(t *testing.T) {
	rows := activityRows(2000)
	for _, pattern := range []string{"pol", "bobrej", "DELKEYS", "act-00001", "zzz", "carolcons", "c", "Ü", "2/2vote", "op-"} {
		tbl := newTestTable(rows)
		tbl, _ = tbl.Update(press("/"))
		tbl = typeInto(tbl, pattern)
		var want []string
		for _, r := range rows {
			if isSubsequence(pattern, strings.Join(r.Cells, " ")+" "+r.ID) {
				want = append(want, r.ID)
			}
		}
		var got []string
		for _, i := range tbl.visible {
			got = append(got, rows[i].ID)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("filter %q: %d rows, want %d (in the list's order)", pattern, len(got), len(want))
		}
		// And the same set as sahilm/fuzzy, whose matches the table highlights.
		var hay []string
		for _, r := range rows {
			hay = append(hay, strings.Join(r.Cells, " ")+" "+r.ID)
		}
		var lib []string
		for _, m := range fuzzy.FindNoSort(pattern, hay) {
			lib = append(lib, rows[m.Index].ID)
		}
		if strings.Join(got, ",") != strings.Join(lib, ",") {
			t.Errorf("filter %q: %d rows, sahilm/fuzzy matches %d", pattern, len(got), len(lib))
		}
	}
}

func TestFilterBackspaceWidensAgain(t *testing.T) {
	rows := activityRows(500)
	tbl := newTestTable(rows)
	tbl, _ = tbl.Update(press("/"))
	tbl = typeInto(tbl, "bobx")
	if tbl.Visible() != 0 {
		t.Fatalf("'bobx' matched %d rows", tbl.Visible())
	}
	tbl, _ = tbl.Update(press("backspace"))
	want := 0
	for _, r := range rows {
		if isSubsequence("bob", strings.Join(r.Cells, " ")+" "+r.ID) {
			want++
		}
	}
	if tbl.Visible() != want {
		t.Errorf("after backspace 'bob' shows %d rows, want %d", tbl.Visible(), want)
	}
	tbl, _ = tbl.Update(press("esc"))
	if tbl.Visible() != len(rows) || tbl.Filtering() {
		t.Errorf("esc: %d rows visible, filtering=%v", tbl.Visible(), tbl.Filtering())
	}
}

func TestViewRendersOnlyTheWindow(t *testing.T) {
	tbl := newTestTable(activityRows(100000))
	out := tbl.View()
	if n := strings.Count(out, "\n") + 1; n != 30 {
		t.Errorf("view has %d lines, want the table's height 30", n)
	}
	if !strings.Contains(out, "act-") && !strings.Contains(out, "CREATE_POLICY_V3") {
		t.Errorf("first rows missing:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(line); w > 120 {
			t.Errorf("line %d cells wide, table is 120", w)
		}
	}
	tbl, _ = tbl.Update(press("G"))
	if tbl.SelectedID() != "act-00099999" {
		t.Errorf("G selects %s", tbl.SelectedID())
	}
	if !strings.Contains(ansi.Strip(tbl.View()), fmt.Sprintf("%-4s %s", fmt.Sprintf("%dm", 99999%60), types[99999%len(types)])) {
		t.Error("the last row is not on screen after G")
	}
}

func TestSelectionFollowsTheRowAcrossRefresh(t *testing.T) {
	rows := activityRows(50)
	tbl := newTestTable(rows)
	for range 5 {
		tbl, _ = tbl.Update(press("j"))
	}
	id := tbl.SelectedID()
	// A new activity arrives at the top.
	tbl.SetRows(append([]Row{{ID: "act-new", Cells: []string{"0s", "CREATE_USER_TAG"}}}, rows...))
	if tbl.SelectedID() != id {
		t.Errorf("selection moved to %s, want it to stay on %s", tbl.SelectedID(), id)
	}
	tbl.SetRows(rows[:3]) // the row is gone
	if tbl.Selected() != 0 {
		t.Errorf("selection %d after its row vanished, want the first row", tbl.Selected())
	}
	tbl.SetRows(nil)
	if tbl.Selected() != -1 || tbl.SelectedID() != "" {
		t.Error("an empty table has a selection")
	}
	if !strings.Contains(tbl.View(), tbl.Empty) {
		t.Error("empty table does not say so")
	}
}

func TestTableCleansCellsAtRender(t *testing.T) {
	tbl := newTestTable([]Row{{ID: "x\x1b]52;c;aGk=\x07", Cells: []string{"1m", "EVIL\x1b[2J\u202e", "bob\r\u009b31m"}}})
	out := tbl.View()
	for _, r := range out {
		if r == '\r' || r == 0x202e || (r >= 0x80 && r <= 0x9f) {
			t.Errorf("rune %U reached the view", r)
		}
	}
	if strings.Contains(ansi.Strip(out), "\x1b") || strings.Contains(out, "\x1b]") || strings.Contains(out, "\x1b[2J") {
		t.Errorf("escape sequence reached the view: %q", out)
	}
}

func TestCleanRemovesEveryUnsafeRune(t *testing.T) {
	in := []string{
		"plain ascii stays",
		"\x1b]0;title\x07after", "\x1b[31mred\x1b[0m", "a\rb", "c\u0085d", "e\u202ef", "g\u2067h\u2069",
		"\u009d0;osc\u009c", "\u009b2J", "tab\there", "nul\x00", "zero\ufeffwidth", "zero\u200bwidth", "\xff\xfe invalid",
		"日本語 and emoji 🙂 stay",
	}
	for _, s := range in {
		got := Clean(s)
		for _, r := range got {
			if unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0xfeff || r == 0x200b {
				t.Errorf("Clean(%q) = %q keeps %U", s, got, r)
			}
		}
	}
	for _, s := range []string{"plain ascii stays", "日本語 and emoji 🙂 stay"} {
		if Clean(s) != s {
			t.Errorf("Clean changed safe text %q to %q", s, Clean(s))
		}
	}
	// What is escaped is shown, the same way api.Sanitize shows it.
	if got := Clean("\u009d0;osc\u009cok"); got != `\u009d0;osc\u009cok` {
		t.Errorf("a C1 OSC shows as %q, want it escaped", got)
	}
	if got := Clean("ad\u200bmin"); got != `ad\u200bmin` || got != api.Sanitize("ad\u200bmin") {
		t.Errorf("a zero-width space shows as %q, want it escaped as api.Sanitize does", got)
	}
	if got := CleanBlock("line1\x1b[2J\nline2\r"); got != "line1\\u001b[2J\nline2\\r" {
		t.Errorf("CleanBlock = %q", got)
	}
}

func TestConfirmOnlyYConfirms(t *testing.T) {
	c := NewConfirm("Approve?", "Approve")
	cases := map[string]Answer{"y": Yes, "n": No, "enter": No, "esc": No, "q": No, "Y": Undecided, "a": Undecided, "j": Undecided}
	for k, want := range cases {
		if got := c.Answer(press(k)); got != want {
			t.Errorf("key %q answers %v, want %v", k, got, want)
		}
	}
	if c.Answer(tea.WindowSizeMsg{}) != Undecided {
		t.Error("a non-key message answered the dialog")
	}
	v := c.View(plainTheme, 80, 0)
	if strings.Index(v, "No") > strings.Index(v, "Approve (y)") {
		t.Error("No should come first, as the default")
	}
}

func TestInputEditsAndDropsControls(t *testing.T) {
	var in Input
	in.Focus()
	for _, s := range []string{"a", "b", "c"} {
		in, _ = in.Update(press(s))
	}
	in, _ = in.Update(tea.PasteMsg{Content: "d\x1b[2Je\u202ef\n"})
	if in.Value() != "abcd[2Jef" {
		t.Errorf("value %q", in.Value())
	}
	in, _ = in.Update(press("backspace"))
	in, _ = in.Update(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	if in.Value() != "" {
		t.Errorf("ctrl+u left %q", in.Value())
	}
	in.Blur()
	if in2, changed := in.Update(press("x")); changed || in2.Value() != "" {
		t.Error("a blurred input took a key")
	}
}

func TestNoColorThemeHasNoColour(t *testing.T) {
	th := theme.New(theme.Options{NoColor: true, Accent: "red"})
	for _, s := range []string{th.Badge.Render("x"), th.Selected.Render("x"), th.Bad.Render("x"), th.StatusError.Render("x"), th.ActiveTab.Render("x")} {
		// SGR colour parameters: 30-37, 38, 40-47, 48, 90-97, 100-107.
		for _, seq := range strings.Split(s, "\x1b[")[1:] {
			params := seq[:strings.IndexByte(seq, 'm')]
			for _, p := range strings.Split(params, ";") {
				var n int
				fmt.Sscan(p, &n)
				if n >= 30 && n <= 49 || n >= 90 && n <= 107 {
					t.Errorf("NO_COLOR style emits colour parameter %s in %q", p, s)
				}
			}
		}
	}
	if c := theme.New(theme.Options{Dark: true, Accent: "red"}); c.Badge.Render("x") == theme.New(theme.Options{Dark: true}).Badge.Render("x") {
		t.Error("the accent colour does not change the badge")
	}
}

func TestAccentColor(t *testing.T) {
	for s, ok := range map[string]bool{"red": true, "#ff0000": true, "#f00": true, "208": true, "256": false, "#zzzzzz": false, "crimson": false, "": false, "-1": false} {
		if _, got := theme.AccentColor(s); got != ok {
			t.Errorf("AccentColor(%q) ok = %v, want %v", s, got, ok)
		}
	}
}

func TestFilterHighlightsMatchesOnScreen(t *testing.T) {
	th := theme.New(theme.Options{Dark: true})
	tbl := NewTable(th, []Column{{Title: "TYPE", Width: 20}, {Title: "WHO", Width: 10}})
	tbl.SetSize(40, 5)
	tbl.SetRows([]Row{{ID: "1", Cells: []string{"CREATE_POLICY", "bob"}}, {ID: "2", Cells: []string{"DELETE_KEYS", "carol"}}})
	tbl.SetFilter("cb")
	if tbl.Visible() != 1 {
		t.Fatalf("'cb' matches %d rows", tbl.Visible())
	}
	marks := tbl.highlights(0)
	// sahilm/fuzzy matches the C of CREATE and the b of bob.
	if len(marks) != 2 || len(marks[0]) != 1 || marks[0][0] != 0 || len(marks[1]) != 1 || marks[1][0] != 0 {
		t.Errorf("highlights %v, want C in cell 0 and b in cell 1", marks)
	}
}

// A row that goes leaves the cursor on its neighbour (the row that followed
// it), not on the first row, and the caller learns it moved.
func TestSetRowsKeepingPlaceMovesToNeighbour(t *testing.T) {
	rows := activityRows(6)
	tb := newTestTable(rows)
	tb.move(3)
	gone := tb.SelectedID()
	next := rows[4].ID
	if moved := tb.SetRowsKeepingPlace(append(append([]Row{}, rows[:3]...), rows[4:]...)); moved != ToFollowing {
		t.Error("the selected row went, and SetRowsKeepingPlace did not say it moved")
	}
	if got := tb.SelectedID(); got != next {
		t.Errorf("the cursor went to %q, not to the row that followed %q (%q)", got, gone, next)
	}
	if moved := tb.SetRowsKeepingPlace(rows); moved != Kept || tb.SelectedID() != next {
		t.Errorf("a row still listed: moved %v, selected %q, want %q", moved, tb.SelectedID(), next)
	}
	tb.move(10)
	if moved := tb.SetRowsKeepingPlace(rows[:len(rows)-1]); moved != ToLast || tb.SelectedID() != rows[len(rows)-2].ID {
		t.Errorf("the last row went: moved %v, selected %q, want the row before it %q", moved, tb.SelectedID(), rows[len(rows)-2].ID)
	}
}
