package screens

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// The smallest window the console draws a frame in. 60 columns hold the tab bar
// (50) and the Activities table with a readable TYPE column; 18 lines hold the tab
// bar, the help wrapped at 60 columns (up to 4 lines), the notice line, the status
// bar, and a body tall enough for the vote dialog over the list (under a dialog
// the help is one line). Below it the console says so instead of drawing a
// broken frame.
const (
	minWidth  = 60
	minHeight = 18
)

// tooSmall reports whether the window is below the minimum.
func (r *Root) tooSmall() bool { return r.width < minWidth || r.height < minHeight }

// tabBar renders the tabs and returns, per screen, the columns [from, to) of its
// tab, for mouse clicks. When the titles do not fit the width, the inactive tabs
// are shortened only as much as they must be, a rune at a time from the longest
// (shortTitle), down to their number alone, so that every tab stays visible
// and clickable and no column is left empty while a title is cut; the active
// one keeps its whole title.
func (r *Root) tabBar() (string, [][2]int) {
	limits := make([]int, len(r.screens))
	for i, s := range r.screens {
		limits[i] = len([]rune(s.Title()))
	}
	bar, spans, width := r.renderTabs(limits)
	for width > r.width {
		longest := -1
		for i, l := range limits {
			if i != r.active && l > 0 && (longest < 0 || l > limits[longest]) {
				longest = i
			}
		}
		if longest < 0 {
			break // numbers alone: the bar is cut at the window's edge
		}
		limits[longest]--
		bar, spans, width = r.renderTabs(limits)
	}
	return ansi.Truncate(bar, r.width, "…"), spans
}

// shortTitle is title in at most limit runes, its start with "…" when cut
// (under four runes, the start alone; at 0, nothing).
func shortTitle(title string, limit int) string {
	r := []rune(title)
	switch {
	case len(r) <= limit:
		return title
	case limit >= 4:
		return strings.TrimRight(string(r[:limit-1]), " ") + "…"
	}
	return string(r[:max(limit, 0)])
}

// renderTabs draws the tab bar with each inactive title cut to its limit in
// runes (0: the number alone) and returns it, the tabs' column spans and its
// width.
func (r *Root) renderTabs(limits []int) (string, [][2]int, int) {
	th := r.common.Theme
	var b strings.Builder
	b.WriteString(th.Title.Render("vigil"))
	x := lipgloss.Width(b.String())
	spans := make([][2]int, len(r.screens))
	for i, s := range r.screens {
		title := s.Title()
		if i != r.active {
			title = shortTitle(title, limits[i])
		}
		label := title
		if i < 9 {
			label = strings.TrimSpace(string(rune('1'+i)) + " " + title)
		}
		if i == r.active {
			label = th.ActiveTab.Render(label)
		} else {
			label = th.InactiveTab.Render(label)
		}
		b.WriteString("  ")
		x += 2
		w := lipgloss.Width(label)
		spans[i] = [2]int{x, x + w}
		b.WriteString(label)
		x += w
	}
	return b.String(), spans, x
}

// help is the help text for the width: the keys of whatever has them (the top
// dialog, else the active screen) and the global keys, wrapped onto as many lines
// as needed, never cut. The full help taller than rows (a small window) flows
// its keys as lines instead of columns, which takes about half the lines, so
// that the keys at its end (? to close it, q) are not cut off the frame.
func (r *Root) help(w, rows int) string {
	th := r.common.Theme
	own, global, globalFull := r.helpKeys()
	if r.fullHelp {
		groups := append(own.FullHelp(), globalFull...)
		if full := ui.FullHelp(th, groups, w); lipgloss.Height(full) <= rows {
			return full
		}
		return ui.WrapHelp(th, slices.Concat(groups...), w)
	}
	// A screen's own esc (back) says the same as the global one: show it once.
	shown := map[string]bool{}
	for _, b := range own.ShortHelp() {
		shown[b.Help().Key] = true
	}
	var rest []key.Binding
	for _, b := range global {
		if !shown[b.Help().Key] {
			rest = append(rest, b)
		}
	}
	return ui.WrapHelp(th, append(own.ShortHelp(), rest...), w)
}

