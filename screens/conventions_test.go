package screens

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
)

// frame is the current frame without styles.
func (h *harness) frame() string { return ansi.Strip(h.root.Render()) }

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.key(string(r))
	}
}

type answeredMsg struct{ yes bool }

func TestDialogStackIsRoutedFirstAndConfirmDefaultsToNo(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	ask := func() {
		h.run(OpenDialog(NewConfirmDialog("delete-key", ui.NewConfirm("Delete the key?", "Delete", "key: k-1"),
			msgCmd(answeredMsg{yes: true}), msgCmd(answeredMsg{yes: false}))))
	}
	answers := func() []bool {
		var out []bool
		for _, m := range h.msgs {
			if a, ok := m.(answeredMsg); ok {
				out = append(out, a.yes)
			}
		}
		return out
	}
	ask()
	if !strings.Contains(h.frame(), "Delete the key?") {
		t.Fatalf("the dialog does not show:\n%s", h.frame())
	}
	// Keys go to the dialog, not to the screen or the root: a, tab, : and ? do
	// nothing here.
	h.key("a")
	h.key("tab")
	h.key(":")
	h.key("?")
	if h.quit() || h.root.fullHelp || h.voteDialogOpen() || h.root.active != 0 || h.root.dialogs.Len() != 1 {
		t.Fatalf("a key went past the dialog: quit %v, vote dialog %v, screen %d, dialogs %d",
			h.quit(), h.voteDialogOpen(), h.root.active, h.root.dialogs.Len())
	}
	h.key("enter") // No is the default
	if got := answers(); !slices.Equal(got, []bool{false}) || h.root.dialogs.Len() != 0 {
		t.Fatalf("enter answered %v, %d dialogs left; want No and none", got, h.root.dialogs.Len())
	}
	ask()
	ask() // the same id again: brought to the top, not stacked twice
	if h.root.dialogs.Len() != 1 {
		t.Fatalf("%d dialogs after opening the same one twice", h.root.dialogs.Len())
	}
	h.key("y")
	if got := answers(); !slices.Equal(got, []bool{false, true}) {
		t.Fatalf("answers = %v, want [false true]", got)
	}
	// Two dialogs: the top one answers; closing by id removes the one underneath.
	ask()
	h.run(OpenDialog(newPaletteDialog(h.root.commands())))
	if h.root.dialogs.Len() != 2 || h.root.dialogs.Top().ID() != paletteID {
		t.Fatalf("palette over the confirm: %d dialogs", h.root.dialogs.Len())
	}
	h.run(CloseDialog("delete-key"))
	if h.root.dialogs.Len() != 1 || h.root.dialogs.Top().ID() != paletteID {
		t.Fatal("CloseDialog removed the wrong dialog")
	}
	h.key("ctrl+c")
	if !h.quit() {
		t.Error("ctrl+c did not quit while a dialog was open")
	}
}

func TestPaletteRunsFuzzyMatchedCommands(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 30*time.Second)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})

	h.key(":")
	out := h.frame()
	for _, want := range []string{"refresh", "toggle auto-refresh", "go to Organization", "messages", "help", "quit"} {
		if !strings.Contains(out, want) {
			t.Errorf("palette lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "go to Boot proofs") || !regexpLine(out, `go to Boot proofs +2`) {
		t.Errorf("palette does not show the key beside the command:\n%s", out)
	}
	h.typeText("gtorg") // letters in order: "go to Organization"
	h.key("enter")
	if h.root.ActiveTitle() != "Organization" || h.root.dialogs.Len() != 0 {
		t.Fatalf("gtorg+enter: screen %s, %d dialogs", h.root.ActiveTitle(), h.root.dialogs.Len())
	}

	h.key("1")
	n0, _, _ := fake.counts()
	h.key(":")
	h.typeText("refresh")
	h.key("enter")
	if n, _, _ := fake.counts(); n != n0+1 {
		t.Errorf("palette refresh made %d list calls, want 1", n-n0)
	}

	h.key(":")
	h.typeText("auto")
	h.key("enter")
	if h.activities().auto() {
		t.Error("toggle auto-refresh from the palette left auto-refresh on")
	}

	h.key(":")
	h.typeText("mess")
	h.key("enter")
	if h.root.dialogs.Len() != 1 || h.root.dialogs.Top().ID() != messagesID {
		t.Fatal("palette 'messages' did not open the messages view")
	}
	h.key("esc")

	h.key(":")
	h.typeText("zzzz")
	if !strings.Contains(h.frame(), "no command matches") {
		t.Errorf("no match is not said:\n%s", h.frame())
	}
	h.key("esc")
	if h.root.dialogs.Len() != 0 || h.quit() {
		t.Fatal("esc did not close the palette")
	}

	// While typing a filter ':' is text, not the palette.
	h.key("/")
	h.key(":")
	if h.root.dialogs.Len() != 0 || !strings.Contains(h.activities().list.Table.FilterPattern()+h.frame(), ":") {
		t.Error("':' opened the palette while typing a filter")
	}
}

func regexpLine(out, pattern string) bool {
	for _, l := range strings.Split(out, "\n") {
		if ok, _ := matchString(pattern, l); ok {
			return true
		}
	}
	return false
}

func TestPaletteDisabledCommandSaysWhy(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, true, 0) // read-only
	h.key(":")
	h.typeText("approve")
	h.key("enter")
	_, n, _ := h.fake.counts()
	if n != 0 || h.voteDialogOpen() {
		t.Fatal("a disabled palette command acted")
	}
	if h.root.dialogs.Len() != 1 {
		t.Error("the palette closed on a disabled command")
	}
	if !strings.Contains(h.frame(), "read-only") {
		t.Errorf("no reason shown:\n%s", h.frame())
	}
}

