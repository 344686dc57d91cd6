package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// Field is one input of a Form: free text, or one of Choices.
type Field struct {
	Key   string // name of the value in Values()
	Label string
	// Placeholder is an example shown in an empty field the cursor is not
	// on, drawn as "e.g. " and the example, muted: it must never read as a
	// value typed (NO_COLOR draws muted text as any other).
	Placeholder string
	Required    bool
	Choices     []string           // when set, ←/→ pick one of these instead of typing
	Validate    func(string) error // optional; its message is shown under the field
	CharLimit   int
	Value       string // initial value
	// Live runs Validate on every change, not only on submit: a policy's
	// condition is compiled on every keystroke.
	Live bool
	// Deferred, with Live, leaves a change's checks (Validate and Warn) to
	// the form's owner, to run off the event loop: the field says
	// "checking…" meanwhile, Pending hands out the check of its newest
	// value, and Apply takes its result, dropping one of an older value. A
	// submit still checks every field at once.
	Deferred bool
	// Highlight, when set, styles the value for display (it must clean what
	// it is given, as Clean does).
	Highlight func(string) string
	// OneLine, when set, makes a paste (line breaks and all) the field's one
	// line; PastedLine when nil. An expression field drops each line's
	// comment first, which joined would hide the lines after it.
	OneLine func(pasted string) string
	// Hidden fields (secrets) are never drawn: the view says only whether
	// something was typed.
	Hidden bool
	// Multi lets several Choices be picked: ←/→ move, space toggles; the value is
	// the picked choices joined by commas.
	Multi bool
	// Filter: the Choices are too many to step through (an organization's
	// users). / or a typed letter makes the form return Picking, and its
	// owner shows a filter over them (form_pick.go).
	Filter bool
	// ChoiceLabels, when set, are shown instead of Choices (same order).
	ChoiceLabels []string
	// ChoiceTails, when set, are the ends of ChoiceLabels (same order) kept
	// whole when a label is cut: a user's id, so that the name is shortened
	// and the id that tells two users apart is never the part hidden. The
	// list of what is picked shows the labels in full, ids with them.
	ChoiceTails []string
	// Warn, when set, says what in a value that is accepted may not do what
	// its author means ("" nothing). It runs when Validate does, on a value
	// that passes (a failing one shows its error alone), and is shown under
	// the field in the warning style; it never stops a submit.
	Warn func(string) string
	// CutMessage, when set, is the message shown when typing or a paste went
	// past CharLimit, given what was kept: a list field can say how many of
	// its items survived and what to do with the rest.
	CutMessage func(kept string) string

	input  Input
	choice int
	picked map[int]bool
	err    string
	errCol int // 1-based column of the error in the value, 0 = none
	warn   string
	// initial is the value the form opened with, for Changed.
	initial string
	// gen numbers the field's values checked: a deferred check's result
	// counts only for the gen it was handed out at. pending: the value's
	// check has not come back; handedOut: a check of it (or of an older
	// value) is running.
	gen                int
	pending, handedOut bool
}

// FieldCheck is the check of one value of a Deferred field, to run off the
// event loop (Run); its result goes back with Form.Apply.
type FieldCheck struct {
	key string
	gen int
	run func() (err string, errCol int, warn string)
}

// CheckResult is what a FieldCheck found, for Form.Apply.
type CheckResult struct {
	key, err, warn string
	gen, errCol    int
}

// Run runs the check: Validate, and Warn when the value passes.
func (c FieldCheck) Run() CheckResult {
	err, col, warn := c.run()
	return CheckResult{key: c.key, gen: c.gen, err: err, errCol: col, warn: warn}
}

// Positioned is an error that knows where in the value it is: the form marks
// that column under the field.
type Positioned interface {
	error
	Column() int // 1-based, in characters
}

// FormResult is where a form stands after a key.
type FormResult int

// Editing until the user submits (and every field is valid) or cancels.
const (
	Editing FormResult = iota
	Submitted
	Cancelled
	// Picking: the focused field (a Filter field) asks for a filter over its
	// choices; PickRequest says which, SetPicked gives the choice back.
	Picking
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
	// pickQuery is the text typed that asked for a filter (PickRequest).
	pickQuery string
	// blurred: another part of the screen has the keys, so no field is marked
	// as focused and no cursor is drawn.
	blurred bool
}

// NewForm returns a form with these fields, the first one focused.
func NewForm(title string, fields ...Field) Form {
	f := Form{Title: title, Keys: DefaultFormKeyMap(), fields: fields}
	for i := range f.fields {
		fd := &f.fields[i]
		fd.input = Input{CharLimit: fd.CharLimit}
		if len(fd.Choices) > 0 {
			for j, c := range fd.Choices {
				if c == fd.Value {
					fd.choice = j
				}
			}
		} else {
			fd.input.SetValue(fd.Value)
		}
		fd.initial = fd.value()
	}
	f.setFocus(0)
	return f
}

