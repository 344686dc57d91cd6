package screens

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
)

// The smallest window the console draws a frame in. 60 columns hold the tab bar
// (50) and the Activities table with a readable TYPE column; 18 lines hold the tab
// bar, the help wrapped at 60 columns (up to 4 lines), the status bar, and a body
// tall enough for the vote dialog (12 lines) over the list. Below it the console
// says so instead of drawing a broken frame.
const (
	minWidth  = 60
	minHeight = 18
)

// tooSmall reports whether the window is below the minimum.
func (r *Root) tooSmall() bool { return r.width < minWidth || r.height < minHeight }

// tabBar renders the tabs and returns, per screen, the columns [from, to) of its
// tab, for mouse clicks. When the titles do not fit the width, the inactive tabs
// are shortened (to three letters, then to their number) so that every tab stays
// visible and clickable; the active one keeps its whole title.
func (r *Root) tabBar() (string, [][2]int) {
	bar, spans, width := r.renderTabs(-1)
	if width > r.width {
		bar, spans, width = r.renderTabs(3)
	}
	if width > r.width {
		bar, spans, _ = r.renderTabs(0)
	}
	return ansi.Truncate(bar, r.width, "…"), spans
}

// renderTabs draws the tab bar with inactive titles cut to short runes (-1: whole)
// and returns it, the tabs' column spans and its width.
func (r *Root) renderTabs(short int) (string, [][2]int, int) {
	th := r.common.Theme
	var b strings.Builder
	b.WriteString(th.Title.Render("vigil"))
	x := lipgloss.Width(b.String())
	spans := make([][2]int, len(r.screens))
	for i, s := range r.screens {
		title := s.Title()
		if i != r.active && short >= 0 && len([]rune(title)) > short {
			title = string([]rune(title)[:short])
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
// as needed, never cut.
func (r *Root) help(w int) string {
	th := r.common.Theme
	var own ui.KeyMap
	global, globalFull := r.keys.ShortHelp(), r.keys.FullHelp()
	force := []key.Binding{r.keys.ForceQuit}
	switch {
	case r.dialogs.Len() > 0:
		// A dialog takes every key but ctrl+c.
		own, global, globalFull = r.dialogs.Top().Keys(), force, [][]key.Binding{force}
	default:
		own = r.screens[r.active].Keys()
		if r.screens[r.active].Capturing() {
			global, globalFull = force, [][]key.Binding{force}
		}
	}
	if r.fullHelp {
		return ui.FullHelp(th, append(own.FullHelp(), globalFull...), w)
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

// bodyHeight is the height left for the screen under the help, and the help.
func (r *Root) layout() (help string, bodyH int) {
	help = r.help(r.width)
	// The help never takes the last body line: on a small window it is cut.
	if hl := strings.Split(help, "\n"); len(hl) > r.height-3 {
		help = strings.Join(hl[:max(r.height-3, 0)], "\n")
	}
	return help, max(r.height-2-lipgloss.Height(help), 1)
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
	help, bodyH := r.layout()

	st := screen.Status()
	org := r.common.Org
	errText := st.Err
	if errText == "" {
		errText = r.orgErr
	}
	bar := ui.StatusBar(th, ui.Status{Profile: r.common.Profile, Org: org.Name, User: org.UserName, Key: r.keyKind,
		ReadOnly: r.common.ReadOnly(), AutoRefresh: st.AutoRefresh, LastRefresh: st.LastRefresh,
		Busy: st.Busy, Spinner: r.spinner.View(), Err: errText, Now: r.common.Now()}, w)

	body := screen.View()
	if d := r.dialogs.Top(); d != nil {
		body = ui.Overlay(body, d.View(th, w, bodyH), w, bodyH)
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
	// Toasts sit at the right of the help lines, bottom up, so they never cover
	// the screen's content and nothing moves when they come and go; when there
	// are more toasts than help lines the newest show (the messages view has
	// every one).
	helpLines := strings.Split(help, "\n")
	// Each toast is wrapped (a refused vote's reason is read, not cut); the
	// newest whole toasts that fit in the help lines show.
	blocks := r.toasts.Blocks(th, max(w*3/5, 24), len(helpLines))
	var toasts []string
	for i := len(blocks) - 1; i >= 0 && len(toasts)+len(blocks[i]) <= len(helpLines); i-- {
		toasts = append(append([]string(nil), blocks[i]...), toasts...)
	}
	for i, t := range toasts {
		row := len(helpLines) - len(toasts) + i
		tw := ansi.StringWidth(t)
		left := helpLines[row]
		if ansi.StringWidth(left) > w-tw-1 {
			left = ansi.Truncate(left, max(w-tw-2, 0), "…")
		}
		if pad := w - tw - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		helpLines[row] = left + t
	}
	help = strings.Join(helpLines, "\n")
	return strings.Join(append(append([]string{top}, lines...), help, bar), "\n")
}

// tooSmallFrame says what size the console needs, word-wrapped, in exactly the
// window's lines, each within its width.
func tooSmallFrame(w, h int) string {
	w, h = max(w, 1), max(h, 1)
	msg := fmt.Sprintf("terminal too small (need %d×%d, have %d×%d); keys wait until it is larger, ctrl+c quits", minWidth, minHeight, w, h)
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
		if active.Capturing() {
			return nil
		}
		_, spans := r.tabBar()
		for i, s := range spans {
			if m.X >= s[0] && m.X < s[1] {
				r.active = i
			}
		}
		return nil
	}
	_, bodyH := r.layout()
	if m.Y > bodyH {
		return nil
	}
	if rc, ok := active.(RowClicker); ok && !active.Capturing() {
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
