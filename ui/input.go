package ui

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// Input is a one-line text input with the cursor at the end: what a filter or a short
// form field needs. It draws its own cursor, so it renders the same on every frame
// (no blink timers), which keeps views deterministic.
type Input struct {
	Prompt    string
	CharLimit int // 0 = 256
	value     []rune
	focused   bool
	// cut is set when typing or a paste went past CharLimit and the rest was
	// dropped: the value is then not what the user gave, which a form must
	// say rather than submit (cleared by any deletion).
	cut bool
}

// Cut reports whether text was dropped at the limit since the last deletion.
func (in Input) Cut() bool { return in.cut }

// Value returns the text typed so far.
func (in Input) Value() string { return string(in.value) }

// runes is the text as it is held, for a view to read without a copy.
func (in Input) runes() []rune { return in.value }

// SetValue replaces the text; control characters are dropped.
func (in *Input) SetValue(s string) {
	in.value = in.value[:0]
	in.cut = false
	in.insert(s)
}

// Focus makes the input take keys; Blur releases them.
func (in *Input) Focus()       { in.focused = true }
func (in *Input) Blur()        { in.focused = false }
func (in Input) Focused() bool { return in.focused }
func (in *Input) Reset()       { in.value, in.cut = nil, false }
func (in Input) limit() int {
	if in.CharLimit <= 0 {
		return 256
	}
	return in.CharLimit
}

func (in *Input) insert(s string) {
	for _, r := range s {
		if unicode.IsControl(r) || api.IsBidiControl(r) {
			continue // dropped anyway: not text past the limit
		}
		if len(in.value) >= in.limit() {
			in.cut = true
			return
		}
		in.value = append(in.value, r)
	}
}

// Update edits the text on key presses and pastes; it reports whether the value changed.
func (in Input) Update(msg tea.Msg) (Input, bool) {
	if !in.focused {
		return in, false
	}
	// Text is only ever added or removed at the end, so the value changed
	// exactly when its length did: no copy of a long value per keystroke.
	before := len(in.value)
	switch msg := msg.(type) {
	case tea.PasteMsg:
		in.insert(msg.Content)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "backspace", "ctrl+h":
			if len(in.value) > 0 {
				in.value = in.value[:len(in.value)-1]
			}
			in.cut = false
		case "ctrl+u":
			in.value = in.value[:0]
			in.cut = false
		case "ctrl+w":
			in.cut = false
			v := strings.TrimRightFunc(string(in.value), unicode.IsSpace)
			i := strings.LastIndexFunc(v, unicode.IsSpace)
			in.value = []rune(v[:i+1])
		default:
			if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
				in.insert(msg.Text)
			}
		}
	}
	return in, len(in.value) != before || in.cut
}

// View renders the prompt, the text and, when focused, a block cursor.
func (in Input) View() string {
	var b strings.Builder
	b.WriteString(in.Prompt)
	b.WriteString(string(in.value))
	if in.focused {
		b.WriteString("█")
	}
	return b.String()
}