// Changed reports whether a field other than those named in ignore holds
// something else than the form opened with: closing it would lose what was
// typed or picked.
func (f Form) Changed(ignore ...string) bool {
	for _, fd := range f.fields {
		if fd.value() != fd.initial && !slices.Contains(ignore, fd.Key) {
			return true
		}
	}
	return false
}

func (f *Form) setFocus(i int) {
	if len(f.fields) == 0 {
		return
	}
	f.fields[f.focus].input.Blur()
	f.focus = (i + len(f.fields)) % len(f.fields)
	if !f.blurred {
		f.fields[f.focus].input.Focus()
	}
}

// Blur shows the form without its focus (no ▸ marker, no cursor) while another
// part of the screen takes the keys; Focus gives it back.
func (f *Form) Blur() {
	f.blurred = true
	if len(f.fields) > 0 {
		f.fields[f.focus].input.Blur()
	}
}

// Focus shows the focused field as focused again (see Blur).
func (f *Form) Focus() {
	f.blurred = false
	f.setFocus(f.focus)
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
	if fd.Multi {
		var out []string
		for i, c := range fd.Choices {
			if fd.picked[i] {
				out = append(out, c)
			}
		}
		return strings.Join(out, ",")
	}
	if len(fd.Choices) > 0 {
		return fd.Choices[fd.choice]
	}
	return fd.input.Value()
}

// check validates one field and records its message and error column.
func (fd *Field) check() {
	fd.err, fd.errCol, fd.warn = fd.checks(fd.value(), fd.input.Cut(), fd.input.limit())()
	// Checked now: a deferred check still running is of this value or an
	// older one.
	fd.gen++
	fd.pending = false
}

// checks is the check of value v (cut: typing or a paste went past limit),
// as a function that needs nothing of the field after it returns.
func (fd *Field) checks(v string, cut bool, limit int) func() (string, int, string) {
	label, required, cutMessage, validate, warnOf := fd.Label, fd.Required, fd.CutMessage, fd.Validate, fd.Warn
	return func() (msg string, col int, warn string) {
		switch {
		case cut && cutMessage != nil:
			msg = cutMessage(v)
		case cut:
			msg = fmt.Sprintf("%s takes at most %d characters; what went past them was not taken in (backspace to edit)", label, limit)
		case required && strings.TrimSpace(v) == "":
			msg = label + " is required"
		case validate != nil:
			if err := validate(v); err != nil {
				msg = err.Error()
				if p, ok := err.(Positioned); ok {
					col = p.Column()
				}
			}
		}
		// Warnings only of a value that passes: a failing one shows its
		// error, and warning about it would cost a second check for nothing.
		if warnOf != nil && msg == "" {
			warn = warnOf(v)
		}
		return msg, col, warn
	}
}

// Pending are the checks of the Deferred fields' newest values that are not
// running yet (at most one a field: a field whose check is running gets the
// next when that one is applied), now counted as running.
func (f *Form) Pending() []FieldCheck {
	var out []FieldCheck
	for i := range f.fields {
		fd := &f.fields[i]
		if !fd.pending || fd.handedOut {
			continue
		}
		fd.handedOut = true
		out = append(out, FieldCheck{key: fd.Key, gen: fd.gen, run: fd.checks(fd.value(), fd.input.Cut(), fd.input.limit())})
	}
	return out
}

// Apply takes a deferred check's result; one of a value changed since is
// dropped (false). Either way the field's next check may be handed out.
func (f *Form) Apply(r CheckResult) bool {
	i := f.index(r.key)
	if i < 0 {
		return false
	}
	fd := &f.fields[i]
	fd.handedOut = false
	if !fd.pending || r.gen != fd.gen {
		return false
	}
	fd.err, fd.errCol, fd.warn, fd.pending = r.err, r.errCol, r.warn, false
	return true
}

// Checking reports whether a Deferred field's check has not come back.
func (f Form) Checking() bool {
	return slices.ContainsFunc(f.fields, func(fd Field) bool { return fd.pending })
}

// Errors are the messages under the fields, by key (empty when none).
func (f Form) Errors() map[string]string {
	out := map[string]string{}
	for _, fd := range f.fields {
		if fd.err != "" {
			out[fd.Key] = fd.err
		}
	}
	return out
}

// Valid reports whether every field would pass its checks now, without
// showing anything.
func (f Form) Valid() bool {
	for _, fd := range f.fields {
		fd.check()
		if fd.err != "" {
			return false
		}
	}
	return true
}

