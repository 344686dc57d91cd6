package screens

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// Command is one entry of the command palette.
type Command struct {
	Name string // what the user types and reads: "refresh", "go to Activities"
	Key  string // the key that does the same, shown beside it ("" = none)
	// Disabled says why the command does nothing now ("" = it is available).
	Disabled string
	// Run is what choosing the command does; it runs after the palette closes.
	Run tea.Cmd
	// Dialog, when set, is what choosing the command opens instead: the
	// palette asks for it (askDialog), so that keys typed for it before it
	// appears are held back, not handed to the screen below.
	Dialog Dialog
}

// CommandScreen is a screen that contributes commands to the palette while it is
// the active screen (each operation's form registers one this way).
type CommandScreen interface {
	Commands() []Command
}

// pressKey is a command that delivers the first key of b, as if typed, so a
// palette entry does exactly what its key does.
func pressKey(b key.Binding) tea.Cmd {
	if len(b.Keys()) == 0 {
		return nil
	}
	k := keyPressFor(b.Keys()[0])
	return func() tea.Msg { return pressKeyMsg{k} }
}

// pressKeyMsg asks the root to handle a key press as if typed (after the palette
// has closed).
type pressKeyMsg struct{ key tea.KeyPressMsg }

// keyPressFor is the key press Bubble Tea reports for a key name ("r", "enter",
// "ctrl+r", "shift+tab").
func keyPressFor(s string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(s, "ctrl+") && len(s) > 5:
			mod |= tea.ModCtrl
			s = s[5:]
			continue
		case strings.HasPrefix(s, "alt+") && len(s) > 4:
			mod |= tea.ModAlt
			s = s[4:]
			continue
		case strings.HasPrefix(s, "shift+") && len(s) > 6:
			mod |= tea.ModShift
			s = s[6:]
			continue
		}
		break
	}
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "space": tea.KeySpace,
		"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5,
		"f6": tea.KeyF6, "f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10}
	if c, ok := named[s]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(s)
	if len(r) != 1 {
		return tea.KeyPressMsg{}
	}
	if mod != 0 {
		return tea.KeyPressMsg{Code: r[0], Mod: mod}
	}
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// paletteDialog filters commands as the user types (letters in order, any case)
// and runs the chosen one.
type paletteDialog struct {
	// dialogAsk: enter on a command that opens a dialog.
	dialogAsk
	commands  []Command
	fuzzyList // over the commands' names
	keys      paletteKeys
}

type paletteKeys struct {
	Run, Close, Up, Down key.Binding
}

const paletteID = "palette"

func newPaletteDialog(commands []Command) *paletteDialog {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.Name
	}
	p := &paletteDialog{commands: commands, fuzzyList: newFuzzyList(": ", names), keys: paletteKeys{
		Run:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Up:    key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:  key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
	}}
	return p
}

func (p *paletteDialog) ID() string { return paletteID }

func (p *paletteDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, p.keys.Close):
			return nil, nil
		case key.Matches(k, p.keys.Run):
			i := p.current()
			if i < 0 {
				return p, nil
			}
			c := p.commands[i]
			if c.Disabled != "" {
				return p, ui.Toast(c.Name+": "+c.Disabled, true)
			}
			if c.Dialog != nil {
				return nil, p.askDialog(c.Dialog)
			}
			return nil, c.Run
		}
	}
	p.navigate(msg, p.keys.Up, p.keys.Down)
	return p, nil
}

func (p *paletteDialog) Keys() ui.KeyMap { return paletteHelp{p.keys} }

type paletteHelp struct{ k paletteKeys }

func (h paletteHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Run, h.k.Up, h.k.Down, h.k.Close}
}
func (h paletteHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

// View lists the matches that fit, the cursor's row reversed, each with its key
// right-aligned.
func (p *paletteDialog) View(th *theme.Theme, width, height int) string {
	// The dialog style adds a border (2) and padding (4 columns, 2 lines).
	inner := max(min(width-8, 56), 10)
	rows := max(min(height-8, len(p.matches)), 1)
	start, end := p.window(rows)
	lines := []string{ansi.Truncate(p.input.View(), inner, "…"), ""}
	if len(p.matches) == 0 {
		lines = append(lines, th.Muted.Render("no command matches"))
	}
	for i := start; i < end; i++ {
		c := p.commands[p.matches[i]]
		k := ui.Clean(c.Key)
		name := ansi.Truncate(ui.Clean(c.Name), max(inner-ansi.StringWidth(k)-2, 1), "…")
		gap := max(inner-ansi.StringWidth(name)-ansi.StringWidth(k), 1)
		var line string
		switch {
		case i == p.cursor:
			line = th.Selected.Render(name + strings.Repeat(" ", gap) + k)
		case c.Disabled != "":
			line = th.Disabled.Render(name) + strings.Repeat(" ", gap) + th.Muted.Render(k)
		default:
			line = name + strings.Repeat(" ", gap) + th.HelpKey.Render(k)
		}
		lines = append(lines, line)
	}
	if more := len(p.matches) - end; more > 0 {
		lines = append(lines, th.Muted.Render(fmt.Sprintf("↓ %d more", more)))
	}
	return th.Dialog.Padding(0, 2).Render(strings.Join(lines, "\n"))
}