func TestMessagesViewKeepsEveryToastErrorAndVoteInFull(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, time.Second)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})

	long := "permission denied: the policy 'ops need two approvers' denies this request because the user is not in the root quorum; ask a root member \x1b]52;c;ZXZpbA==\x07to vote"
	fake.voteErr = errors.New(long)
	h.key("a")
	h.key("y")
	fake.voteErr = nil
	h.key("down")
	h.key("x")
	h.key("y")
	fake.listErr = errors.New("connection refused")
	for range 3 {
		h.send(activitiesTickMsg{gen: h.activities().autoGen})
	}
	h.run(ui.Toast("copied id act-1", false))

	entries := h.root.log.entries
	var texts []string
	for _, e := range entries {
		texts = append(texts, e.text)
	}
	if len(entries) != 4 {
		t.Fatalf("log has %d entries, want 4 (failed vote, reject, refresh failure once, toast): %q", len(entries), texts)
	}
	if entries[0].kind != messageError || !strings.Contains(entries[0].text, "act-policy") || !strings.Contains(entries[0].text, "root quorum") {
		t.Errorf("failed vote entry = %+v", entries[0])
	}
	if entries[1].kind != messageVote || !strings.Contains(entries[1].text, "rejected act-feature") || !strings.Contains(entries[1].text, "REJECTED") {
		t.Errorf("vote entry = %+v", entries[1])
	}
	if !strings.Contains(entries[2].text, "connection refused") || !entries[2].at.Equal(testNow) {
		t.Errorf("refresh failure entry = %+v", entries[2])
	}

	h.key("m")
	raw := h.root.Render()
	if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x07") {
		t.Fatal("a server string reached the frame unsanitized")
	}
	out := ansi.Strip(raw)
	// The whole error shows, wrapped: its last words are on screen.
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(out)), " ")
	// The OSC 52 sequence shows escaped, visibly, between the words around it.
	for _, want := range []string{"Messages", "12:00:00", `ask a root member \u001b]52;c;ZXZpbA==\u0007to vote`, "rejected act-feature", "copied id act-1", "connection refused"} {
		if !strings.Contains(flat, want) {
			t.Errorf("messages view lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(flat, "copied id") > strings.Index(flat, "ask a root member") {
		t.Error("messages are not newest first")
	}
	h.key("esc")
	if h.root.dialogs.Len() != 0 {
		t.Error("esc did not close the messages view")
	}
}

func TestVoteToastSaysRejected(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("x")
	h.key("y")
	var toasts []string
	for _, m := range h.msgs {
		if tm, ok := m.(ui.ToastMsg); ok {
			toasts = append(toasts, tm.Text)
		}
	}
	if len(toasts) != 1 || !strings.HasPrefix(toasts[0], "rejected CREATE_POLICY_V3") {
		t.Errorf("toasts = %q, want one starting 'rejected CREATE_POLICY_V3'", toasts)
	}
}

// At 80×24 the help shows every global key and the screen's keys, uncut, on
// every screen.
func TestHelpShowsEveryKeyAt80x24(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	global := []string{"tab/l next screen", "shift+tab/h previous screen", "1-7 go to screen", "esc back",
		": commands", "m messages", "? help", "q quit"}
	for i, s := range h.root.screens {
		h.key(string(rune('1' + i)))
		out := h.frame()
		// The tab bar's titles are shortened on purpose (tabBar); what
		// follows must not be cut.
		if _, rest, _ := strings.Cut(out, "\n"); strings.Contains(rest, "…\n") {
			t.Errorf("%s: a line is cut:\n%s", s.Title(), out)
		}
		want := append([]string(nil), global...)
		for _, b := range s.Keys().ShortHelp() {
			want = append(want, b.Help().Key+" "+b.Help().Desc)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: help lacks %q:\n%s", s.Title(), w, out)
			}
		}
		if got := strings.Count(out, "\n") + 1; got != 24 {
			t.Errorf("%s: frame has %d lines", s.Title(), got)
		}
	}
	// The full help, too, shows every key of the screen and the globals.
	h.key("1")
	h.key("?")
	out := h.frame()
	for _, w := range append(global, "ctrl+c quit", "] older page", "Y copy fingerprint") {
		if !strings.Contains(out, w) {
			t.Errorf("full help lacks %q:\n%s", w, out)
		}
	}
}

