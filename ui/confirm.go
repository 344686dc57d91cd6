package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// Answer is what the user said to a confirm dialog.
type Answer int

// The answers: Undecided while the dialog stays open.
const (
	Undecided Answer = iota
	Yes
	No
)

// ConfirmKeyMap are the keys of a confirm dialog. Only Yes confirms; enter is in No,
// because No is the default.
type ConfirmKeyMap struct {
	Yes, No key.Binding
	// Up and Down scroll what is being confirmed when it is taller than the
	// window; help lists them only then (Scrolls).
	Up, Down key.Binding
	Scrolls  bool
}

// DefaultConfirmKeyMap: y confirms; n, esc, enter and q cancel.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Yes:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		No:   key.NewBinding(key.WithKeys("n", "esc", "enter", "q"), key.WithHelp("n/enter/esc", "no")),
		Up:   key.NewBinding(key.WithKeys("up", "k", "pgup"), key.WithHelp("↑/pgup", "scroll up")),
		Down: key.NewBinding(key.WithKeys("down", "j", "pgdown", "space"), key.WithHelp("↓/pgdn", "scroll down")),
	}
}

// ShortHelp and FullHelp make the key map a help.KeyMap. The short help
// names the scroll keys in one item, so that under a dialog on a 60-column
// window the help is one line, not two taken from the dialog.
func (k ConfirmKeyMap) ShortHelp() []key.Binding {
	if !k.Scrolls {
		return []key.Binding{k.Yes, k.No}
	}
	scroll := key.NewBinding(key.WithKeys(append(k.Up.Keys(), k.Down.Keys()...)...), key.WithHelp("↑↓ pgup/pgdn", "scroll"))
	return []key.Binding{k.Yes, k.No, scroll}
}
func (k ConfirmKeyMap) FullHelp() [][]key.Binding {
	if !k.Scrolls {
		return [][]key.Binding{{k.Yes, k.No}}
	}
	return [][]key.Binding{{k.Yes, k.No}, {k.Up, k.Down}}
}

// Confirm is a yes/no question about a destructive or voting action. No is the
// default: enter, esc and n all answer No; only y answers Yes.
type Confirm struct {
	Title    string
	Lines    []string // what is being confirmed, restated (untrusted text is cleaned)
	YesLabel string
	Keys     ConfirmKeyMap
	// Warn marks the Lines (by index) drawn in the warning style: what a
	// careful reader must not miss (an unknown user in a field that decides).
	Warn map[int]bool
	// WarnWeight is how many warnings a warning line stands for, when more
	// than one: a summary ("⚠ … and 3 more warnings") is counted as the
	// warnings it holds, not as one, by the ↓ line and Unread.
	WarnWeight map[int]int
	// Notice, when set, is said above the buttons in warning style (a key the
	// dialog would not take, and why).
	Notice string
	// top and topRow are the first row shown when the lines are taller than
	// the window: a line, and a row of it (of topRows, as wrapped when it was
	// scrolled to), so that a resize keeps the same text at the top
	// (confirm_seen.go).
	top, topRow, topRows int
	// seen is, per line, how much of it has been on screen: y answers only
	// once every line has been, above the window as well as below.
	seen []lineSeen
	// changedLine is the first line Restate found changed, while it has not
	// been on screen since (changeUnseen). A line, not a row: how many rows
	// the lines above it take changes with the width.
	changedLine  int
	changeUnseen bool
	cache        *confirmCache // the body wrapped last (confirm_body.go)
}

// NewConfirm returns a dialog asking title, with lines restating what is at stake.
func NewConfirm(title, yesLabel string, lines ...string) Confirm {
	return Confirm{Title: title, Lines: lines, YesLabel: yesLabel, Keys: DefaultConfirmKeyMap(), cache: &confirmCache{}}
}

// Restate shows next's title, lines, warnings and notice in place of c's.
// What it restates changed, and every changed line must be on screen before
// y answers: the lines count as unread again until the last one has been on
// screen, and until the first changed line has been, the window is never
// below it, at whatever width the dialog is drawn (the rows above the
// window have all been on screen once, since a dialog opens at its top and
// scrolls a window at a time, but not as they read now). A window above it
// stays: the changed lines are below, unread.
func (c *Confirm) Restate(next Confirm) {
	first := next.firstChangedLine(c.Lines, c.Warn)
	if c.changeUnseen {
		first = min(first, c.changedLine)
	}
	top, topRow, topRows, seen := c.top, c.topRow, c.topRows, keepSeen(c.seen, first)
	*c = next
	c.top, c.topRow, c.topRows, c.seen = top, topRow, topRows, seen
	c.changedLine, c.changeUnseen = first, first < len(c.Lines)
}

// firstChangedLine is the index of the first of c's lines that restates a
// line other than lines (with warn) did, or len(c.Lines) when none does.
func (c Confirm) firstChangedLine(lines []string, warn map[int]bool) int {
	for i, l := range c.Lines {
		if i >= len(lines) || lines[i] != l || warn[i] != c.Warn[i] {
			return i
		}
	}
	return len(c.Lines)
}

