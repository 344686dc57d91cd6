// Package theme holds every style of the console in one place: light and dark
// variants, NO_COLOR, and an optional per-profile accent colour so that, say, a
// production profile looks different from a test one.
package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Options choose a theme.
type Options struct {
	Dark    bool   // the terminal has a dark background
	NoColor bool   // NO_COLOR is set (any non-empty value): no colour at all
	Accent  string // profile colour cue, e.g. "red" or "#ff5f87"; "" = default
}

// Theme is the set of styles every screen and component renders with.
type Theme struct {
	Options Options

	Title       lipgloss.Style // screen title / tabs
	ActiveTab   lipgloss.Style
	InactiveTab lipgloss.Style
	Header      lipgloss.Style // table header
	Selected    lipgloss.Style // selected table row
	Row         lipgloss.Style
	Muted       lipgloss.Style // secondary text
	Label       lipgloss.Style // field labels in the detail pane
	Section     lipgloss.Style // section headings in the detail pane
	Good        lipgloss.Style // approvals, completed
	Bad         lipgloss.Style // rejections, failures, errors
	Warn        lipgloss.Style // pending, needs attention
	StatusBar   lipgloss.Style
	StatusError lipgloss.Style
	StatusWarn  lipgloss.Style // a warning in the status bar (the service's clock differs)
	Badge       lipgloss.Style // READ-ONLY and profile badge
	Dialog      lipgloss.Style // confirm dialog box
	DialogTight lipgloss.Style // the box when the window is too short for Dialog's blank lines
	Button      lipgloss.Style
	ButtonFocus lipgloss.Style
	Toast       lipgloss.Style
	Filter      lipgloss.Style
	HelpKey     lipgloss.Style
	HelpDesc    lipgloss.Style
	HelpSep     lipgloss.Style
	Disabled    lipgloss.Style // disabled key in help

	// Policy expressions (condition, consensus), highlighted by token.
	ExprKeyword  lipgloss.Style // activity, approvers, in, true…
	ExprString   lipgloss.Style
	ExprNumber   lipgloss.Style
	ExprIdent    lipgloss.Style // fields and functions
	ExprOperator lipgloss.Style
	ExprComment  lipgloss.Style // a `//` comment: not code, so never coloured as code
	ExprErrorAt  lipgloss.Style // the caret under an expression's error
}

// accentNames maps the colour names a config may use to ANSI colours, so profiles
// can write "red" instead of a hex value.
var accentNames = map[string]string{
	"red": "1", "green": "2", "yellow": "3", "blue": "4", "magenta": "5", "cyan": "6",
	"orange": "208", "purple": "99", "pink": "205",
}

// AccentColor parses a profile's colour: a name of accentNames, an ANSI number or
// "#rrggbb". It reports false for anything else, so the caller can say so.
func AccentColor(s string) (color.Color, bool) {
	if s == "" {
		return nil, false
	}
	if n, ok := accentNames[s]; ok {
		return lipgloss.Color(n), true
	}
	if s[0] == '#' && (len(s) == 7 || len(s) == 4) {
		for _, r := range s[1:] {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
				return nil, false
			}
		}
		return lipgloss.Color(s), true
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return nil, false
		}
		n = n*10 + int(r-'0')
		if n > 255 {
			return nil, false
		}
	}
	return lipgloss.Color(s), true
}