func TestTooSmallSaysSoAndComesBack(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 30, Height: 8})
	out := h.frame()
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "terminal too small (need 60×18, have 30×8)") {
		t.Errorf("30×8:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("a line is wider than 30: %q", l)
		}
	}
	h.send(tea.WindowSizeMsg{Width: minWidth, Height: minHeight - 1})
	if !strings.Contains(h.frame(), "terminal too small") {
		t.Error("one line below the minimum still draws the frame")
	}
	// At the minimum the vote dialog fits whole, and the list's keys are all there.
	h.send(tea.WindowSizeMsg{Width: minWidth, Height: minHeight})
	if out := h.frame(); !strings.Contains(out, "delete 1 API key") || !strings.Contains(out, "m messages") {
		t.Errorf("at the minimum:\n%s", out)
	}
	h.key("a")
	out = h.frame()
	// (In a short window the keys are said by the help line, not inside the box.)
	if !strings.Contains(out, "Approve this activity?") || !strings.Contains(out, "Approve (y)") || !strings.Contains(out, "y yes") || !strings.Contains(out, "╰") {
		t.Errorf("the vote dialog does not fit at the minimum:\n%s", out)
	}
	h.key("n")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if !strings.Contains(h.frame(), "Pending activities") {
		t.Error("the list did not come back")
	}

	// Too small, keys do nothing: a vote dialog nobody can see takes no y.
	h.send(tea.WindowSizeMsg{Width: 50, Height: 15})
	h.key("a")
	h.key("y")
	h.key("x")
	h.key("y")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if _, approvals, rejections := h.fake.counts(); approvals != 0 || rejections != 0 || h.root.dialogs.Len() != 0 {
		t.Errorf("keys acted while the terminal was too small: %d approvals, %d rejections, %d dialogs open", approvals, rejections, h.root.dialogs.Len())
	}
}

func TestHLAndShiftTabSwitchTabsUnlessTyping(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("l")
	if h.root.ActiveTitle() != "Boot proofs" {
		t.Fatalf("l went to %s", h.root.ActiveTitle())
	}
	// h twice from Boot proofs wraps round to the last tab; shift+tab goes one back.
	n := len(h.root.screens)
	h.key("h")
	h.key("h")
	if last := h.root.screens[n-1].Title(); h.root.ActiveTitle() != last {
		t.Fatalf("h twice from Boot proofs went to %s, want %s", h.root.ActiveTitle(), last)
	}
	h.key("shift+tab")
	if prev := h.root.screens[n-2].Title(); h.root.ActiveTitle() != prev {
		t.Fatalf("shift+tab went to %s, want %s", h.root.ActiveTitle(), prev)
	}
	h.key("1")
	h.key("/")
	h.key("h")
	h.key("l")
	if h.root.ActiveTitle() != "Activities" || h.activities().list.Table.FilterPattern() != "hl" {
		t.Errorf("h/l while typing a filter: screen %s, filter %q", h.root.ActiveTitle(), h.activities().list.Table.FilterPattern())
	}
}