// rowOf is the row of c's body, drawn width wide, that line starts on.
func (c Confirm) rowOf(line, width int) int {
	return c.wrapped(width).start[min(line, len(c.Lines))]
}

// window is the first row shown of a body of n rows drawn width wide in a
// window of win rows: never below a changed line not yet on screen.
func (c Confirm) window(width, n, win int) int {
	off := c.topOffset(width)
	if c.changeUnseen {
		off = min(off, c.rowOf(c.changedLine, width))
	}
	return max(min(off, n-win), 0)
}

// Answer maps a key press to an answer; other keys (and other messages) leave the
// dialog Undecided.
func (c Confirm) Answer(msg tea.Msg) Answer {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return Undecided
	}
	switch {
	case key.Matches(k, c.Keys.Yes):
		return Yes
	case key.Matches(k, c.Keys.No):
		return No
	}
	return Undecided
}

// Scroll moves what is shown by a key of Up or Down (a page for pgup/pgdn),
// for a dialog drawn in width×height; other keys change nothing.
func (c *Confirm) Scroll(msg tea.Msg, width, height int) bool {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	_, win := c.layout(width, height)
	step := 1
	if s := k.String(); s == "pgup" || s == "pgdown" || s == "space" {
		step = max(win-1, 1)
	}
	n := len(c.body(width))
	shown := c.window(width, n, win) // the window the key was pressed under
	off := shown
	switch {
	case key.Matches(k, c.Keys.Up):
		off -= step
	case key.Matches(k, c.Keys.Down):
		off += step
	default:
		return false
	}
	c.Shown(width, height)
	if c.changeUnseen {
		// window keeps the line at or below the top: on screen if above the bottom.
		if row := c.rowOf(c.changedLine, width); row < shown+win {
			c.changeUnseen = false
		} else {
			off = min(off, row)
		}
	}
	c.setTop(max(min(off, n-win), 0), width)
	return true
}

// Unread is how many lines (rows), drawn in width×height, have never been
// on screen, above the window or below it, and how many of those are
// warnings; 0 once every one has been, or when everything fits. The window
// shown now counts as on screen.
func (c Confirm) Unread(width, height int) (lines, warnings int) {
	unread := c.unreadRows(width, c.seenWith(width, height))
	return count(unread), c.wrapped(width).warningsIn(unread, c.WarnWeight)
}

// UnreadAbove reports whether some of the lines never on screen are above
// the window (the window moved past them: a resize, a restatement), so
// that the dialog says to scroll up, not down.
func (c Confirm) UnreadAbove(width, height int) bool {
	_, win := c.layout(width, height)
	n := len(c.body(width))
	off := c.window(width, n, win)
	return slices.Contains(c.unreadRows(width, c.seenWith(width, height))[:off], true)
}

// UnreadNotice is what a dialog with lines never shown says when y is
// pressed: y does not answer until they have been on screen. It states no
// count: the notice takes rows from the window itself, so a count taken
// before it is drawn is wrong once it is, and it would not follow the
// scrolling; the ↓ line above it counts what is below (warnings too).
const UnreadNotice = "scroll to the end (↓/pgdn) before answering y"

// UnreadAboveNotice is UnreadNotice when lines never shown are above the
// window.
const UnreadAboveNotice = "scroll up (↑/pgup): lines above were never on screen; y answers once every line has been"