// SetChoices replaces the choices of field key and what is shown for them
// (labels, in the same order; nil shows the choices), keeping the chosen
// value when it is still offered, the first choice otherwise.
func (f *Form) SetChoices(key string, choices, labels []string) {
	for i := range f.fields {
		fd := &f.fields[i]
		if fd.Key != key || len(choices) == 0 {
			continue
		}
		cur := fd.value()
		fd.Choices, fd.ChoiceLabels, fd.choice = choices, labels, 0
		for j, c := range choices {
			if c == cur {
				fd.choice = j
			}
		}
	}
}

// Focused is the key of the field with the focus.
func (f Form) Focused() string {
	if len(f.fields) == 0 {
		return ""
	}
	return f.fields[f.focus].Key
}

// validate checks every field, records the messages and focuses the first error.
func (f *Form) validate() bool {
	first := -1
	for i := range f.fields {
		fd := &f.fields[i]
		fd.check()
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

// Update handles a key or a paste; the form is Submitted only when every field is valid.
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
			fd.err, fd.errCol = "", 0 // a new value: as a text field's edit, it clears the error
			return f, Editing
		case fd.Multi && k.String() == "space":
			if fd.picked == nil {
				fd.picked = map[int]bool{}
			}
			fd.picked[fd.choice] = !fd.picked[fd.choice]
			fd.err = ""
			return f, Editing
		case len(fd.Choices) > 0 && (key.Matches(k, f.Keys.Right) || k.String() == "space"):
			fd.choice = (fd.choice + 1) % len(fd.Choices)
			fd.err, fd.errCol = "", 0 // a new value: as a text field's edit, it clears the error
			return f, Editing
		case len(fd.Choices) > 0 && typedKey(k) != "":
			return f, f.choiceKey(typedKey(k))
		}
	}
	if _, pasted := msg.(tea.PasteMsg); pasted && len(fd.Choices) > 0 {
		// Not dropped silently: the field says where the text can go.
		fd.err, fd.errCol = "the paste was not used: "+fd.Label+" is picked with ←/→; tab goes to a field that takes text", 0
		return f, Editing
	}
	if p, pasted := msg.(tea.PasteMsg); pasted {
		if fd.OneLine != nil {
			msg = tea.PasteMsg{Content: fd.OneLine(p.Content)}
		} else {
			msg = tea.PasteMsg{Content: PastedLine(p.Content)}
		}
	}
	if len(fd.Choices) == 0 {
		var changed bool
		fd.input, changed = fd.input.Update(msg)
		if changed {
			switch {
			case fd.Live && fd.Deferred && !fd.input.Cut():
				// What was said of the last value stays until the new
				// one's check comes back, marked "checking…".
				fd.gen++
				fd.pending = true
			case fd.Live || fd.input.Cut(): // a cut is said when it happens, not at submit
				fd.check()
			default:
				fd.err, fd.errCol, fd.warn = "", 0, ""
			}
		}
	}
	return f, Editing
}

// CheckLive runs the checks of the Live fields now (a form opened with
// values shows their errors at once).
func (f *Form) CheckLive() {
	for i := range f.fields {
		if f.fields[i].Live {
			f.fields[i].check()
		}
	}
}

// View renders the form at most width cells wide.
func (f Form) View(th *theme.Theme, width int) string {
	lines, _, _ := f.Lines(th, width)
	return strings.Join(lines, "\n")
}

