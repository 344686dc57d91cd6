package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// Field is one input of a Form: free text, or one of Choices.
type Field struct {
	Key         string // name of the value in Values()
	Label       string
	Placeholder string
	Required    bool
	Choices     []string           // when set, ←/→ pick one of these instead of typing
	Validate    func(string) error // optional; its message is shown under the field
	CharLimit   int
	Value       string // initial value

	input  Input
	choice int
	err    string
}

// FormResult is where a form stands after a key.
type FormResult int

// Editing until the user submits (and every field is valid) or cancels.
const (
	Editing FormResult = iota
	Submitted
	Cancelled
)

// FormKeyMap are the keys of a form.
type FormKeyMap struct {
	Next, Prev, Submit, Cancel, Left, Right key.Binding
}

// DefaultFormKeyMap: tab/↓ next field, shift+tab/↑ previous, ctrl+s (or enter on the
// last field) submits, esc cancels, ←/→ change a choice.
func DefaultFormKeyMap() FormKeyMap {
	return FormKeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Submit: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "submit")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Left:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "choose")),
		Right:  key.NewBinding(key.WithKeys("right")),
	}
}

// ShortHelp and FullHelp make the key map a help.KeyMap.
func (k FormKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Prev, k.Left, k.Submit, k.Cancel}
}
func (k FormKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Form is a vertical list of fields. While it is open the screen must report
// Capturing, so letters go into the fields and only ctrl+c stays global.
type Form struct {
	Title string
	Keys  FormKeyMap
	// Check validates the fields together (a value whose rule depends on another
	// field's choice) after each field passed its own checks; it returns the
	// failing field's key and what is wrong, or "" and nil.
	Check  func(values map[string]string) (string, error)
	fields []Field
	focus  int
}

// NewForm returns a form with these fields, the first one focused.
func NewForm(title string, fields ...Field) Form {
	f := Form{Title: title, Keys: DefaultFormKeyMap(), fields: fields}
	for i := range f.fields {
		fd := &f.fields[i]
		fd.input = Input{CharLimit: fd.CharLimit, Placeholder: fd.Placeholder}
		if len(fd.Choices) > 0 {
			for j, c := range fd.Choices {
				if c == fd.Value {
					fd.choice = j
				}
			}
		} else {
			fd.input.SetValue(fd.Value)
		}
	}
	f.setFocus(0)
	return f
}

func (f *Form) setFocus(i int) {
	if len(f.fields) == 0 {
		return
	}
	f.fields[f.focus].input.Blur()
	f.focus = (i + len(f.fields)) % len(f.fields)
	f.fields[f.focus].input.Focus()
}

// Values returns every field's value by key.
func (f Form) Values() map[string]string {
	out := make(map[string]string, len(f.fields))
	for _, fd := range f.fields {
		out[fd.Key] = fd.value()
	}
	return out
}

func (fd Field) value() string {
	if len(fd.Choices) > 0 {
		return fd.Choices[fd.choice]
	}
	return fd.input.Value()
}

// validate checks every field, records the messages and focuses the first error.
func (f *Form) validate() bool {
	first := -1
	for i := range f.fields {
		fd := &f.fields[i]
		fd.err = ""
		v := fd.value()
		switch {
		case fd.Required && strings.TrimSpace(v) == "":
			fd.err = fd.Label + " is required"
		case fd.Validate != nil:
			if err := fd.Validate(v); err != nil {
				fd.err = err.Error()
			}
		}
		if fd.err != "" && first < 0 {
			first = i
		}
	}
	if first < 0 && f.Check != nil {
		if k, err := f.Check(f.Values()); err != nil {
			first = max(f.index(k), 0)
			f.fields[first].err = err.Error()
		}
	}
	if first >= 0 {
		f.setFocus(first)
	}
	return first < 0
}

// index is the position of the field with this key, or -1.
func (f Form) index(k string) int {
	for i, fd := range f.fields {
		if fd.Key == k {
			return i
		}
	}
	return -1
}

// Focused is the key of the field being edited.
func (f Form) Focused() string {
	if len(f.fields) == 0 {
		return ""
	}
	return f.fields[f.focus].Key
}

// Update handles a key; the form is Submitted only when every field is valid.
func (f Form) Update(msg tea.Msg) (Form, FormResult) {
	k, isKey := msg.(tea.KeyPressMsg)
	if len(f.fields) == 0 {
		return f, Cancelled
	}
	fd := &f.fields[f.focus]
	if isKey {
		last := f.focus == len(f.fields)-1
		switch {
		case key.Matches(k, f.Keys.Cancel):
			return f, Cancelled
		case key.Matches(k, f.Keys.Submit), k.String() == "enter" && last:
			if f.validate() {
				return f, Submitted
			}
			return f, Editing
		case key.Matches(k, f.Keys.Next), k.String() == "enter":
			f.setFocus(f.focus + 1)
			return f, Editing
		case key.Matches(k, f.Keys.Prev):
			f.setFocus(f.focus - 1)
			return f, Editing
		case len(fd.Choices) > 0 && key.Matches(k, f.Keys.Left):
			fd.choice = (fd.choice + len(fd.Choices) - 1) % len(fd.Choices)
			return f, Editing
		case len(fd.Choices) > 0 && (key.Matches(k, f.Keys.Right) || k.String() == "space"):
			fd.choice = (fd.choice + 1) % len(fd.Choices)
			return f, Editing
		}
	}
	if len(fd.Choices) == 0 {
		var changed bool
		fd.input, changed = fd.input.Update(msg)
		if changed {
			fd.err = ""
		}
	}
	return f, Editing
}

// View renders the form at most width cells wide.
func (f Form) View(th *theme.Theme, width int) string {
	var b strings.Builder
	b.WriteString(th.Title.Render(ansi.Truncate(Clean(f.Title), width, "…")))
	b.WriteString("\n\n")
	for i, fd := range f.fields {
		label := fd.Label
		if fd.Required {
			label += " *"
		}
		marker := "  "
		if i == f.focus {
			marker = th.Filter.Render("▸ ")
		}
		b.WriteString(marker + th.Label.Render(label) + "\n")
		var val string
		if len(fd.Choices) > 0 {
			val = fmt.Sprintf("◂ %s ▸", Clean(fd.value()))
		} else {
			val = Clean(fd.input.View())
		}
		b.WriteString("  " + ansi.Truncate(val, max(width-2, 1), "…") + "\n")
		if fd.err != "" {
			// Wrapped, not cut: the end of an error often says what to do.
			for _, l := range strings.Split(ansi.Wrap(Clean(fd.err), max(width-2, 1), " "), "\n") {
				b.WriteString("  " + th.Bad.Render(l) + "\n")
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
