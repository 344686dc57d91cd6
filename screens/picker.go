package screens

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// pickerDialog chooses several values from a list, narrowed by a fuzzy filter as
// the user types: space toggles the value under the cursor, enter applies the
// choice (with nothing ticked, the value under the cursor when a filter is typed,
// else "any"), ctrl+x clears every tick, esc cancels. The choice reaches the
// screen as the message apply returns.
type pickerDialog struct {
	id, title string
	values    []string // what is applied; fuzzyList's labels are what is shown
	chosen    map[string]bool
	fuzzyList
	apply func(values []string) tea.Msg
	keys  pickerKeys
	// none is what nothing ticked means ("any" for a filter).
	none string
	// ticked: a tick was set, taken off or cleared here, so enter applies
	// exactly the ticks (an untick or ctrl+x then enter means none, not the
	// row under the cursor).
	ticked bool
	// one: the picker chooses a single value, the one under the cursor on
	// enter; nothing is ticked.
	one bool
	// typed, when set, reads a value typed in the filter that no row
	// matches (the list offers some values, the service takes more): enter
	// applies it with the ticks, or says why it is not one.
	typed    func(text string) (string, error)
	typedErr string
	// tails, when set, are the ends of the labels (same order) kept whole
	// when a row is cut: a user's id, so that the name is shortened and
	// the id that tells two users of one name apart is never hidden.
	tails []string
}

type pickerKeys struct {
	Toggle, Apply, Clear, Close, Up, Down key.Binding
}

func newPickerDialog(id, title string, values, labels, chosen []string, apply func([]string) tea.Msg) *pickerDialog {
	p := &pickerDialog{id: id, title: title, values: values, fuzzyList: newFuzzyList("filter: ", labels), chosen: map[string]bool{}, apply: apply, none: "any",
		keys: pickerKeys{
			Toggle: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "tick")),
			Apply:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
			Clear:  key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "clear (any)")),
			Close:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
			Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
			Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		}}
	for _, v := range chosen {
		p.chosen[v] = true
	}
	return p
}

func (p *pickerDialog) ID() string { return p.id }

// noneLabel names what nothing ticked means, in the title and ctrl+x's help.
func (p *pickerDialog) noneLabel(none string) {
	p.none = none
	p.keys.Clear.SetHelp("ctrl+x", "clear ("+none+")")
}

// pickOne makes the picker choose the single value under the cursor.
func (p *pickerDialog) pickOne() {
	p.one = true
	p.keys.Toggle.SetEnabled(false)
	p.keys.Clear.SetEnabled(false)
	p.keys.Apply.SetHelp("enter", "choose")
}

// keepTails makes the picker cut a row's label before its tail (ui.TruncateKeepTail).
func (p *pickerDialog) keepTails(tails []string) { p.tails = tails }

// startFilter starts the filter with what was typed to open the picker.
func (p *pickerDialog) startFilter(text string) {
	p.input.SetValue(text)
	p.filter()
}

// picked is the choice in the list's order.
func (p *pickerDialog) picked() []string {
	var out []string
	for _, v := range p.values {
		if p.chosen[v] {
			out = append(out, v)
		}
	}
	return out
}

// acceptTyped lets the user apply a value typed in the filter that no row
// matches, read (checked and normalised) by parse.
func (p *pickerDialog) acceptTyped(parse func(text string) (string, error)) { p.typed = parse }

// typedValue reads the filter as a value of its own: "" with no error when
// rows match it or nothing is typed.
func (p *pickerDialog) typedValue() (string, error) {
	text := strings.TrimSpace(p.input.Value())
	if p.typed == nil || len(p.matches) > 0 || text == "" {
		return "", nil
	}
	return p.typed(text)
}