// count is how many of b are true.
func count(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// plural is "1 line" or "n lines".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// Scrollable reports whether the dialog, drawn in width×height, holds more
// lines than it shows.
func (c Confirm) Scrollable(width, height int) bool {
	_, win := c.layout(width, height)
	return win < len(c.body(width))
}

// confirmInner is the width of the dialog's text.
func confirmInner(width int) int { return max(min(width-8, 72), 4) }

// body is every line of what is being confirmed, wrapped to the dialog.
func (c Confirm) body(width int) []string { return c.wrapped(width).rows }

// bodyWarned is body, with whether each line is drawn in the warning style.
func (c Confirm) bodyWarned(width int) (out []string, warn []bool) {
	b := c.wrapped(width)
	return b.rows, b.warn
}

// layout decides how the dialog is drawn in height lines (0: as tall as it
// needs): tight (no blank lines around the text, no line repeating the keys
// the help shows) unless the whole text fits with them, since what is
// confirmed matters more than air; and how many lines of the text show (all
// of them, or as many as fit with the line that says what is hidden).
func (c Confirm) layout(width, height int) (tight bool, win int) {
	n := len(c.body(width))
	// Every theme draws the dialog with the same frame; only colours differ.
	th := theme.New(theme.Options{NoColor: true})
	if height <= 0 || lipgloss.Height(c.render(th, width, nil, false))+n <= height {
		return false, n
	}
	chrome := lipgloss.Height(c.render(th, width, nil, true))
	if chrome+n <= height {
		return true, n
	}
	return true, max(min(n, height-chrome-1), 1)
}

// View renders the dialog box in at most width×height cells (height 0: as
// tall as it needs). Lines that do not fit scroll, and a line says how many
// are hidden above and below, so nothing is confirmed unseen without a sign.
func (c Confirm) View(th *theme.Theme, width, height int) string {
	body, warn := c.bodyWarned(width)
	tight, win := c.layout(width, height)
	styled := func(i int, l string) string {
		if warn[i] {
			return th.Warn.Render(l)
		}
		return l
	}
	if win >= len(body) {
		shown := make([]string, len(body))
		for i, l := range body {
			shown[i] = styled(i, l)
		}
		return c.render(th, width, shown, tight)
	}
	off := c.window(width, len(body), win)
	// Every shown line is as wide as the widest of the whole body, so the box
	// keeps its width while it scrolls.
	widest := c.wrapped(width).widest
	shown := make([]string, 0, win+1)
	for i, l := range body[off : off+win] {
		shown = append(shown, styled(off+i, l)+strings.Repeat(" ", widest-ansi.StringWidth(l)))
	}
	unread := c.unreadRows(width, c.seenWith(width, height))
	var more []string
	if off > 0 {
		above := fmt.Sprintf("↑ %d above", off)
		if n := count(unread[:off]); n > 0 {
			above += fmt.Sprintf(" (%d never shown)", n)
		}
		more = append(more, above)
	}
	below := make([]bool, len(body))
	for r := off + win; r < len(body); r++ {
		below[r] = true
	}
	belowWarned := c.wrapped(width).warningsIn(below, c.WarnWeight)
	warned := ""
	if belowWarned > 0 {
		warned = fmt.Sprintf(" (%s)", plural(belowWarned, "warning"))
	}
	switch below := len(body) - off - win; {
	case below > 0 && off > 0:
		more = append(more, fmt.Sprintf("↓ %d below%s", below, warned))
	case below > 0 && count(unread[off+win:]) > 0:
		// Short enough for the minimum window: the notice y brings says more.
		more = append(more, fmt.Sprintf("↓ %s%s: scroll to the end", plural(below, "more line"), warned))
	case below > 0:
		more = append(more, fmt.Sprintf("↓ %s%s", plural(below, "more line"), warned))
	}
	shown = append(shown, th.Warn.Render(ansi.Truncate(strings.Join(more, " · "), confirmInner(width), "…")))
	return c.render(th, width, shown, tight)
}

// render draws the box around the given body lines; tight leaves out the
// blank lines and, unless it fits beside the buttons, the line of keys.
func (c Confirm) render(th *theme.Theme, width int, lines []string, tight bool) string {
	inner := confirmInner(width)
	var b strings.Builder
	b.WriteString(th.Title.Render(ansi.Truncate(Clean(c.Title), inner, "…")))
	b.WriteString("\n")
	if !tight {
		b.WriteString("\n")
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	yes := c.YesLabel
	if yes == "" {
		yes = "Yes"
	}
	if !tight {
		b.WriteByte('\n')
	}
	if c.Notice != "" {
		b.WriteString(th.Warn.Render(wrapLine(Clean(c.Notice), inner)) + "\n")
	}
	buttons := lipgloss.JoinHorizontal(lipgloss.Top, th.ButtonFocus.Render("No"), "  ", th.Button.Render(yes+" (y)"))
	keys := th.Muted.Render("y confirms · enter, n or esc cancels")
	switch {
	case !tight:
		b.WriteString(buttons + "\n" + keys)
	case lipgloss.Width(buttons)+2+lipgloss.Width(keys) <= inner:
		b.WriteString(buttons + "  " + keys)
	default:
		b.WriteString(buttons) // the help under the dialog names the keys
	}
	if tight {
		return th.DialogTight.Render(b.String())
	}
	return th.Dialog.Render(b.String())
}

// wrapField wraps a "label:   value" line at word boundaries, continuation lines
// indented under the value, so what is being confirmed is read in full, not cut.
func wrapField(l string, width int) string {
	if ansi.StringWidth(l) <= width {
		return l
	}
	indent := 0
	if i := strings.Index(l, ":"); i > 0 && i < width/2 {
		indent = i + 1
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
	}
	if indent >= width/2 {
		indent = 0
	}
	lines := strings.Split(wrapLine(l[indent:], width-indent), "\n")
	pad := strings.Repeat(" ", indent)
	for i := range lines {
		if i == 0 {
			lines[i] = l[:indent] + lines[i]
		} else {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// Overlay draws top centred over base, in a width×height area, so a dialog keeps
// the list it is about visible around it.
func Overlay(base, top string, width, height int) string {
	tw, th := lipgloss.Width(top), lipgloss.Height(top)
	x, y := max((width-tw)/2, 0), max((height-th)/2, 0)
	return lipgloss.NewCompositor(lipgloss.NewLayer(base), lipgloss.NewLayer(top).X(x).Y(y).Z(1)).Render()
}