// helpKeys are the keys help shows now: those of whatever has them (the top
// dialog, else the active screen or its open filter), and the global keys
// short and full (ctrl+c alone while a dialog, a filter or an editor takes
// every key).
func (r *Root) helpKeys() (own ui.KeyMap, global []key.Binding, globalFull [][]key.Binding) {
	global, globalFull = r.keys.ShortHelp(), r.keys.FullHelp()
	force := []key.Binding{r.keys.ForceQuit}
	switch {
	case r.dialogs.Len() > 0:
		// A dialog takes every key but ctrl+c.
		own, global, globalFull = r.dialogs.Top().Keys(), force, [][]key.Binding{force}
	default:
		own = r.screens[r.active].Keys()
		if ls, ok := r.screens[r.active].(listScreen); ok && filtering(ls) {
			own = filterHelp{ls.filterList().Table.Keys}
		}
		if capturing(r.screens[r.active]) {
			global, globalFull = force, [][]key.Binding{force}
		}
	}
	return own, global, globalFull
}

// maxNoticeLines is the most lines a notice takes (one longer ends in "…";
// the messages view has it whole).
const maxNoticeLines = 3

// layout is the help, the notices, and the height left for the screen above
// them.
//
// Notices have a line of their own above the help, kept even while none
// shows: a notice comes and goes without moving anything, and it never covers
// a key of the help (which it did at the help's right, "m m…") nor the
// screen's content. A notice longer than that line takes up to two more,
// from the body, while it shows: it is read, not cut, in the forms and the
// palette too, where the messages view is not a key away.
func (r *Root) layout() (help string, notices []string, bodyH int) {
	notices = r.notices(r.width)
	rows := r.height - 3 - len(notices)
	help = r.help(r.width, rows)
	// The help never takes the last body line: on a small window it is cut.
	if hl := strings.Split(help, "\n"); len(hl) > rows {
		help = strings.Join(hl[:max(rows, 0)], "\n")
	}
	return help, notices, max(r.height-2-len(notices)-lipgloss.Height(help), 1)
}

// notices are the notice lines: the newest notice, wrapped, with as many
// earlier one-line notices beside it as fit; always at least one line. Those
// that do not fit are counted on the line ("+2 more · m messages"), so none
// is hidden without a word.
func (r *Root) notices(w int) []string {
	th := r.common.Theme
	blocks := r.toasts.Blocks(th, w, maxNoticeLines)
	if len(blocks) == 0 {
		return []string{""}
	}
	more := func(n int) string { return th.Muted.Render(r.moreNotices(n)) }
	newest := blocks[len(blocks)-1]
	if len(newest) > 1 {
		return withMore(newest, len(blocks)-1, more, w)
	}
	line, shown := newest[0], 1
	for i := len(blocks) - 2; i >= 0; i-- {
		b := blocks[i]
		need := ansi.StringWidth(b[0]) + 3 + ansi.StringWidth(line)
		if i > 0 { // blocks 0..i-1 would still be hidden: leave room to say so
			need += 3 + lipgloss.Width(more(i))
		}
		if len(b) > 1 || need > w {
			break
		}
		line, shown = b[0]+"   "+line, shown+1
	}
	lines := []string{line}
	if hidden := len(blocks) - shown; hidden > 0 {
		if m := more(hidden); lipgloss.Width(m)+3+ansi.StringWidth(line) <= w {
			lines[0] = m + "   " + line
		} else {
			lines = append(lines, m)
		}
	}
	for i, l := range lines {
		if pad := w - ansi.StringWidth(l); pad > 0 {
			lines[i] = strings.Repeat(" ", pad) + l // at the right, where they always were
		}
	}
	return lines
}

// withMore adds to a wrapped notice the count of the hidden ones: after its
// last line when it fits, else on a line of its own, else (the notice has
// all its lines) in place of the last line's end.
func withMore(block []string, hidden int, more func(int) string, w int) []string {
	if hidden == 0 {
		return block
	}
	m := more(hidden)
	last := len(block) - 1
	switch {
	case ansi.StringWidth(block[last])+3+lipgloss.Width(m) <= w:
		block[last] += "   " + m
	case len(block) < maxNoticeLines:
		block = append(block, m)
	default:
		block[last] = ansi.Truncate(block[last], max(w-3-lipgloss.Width(m), 1), "…") + "   " + m
	}
	return block
}

// moreNotices says that n notices are not on the notice line, and where
// they are: a key away, unless a dialog or typing has the keys.
func (r *Root) moreNotices(n int) string {
	if r.dialogs.Len() == 0 && !capturing(r.screens[r.active]) && r.keys.Messages.Enabled() {
		return fmt.Sprintf("+%d more · %s messages", n, r.keys.Messages.Help().Key)
	}
	return fmt.Sprintf("+%d more in the messages view", n)
}