// New builds the theme for the given options.
func New(o Options) *Theme {
	t := &Theme{Options: o}
	if o.NoColor {
		t.noColor()
		return t
	}
	ld := lipgloss.LightDark(o.Dark)
	accent := ld(lipgloss.Color("#5a3fd1"), lipgloss.Color("#a28bff"))
	if c, ok := AccentColor(o.Accent); ok {
		accent = c
	}
	fg := ld(lipgloss.Color("#1a1a1a"), lipgloss.Color("#e4e4e4"))
	muted := ld(lipgloss.Color("#6b6b6b"), lipgloss.Color("#8a8a8a"))
	barBg := ld(lipgloss.Color("#e4e4e4"), lipgloss.Color("#2a2a2a"))
	selBg := ld(lipgloss.Color("#d8d0ff"), lipgloss.Color("#3b3360"))
	good := ld(lipgloss.Color("#1a7f37"), lipgloss.Color("#56d364"))
	bad := ld(lipgloss.Color("#cf222e"), lipgloss.Color("#ff7b72"))
	warn := ld(lipgloss.Color("#9a6700"), lipgloss.Color("#e3b341"))

	base := lipgloss.NewStyle()
	t.Title = base.Bold(true).Foreground(accent)
	t.ActiveTab = base.Bold(true).Foreground(ld(lipgloss.Color("#ffffff"), lipgloss.Color("#000000"))).Background(accent)
	t.InactiveTab = base.Foreground(muted)
	t.Header = base.Bold(true).Foreground(accent)
	t.Selected = base.Bold(true).Foreground(fg).Background(selBg)
	t.Row = base.Foreground(fg)
	t.Muted = base.Foreground(muted)
	t.Label = base.Foreground(muted)
	t.Section = base.Bold(true).Foreground(accent)
	t.Good = base.Foreground(good)
	t.Bad = base.Foreground(bad)
	t.Warn = base.Foreground(warn)
	t.StatusBar = base.Foreground(fg).Background(barBg)
	t.StatusError = base.Foreground(bad).Background(barBg).Bold(true)
	t.StatusWarn = base.Foreground(warn).Background(barBg).Bold(true)
	t.Badge = base.Bold(true).Foreground(ld(lipgloss.Color("#ffffff"), lipgloss.Color("#000000"))).Background(accent).Padding(0, 1)
	t.Dialog = base.Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(1, 2)
	t.DialogTight = t.Dialog.Padding(0, 2)
	t.Button = base.Foreground(muted).Padding(0, 2)
	t.ButtonFocus = base.Bold(true).Foreground(ld(lipgloss.Color("#ffffff"), lipgloss.Color("#000000"))).Background(accent).Padding(0, 2)
	t.Toast = base.Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(0, 1)
	t.Filter = base.Foreground(accent)
	t.HelpKey = base.Foreground(fg).Bold(true)
	t.HelpDesc = base.Foreground(muted)
	t.HelpSep = base.Foreground(muted)
	t.Disabled = base.Foreground(ld(lipgloss.Color("#b0b0b0"), lipgloss.Color("#4a4a4a"))).Strikethrough(true)
	t.ExprKeyword = base.Bold(true).Foreground(accent)
	t.ExprString = base.Foreground(good)
	t.ExprNumber = base.Foreground(warn)
	t.ExprIdent = base.Foreground(fg)
	t.ExprOperator = base.Foreground(muted)
	t.ExprComment = base.Italic(true).Foreground(muted)
	t.ExprErrorAt = base.Bold(true).Foreground(bad)
	return t
}

// noColor keeps emphasis that is not colour (bold, reverse, borders), as NO_COLOR asks.
func (t *Theme) noColor() {
	base := lipgloss.NewStyle()
	t.Title = base.Bold(true)
	t.ActiveTab = base.Bold(true).Reverse(true)
	t.InactiveTab = base
	t.Header = base.Bold(true)
	t.Selected = base.Reverse(true)
	t.Row = base
	t.Muted = base
	t.Label = base
	t.Section = base.Bold(true)
	t.Good = base
	t.Bad = base.Bold(true)
	t.Warn = base
	t.StatusBar = base
	t.StatusError = base.Bold(true)
	t.StatusWarn = base.Bold(true)
	t.Badge = base.Bold(true).Padding(0, 1)
	t.Dialog = base.Border(lipgloss.RoundedBorder()).Padding(1, 2)
	t.DialogTight = t.Dialog.Padding(0, 2)
	t.Button = base.Padding(0, 2)
	t.ButtonFocus = base.Reverse(true).Bold(true).Padding(0, 2)
	t.Toast = base.Border(lipgloss.RoundedBorder()).Padding(0, 1)
	t.Filter = base.Bold(true)
	t.HelpKey = base.Bold(true)
	t.HelpDesc = base
	t.HelpSep = base
	t.Disabled = base.Strikethrough(true)
	t.ExprKeyword = base.Bold(true)
	t.ExprString = base
	t.ExprNumber = base
	t.ExprIdent = base
	t.ExprOperator = base
	t.ExprComment = base.Italic(true)
	t.ExprErrorAt = base.Bold(true)
}