func TestMouseClicksTabsAndRowsAndWheelScrolls(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.root.mouse = true
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if h.root.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("mouse on, but the view does not ask for mouse events")
	}
	top := strings.Split(h.frame(), "\n")[0]
	// At 80 columns the inactive tabs are shortened ("3 Org"); each stays clickable.
	x := strings.Index(top, "3 Org")
	h.send(tea.MouseClickMsg{X: x + 2, Y: 0, Button: tea.MouseLeft})
	if h.root.ActiveTitle() != "Organization" {
		t.Fatalf("click on the tab went to %s", h.root.ActiveTitle())
	}
	h.send(tea.MouseClickMsg{X: strings.Index(top, "1 Activities"), Y: 0, Button: tea.MouseLeft}) // the first tab does not move
	if h.root.ActiveTitle() != "Activities" {
		t.Fatalf("click on the first tab went to %s", h.root.ActiveTitle())
	}
	// Line 1 is the heading, 2 the column titles, 3 the first row.
	h.send(tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	if got := h.activities().list.Table.SelectedID(); got != "act-keys" {
		t.Fatalf("click on the third row selected %q", got)
	}
	h.send(tea.MouseClickMsg{X: 10, Y: 12, Button: tea.MouseLeft}) // below the rows
	if got := h.activities().list.Table.SelectedID(); got != "act-keys" {
		t.Errorf("click below the rows moved the selection to %q", got)
	}
	h.send(tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelUp})
	if got := h.activities().list.Table.SelectedID(); got != "act-feature" {
		t.Errorf("wheel up selected %q, want act-feature", got)
	}
	h.send(tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelDown})
	if got := h.activities().list.Table.SelectedID(); got != "act-keys" {
		t.Errorf("wheel down selected %q, want act-keys", got)
	}
	// The vote is about the clicked row.
	h.key("a")
	h.key("y")
	if _, n, _ := h.fake.counts(); n != 1 || h.fake.approvals[0] != h.fake.activities[2].Fingerprint {
		t.Error("the vote was not about the clicked row")
	}
	// While a dialog is open clicks do nothing underneath.
	h.key(":")
	h.send(tea.MouseClickMsg{X: x + 3, Y: 0, Button: tea.MouseLeft})
	if h.root.ActiveTitle() != "Activities" {
		t.Error("a click switched tabs under the palette")
	}
}

func TestMouseOffByOption(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	if h.root.View().MouseMode != tea.MouseModeNone {
		t.Error("mouse events requested although Mouse is off")
	}
}

func TestRebindKeys(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	if err := h.root.Rebind(map[string][]string{"activities.approve": {"A"}, "palette": {"ctrl+p"}}); err != nil {
		t.Fatal(err)
	}
	h.key("a")
	if h.voteDialogOpen() {
		t.Fatal("a still approves after rebinding approve to A")
	}
	h.key("A")
	if !h.voteDialogOpen() {
		t.Fatal("A does not approve")
	}
	h.key("n")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if out := h.frame(); !strings.Contains(out, "A approve") || !strings.Contains(out, "ctrl+p commands") {
		t.Errorf("help does not show the new keys:\n%s", out)
	}
	h.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	if h.root.dialogs.Len() != 1 {
		t.Error("ctrl+p does not open the palette")
	}

	for _, tc := range []struct {
		keys map[string][]string
		want []string
	}{
		{map[string][]string{"aprove": {"A"}}, []string{`unknown key action "aprove"`, "activities.approve", "quit", "organization.refresh"}},
		{map[string][]string{"quit": {}}, []string{"empty"}},
		{map[string][]string{"activities.approve": {"x"}}, []string{`"x"`, "activities.reject"}},
		{map[string][]string{"activities.refresh": {"m"}}, []string{`"m"`, "messages"}},
		{map[string][]string{"help": {"q"}}, []string{`"q"`, "quit", "help"}},
	} {
		r := NewRoot(Options{})
		err := r.Rebind(tc.keys)
		if err == nil {
			t.Errorf("%v accepted", tc.keys)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q does not say %q", tc.keys, err, w)
			}
		}
		if !slices.Equal(r.keys.Quit.Keys(), []string{"q"}) {
			t.Errorf("%v: a failed rebind changed keys", tc.keys)
		}
	}
}

func matchString(pattern, s string) (bool, error) { return regexp.MatchString(pattern, s) }

// Every tab stays visible, down to the minimum width: inactive titles shorten.
func TestTabBarKeepsEveryTabAtMinimumWidth(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	for _, w := range []int{minWidth, 80, 160} {
		h.send(tea.WindowSizeMsg{Width: w, Height: 24})
		top := ansi.Strip(strings.Split(h.frame(), "\n")[0])
		fields := strings.Fields(top)
		for i, s := range h.root.screens {
			if !slices.Contains(fields, strconv.Itoa(i+1)) {
				t.Errorf("at %d columns tab %d (%s) is missing: %q", w, i+1, s.Title(), top)
			}
		}
		if !strings.Contains(top, "1 Activities") {
			t.Errorf("at %d columns the active tab lost its title: %q", w, top)
		}
	}
}