func (p *pickerDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		p.typedErr = ""
		switch {
		case key.Matches(k, p.keys.Close):
			return nil, nil
		case key.Matches(k, p.keys.Toggle):
			if i := p.current(); i >= 0 {
				p.chosen[p.values[i]] = !p.chosen[p.values[i]]
				p.ticked = true
			}
			return p, nil
		case key.Matches(k, p.keys.Clear):
			clear(p.chosen)
			p.ticked = true
			return p, nil
		case key.Matches(k, p.keys.Apply) && p.one:
			if i := p.current(); i >= 0 {
				return nil, msgCmd(p.apply([]string{p.values[i]}))
			}
			return p, nil // nothing matches: nothing to choose
		case key.Matches(k, p.keys.Apply):
			values := p.picked()
			typed, err := p.typedValue()
			if err != nil {
				p.typedErr = err.Error()
				return p, nil
			}
			if typed != "" {
				if !slices.Contains(values, typed) {
					values = append(values, typed)
				}
				return nil, msgCmd(p.apply(values))
			}
			// Typed a filter and pressed enter without ticking: the row
			// under the cursor is what was meant.
			if i := p.current(); len(values) == 0 && !p.ticked && p.input.Value() != "" && i >= 0 {
				values = []string{p.values[i]}
			}
			return nil, msgCmd(p.apply(values))
		}
	}
	p.navigate(msg, p.keys.Up, p.keys.Down)
	return p, nil
}

func (p *pickerDialog) Keys() ui.KeyMap { return pickerHelp{p.keys} }

type pickerHelp struct{ k pickerKeys }

func (h pickerHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Toggle, h.k.Apply, h.k.Clear, h.k.Up, h.k.Down, h.k.Close}
}
func (h pickerHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

// View lists the matches that fit, each with its tick, the cursor's row reversed.
func (p *pickerDialog) View(th *theme.Theme, width, height int) string {
	inner := max(min(width-8, 56), 10)
	rows := max(min(height-9, len(p.matches)), 1)
	start, end := p.window(rows)
	summary := p.none
	if n := len(p.picked()); n > 0 {
		summary = fmt.Sprintf("%d ticked", n)
	}
	if p.one {
		summary = fmt.Sprintf("%d of %d", len(p.matches), len(p.values))
	}
	lines := []string{th.Title.Render(ui.Clean(p.title)) + th.Muted.Render("  "+summary),
		ansi.Truncate(p.input.View(), inner, "…"), ""}
	if len(p.matches) == 0 {
		typed, err := p.typedValue()
		switch {
		case p.typedErr != "":
			lines = append(lines, th.Bad.Render(strings.Join(ui.WrapLines(ui.Clean(p.typedErr), inner), "\n")))
		case err == nil && typed != "":
			lines = append(lines, th.Muted.Render("nothing listed matches; enter applies, as typed:"),
				ansi.Truncate(ui.Clean(typed), inner, "…"))
		default:
			lines = append(lines, th.Muted.Render("nothing matches"))
		}
	}
	for i := start; i < end; i++ {
		j := p.matches[i]
		box := "[ ] "
		switch {
		case p.one:
			box = ""
		case p.chosen[p.values[j]]:
			box = "[x] "
		}
		line := ansi.Truncate(box+ui.Clean(p.labels[j]), inner, "…")
		if j < len(p.tails) {
			line = ui.TruncateKeepTail(box+ui.Clean(p.labels[j]), ui.Clean(p.tails[j]), inner)
		}
		if i == p.cursor {
			line = th.Selected.Render(line + strings.Repeat(" ", max(inner-ansi.StringWidth(line), 0)))
		}
		lines = append(lines, line)
	}
	if more := len(p.matches) - end; more > 0 {
		lines = append(lines, th.Muted.Render(fmt.Sprintf("↓ %d more", more)))
	}
	return th.Dialog.Padding(0, 2).Render(strings.Join(lines, "\n"))
}

// shortLabels are values without their prefix, for a picker's labels.
func shortLabels(values []string, short func(string) string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = short(v)
	}
	return slices.Clip(out)
}