// clockSkew is how far the service's clock is ahead of this machine's, zero
// while unknown.
func (r *Root) clockSkew() time.Duration {
	if r.serviceClock == nil {
		return 0
	}
	skew, _ := r.serviceClock.ClockSkew()
	return skew
}

// Render is the frame as a string (what View shows), for tests and goldens.
func (r *Root) Render() string {
	th := r.common.Theme
	w, h := r.width, r.height
	if r.tooSmall() {
		return tooSmallFrame(w, h)
	}
	screen := r.screens[r.active]
	top, _ := r.tabBar()
	help, notices, bodyH := r.layout()

	st := r.activeStatus()
	org := r.common.Org
	errText := st.Err
	if errText == "" {
		errText = r.orgErr
	}
	user := "" // not known yet: shown as nothing, not as an empty name ""
	if org.UserName != "" {
		user = api.NameText(org.UserName)
	}
	bar := ui.StatusBar(th, ui.Status{Profile: r.common.Profile, Org: org.Name, User: user, Key: r.keyKind,
		ReadOnly: r.common.ReadOnly(), AutoRefresh: st.AutoRefresh, AutoPaused: st.AutoPaused, LastRefresh: st.LastRefresh, Stale: st.Stale,
		Busy: st.Busy, Spinner: r.spinner.View(), Err: errText, Now: r.common.Now(), ClockSkew: r.clockSkew()}, w)

	body := screen.View()
	if d := r.dialogs.Top(); d != nil {
		body = ui.Overlay(body, d.View(th, w, bodyH), w, bodyH)
		if dd, ok := d.(drawnDialog); ok {
			dd.Drawn(w, bodyH)
		}
	}
	lines := strings.Split(body, "\n")
	if len(lines) > bodyH {
		lines = lines[:bodyH]
	}
	for len(lines) < bodyH {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	lines = append(lines, notices...)
	return strings.Join(append(append([]string{top}, lines...), help, bar), "\n")
}

// tooSmallFrame says what size the console needs, word-wrapped, in exactly the
// window's lines, each within its width.
func tooSmallFrame(w, h int) string {
	w, h = max(w, 1), max(h, 1)
	msg := fmt.Sprintf("terminal too small (need %d×%d, have %d×%d); keys are ignored until it is larger, ctrl+c quits", minWidth, minHeight, w, h)
	lines := strings.Split(lipgloss.NewStyle().Width(w).Render(msg), "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// RowClicker is a screen that selects a row when it is clicked; y is the line
// within the screen's body (0 = its first line).
type RowClicker interface {
	ClickRow(y int) tea.Cmd
}

// handleClick switches tabs on a click on the tab bar, and selects a row where the
// active screen supports it. Clicks go nowhere while a dialog is open.
func (r *Root) handleClick(m tea.Mouse) tea.Cmd {
	if m.Button != tea.MouseLeft || r.tooSmall() || r.dialogs.Len() > 0 {
		return nil
	}
	active := r.screens[r.active]
	if m.Y == 0 {
		if capturing(active) {
			return nil
		}
		_, spans := r.tabBar()
		for i, s := range spans {
			if m.X >= s[0] && m.X < s[1] {
				return r.goTo(i)
			}
		}
		return nil
	}
	_, _, bodyH := r.layout()
	if m.Y > bodyH {
		return nil
	}
	if rc, ok := active.(RowClicker); ok && !capturing(active) {
		return rc.ClickRow(m.Y - 1)
	}
	return nil
}

// handleWheel scrolls what is on top: the dialog, else the active screen, by
// giving it the up and down keys.
func (r *Root) handleWheel(m tea.Mouse) tea.Cmd {
	var k tea.KeyPressMsg
	switch m.Button {
	case tea.MouseWheelUp:
		k = tea.KeyPressMsg{Code: tea.KeyUp}
	case tea.MouseWheelDown:
		k = tea.KeyPressMsg{Code: tea.KeyDown}
	default:
		return nil
	}
	if r.dialogs.Len() > 0 {
		return r.dialogs.Update(k)
	}
	var cmd tea.Cmd
	r.screens[r.active], cmd = r.screens[r.active].Update(k)
	return cmd
}
