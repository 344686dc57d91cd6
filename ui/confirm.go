package ui

import (
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
}

// DefaultConfirmKeyMap: y confirms; n, esc, enter and q cancel.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		No:  key.NewBinding(key.WithKeys("n", "esc", "enter", "q"), key.WithHelp("n/enter/esc", "no")),
	}
}

// ShortHelp and FullHelp make the key map a help.KeyMap.
func (k ConfirmKeyMap) ShortHelp() []key.Binding  { return []key.Binding{k.Yes, k.No} }
func (k ConfirmKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Confirm is a yes/no question about a destructive or voting action. No is the
// default: enter, esc and n all answer No; only y answers Yes.
type Confirm struct {
	Title    string
	Lines    []string // what is being confirmed, restated (untrusted text is cleaned)
	YesLabel string
	Keys     ConfirmKeyMap
}

// NewConfirm returns a dialog asking title, with lines restating what is at stake.
func NewConfirm(title, yesLabel string, lines ...string) Confirm {
	return Confirm{Title: title, Lines: lines, YesLabel: yesLabel, Keys: DefaultConfirmKeyMap()}
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

// View renders the dialog box, at most width cells wide.
func (c Confirm) View(th *theme.Theme, width int) string {
	inner := max(min(width-8, 72), 4)
	var b strings.Builder
	b.WriteString(th.Title.Render(ansi.Truncate(Clean(c.Title), inner, "…")))
	b.WriteString("\n\n")
	for _, l := range c.Lines {
		b.WriteString(wrapField(Clean(l), inner))
		b.WriteByte('\n')
	}
	yes := c.YesLabel
	if yes == "" {
		yes = "Yes"
	}
	b.WriteByte('\n')
	b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top,
		th.ButtonFocus.Render("No"), "  ", th.Button.Render(yes+" (y)")))
	b.WriteString("\n")
	b.WriteString(th.Muted.Render("y confirms · enter, n or esc cancels"))
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
