package screens

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

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
	values    []string // what is applied
	labels    []string // what is shown and matched
	chosen    map[string]bool
	input     ui.Input
	matches   []int
	cursor    int
	apply     func(values []string) tea.Msg
	keys      pickerKeys
}

type pickerKeys struct {
	Toggle, Apply, Clear, Close, Up, Down key.Binding
}

func newPickerDialog(id, title string, values, labels, chosen []string, apply func([]string) tea.Msg) *pickerDialog {
	p := &pickerDialog{id: id, title: title, values: values, labels: labels, chosen: map[string]bool{}, apply: apply,
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
	p.input.Prompt = "filter: "
	p.input.Focus()
	p.filter()
	return p
}

func (p *pickerDialog) ID() string { return p.id }

func (p *pickerDialog) filter() {
	p.matches = p.matches[:0]
	if pattern := strings.TrimSpace(p.input.Value()); pattern == "" {
		for i := range p.labels {
			p.matches = append(p.matches, i)
		}
	} else {
		for _, m := range fuzzy.Find(pattern, p.labels) {
			p.matches = append(p.matches, m.Index)
		}
	}
	p.cursor = min(p.cursor, max(len(p.matches)-1, 0))
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

func (p *pickerDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, p.keys.Close):
			return nil, nil
		case key.Matches(k, p.keys.Toggle):
			if len(p.matches) > 0 {
				v := p.values[p.matches[p.cursor]]
				p.chosen[v] = !p.chosen[v]
			}
			return p, nil
		case key.Matches(k, p.keys.Clear):
			clear(p.chosen)
			return p, nil
		case key.Matches(k, p.keys.Apply):
			values := p.picked()
			if len(values) == 0 && p.input.Value() != "" && len(p.matches) > 0 {
				values = []string{p.values[p.matches[p.cursor]]}
			}
			return nil, msgCmd(p.apply(values))
		case key.Matches(k, p.keys.Up):
			p.cursor = max(p.cursor-1, 0)
			return p, nil
		case key.Matches(k, p.keys.Down):
			p.cursor = min(p.cursor+1, max(len(p.matches)-1, 0))
			return p, nil
		}
	}
	var changed bool
	p.input, changed = p.input.Update(msg)
	if changed {
		p.cursor = 0
		p.filter()
	}
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
	start := 0
	if p.cursor >= rows {
		start = p.cursor - rows + 1
	}
	summary := "any"
	if n := len(p.picked()); n > 0 {
		summary = fmt.Sprintf("%d ticked", n)
	}
	lines := []string{th.Title.Render(ui.Clean(p.title)) + th.Muted.Render("  "+summary),
		ansi.Truncate(p.input.View(), inner, "…"), ""}
	if len(p.matches) == 0 {
		lines = append(lines, th.Muted.Render("nothing matches"))
	}
	for i := start; i < len(p.matches) && i < start+rows; i++ {
		j := p.matches[i]
		box := "[ ] "
		if p.chosen[p.values[j]] {
			box = "[x] "
		}
		line := ansi.Truncate(box+ui.Clean(p.labels[j]), inner, "…")
		if i == p.cursor {
			line = th.Selected.Render(line + strings.Repeat(" ", max(inner-ansi.StringWidth(line), 0)))
		}
		lines = append(lines, line)
	}
	if more := len(p.matches) - start - rows; more > 0 {
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