// Lines renders the form at most width cells wide, one string a line, and says
// which lines hold the focused field (its label, value and messages): a view
// taller than its room scrolls them into sight with ScrollStart.
func (f Form) Lines(th *theme.Theme, width int) (lines []string, first, last int) {
	var b strings.Builder
	b.WriteString(th.Title.Render(ansi.Truncate(Clean(f.Title), width, "…")))
	b.WriteString("\n\n")
	for i, fd := range f.fields {
		if i == f.focus {
			first = strings.Count(b.String(), "\n")
		}
		label := fd.Label
		if fd.Required {
			label += " *"
		}
		marker := "  "
		if i == f.focus && !f.blurred {
			marker = th.Filter.Render("▸ ")
		}
		b.WriteString(marker + th.Label.Render(label) + "\n")
		var val string
		switch {
		case fd.Multi:
			box := "[ ]"
			if fd.picked[fd.choice] {
				box = "[x]"
			}
			// The choice shown is one at a time, so what is picked is
			// listed under it, wrapped (not cut): who is ticked must be
			// readable before submit, at any width.
			keys := "space toggles"
			if fd.Filter {
				keys += " · / or a letter finds"
			}
			b.WriteString("  " + fd.choiceRow("◂ "+box+" ", fd.choice, " ▸", "  "+keys, max(width-2, 1)) + "\n")
			for _, l := range WrapLines(fd.pickedText(), max(width-2, 1)) {
				b.WriteString("  " + l + "\n")
			}
		case len(fd.Choices) > 0:
			val = fd.choiceRow("◂ ", fd.choice, " ▸", "", max(width-2, 1))
		case fd.Hidden:
			val = "(hidden — nothing typed yet)"
			if fd.input.Value() != "" {
				val = "(hidden — typed, not shown)"
			}
		}
		switch {
		case fd.Multi: // drawn above
		case val != "":
			b.WriteString("  " + ansi.Truncate(val, max(width-2, 1), "…") + "\n")
		default:
			b.WriteString(fd.textView(th, max(width-2, 1)))
		}
		if fd.err != "" {
			// Wrapped, not cut: the end of an error often says what to do.
			for _, l := range WrapLines(Clean(fd.err), max(width-2, 1)) {
				b.WriteString("  " + th.Bad.Render(l) + "\n")
			}
		}
		if fd.warn != "" {
			for _, l := range WrapLines(Clean(fd.warn), max(width-2, 1)) {
				b.WriteString("  " + th.Warn.Render(l) + "\n")
			}
		}
		if fd.pending {
			b.WriteString("  " + th.Muted.Render("checking…") + "\n")
		}
		if i == f.focus {
			last = strings.Count(b.String(), "\n") - 1
		}
	}
	lines = strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	last = min(last, len(lines)-1)
	first = min(first, last)
	return lines, first, last
}

// ScrollStart is the first of room lines to show out of n so that lines first
// to last are in sight, with up to two lines above them for context; when they
// do not all fit, first wins. It is 0 when everything fits.
func ScrollStart(n, room, first, last int) int {
	if room <= 0 || n <= room {
		return 0
	}
	start := max(first-2, 0)
	if last >= start+room {
		start = min(last-room+1, first)
	}
	return min(max(start, 0), n-room)
}

// textView is a text field's line, scrolled so that the end (where the cursor
// is) shows, and under it a caret at the error's column when it is in view.
func (fd Field) textView(th *theme.Theme, width int) string {
	// Only the runes in the window are copied: a field may hold tens of
	// thousands (an invitee list), redrawn on every keystroke.
	v := fd.input.runes()
	if len(v) == 0 {
		if fd.Placeholder != "" && !fd.input.Focused() {
			return "  " + th.Muted.Render(ansi.Truncate("e.g. "+Clean(fd.Placeholder), width, "…")) + "\n"
		}
		return "  " + ansi.Truncate(Clean(fd.input.View()), width, "…") + "\n"
	}
	start, prefix := 0, ""
	if room := width - 1; len(v) > room { // one cell for the cursor
		start, prefix = len(v)-room+1, "…"
	}
	shown := string(v[start:])
	styled := Clean(shown)
	if fd.Highlight != nil {
		styled = fd.Highlight(shown)
	}
	if fd.input.Focused() {
		styled += "█"
	}
	out := "  " + prefix + styled + "\n"
	if col := fd.errCol - 1 - start; fd.errCol > 0 && col >= 0 && col <= len(v)-start {
		out += "  " + strings.Repeat(" ", len([]rune(prefix))+CaretIndent(shown, col+1)) + th.ExprErrorAt.Render("^") + "\n"
	}
	return out
}

func (fd Field) choiceLabel(i int) string {
	if i < len(fd.ChoiceLabels) {
		return fd.ChoiceLabels[i]
	}
	if i < len(fd.Choices) {
		return fd.Choices[i]
	}
	return ""
}

// pickedText lists the picked choices of a Multi field: "picked (2): alice, bob".
func (fd Field) pickedText() string {
	var names []string
	for i := range fd.Choices {
		if !fd.picked[i] {
			continue
		}
		names = append(names, Clean(fd.choiceLabel(i)))
	}
	if len(names) == 0 {
		return "picked: none"
	}
	return fmt.Sprintf("picked (%d): %s", len(names), strings.Join(names, ", "))
}

// SetError shows msg under the field named key (and focuses it); it reports
// whether there is such a field.
func (f *Form) SetError(key, msg string) bool {
	for i := range f.fields {
		if f.fields[i].Key == key {
			f.fields[i].err = msg
			f.setFocus(i)
			return true
		}
	}
	return false
}

// SetRequired makes the field named key required or not: a secret the form
// can do without while the request that holds it, encrypted, can be sent
// again.
func (f *Form) SetRequired(key string, required bool) {
	if i := f.index(key); i >= 0 {
		f.fields[i].Required = required
	}
}

// Clear empties the field named key (a secret once it has been used).
func (f *Form) Clear(key string) {
	for i := range f.fields {
		if f.fields[i].Key == key {
			f.fields[i].input.Reset()
		}
	}
}
