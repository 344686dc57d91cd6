package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A field of Choices moves one choice per ←/→. Among an organization's users
// that is thousands of presses, so a field with Filter hands a typed letter
// (or /) to its owner, which opens a filter over the choices and writes the
// ticks back with SetPicked. On any other field of choices a letter jumps to
// the next choice starting with it, and a key that does nothing says which
// keys the field takes, as a paste does, instead of being dropped unseen.

// typedKey is the text a key press types, "" for a key that types none
// (ctrl or alt held, an arrow, enter).
func typedKey(k tea.KeyPressMsg) string {
	if k.Mod&^tea.ModShift != 0 {
		return ""
	}
	return k.Text
}

// choiceKey handles a typed key on a field of choices: Picking on a Filter
// field, else a jump to the next choice starting with it, or an error saying
// which keys the field takes.
func (f *Form) choiceKey(text string) FormResult {
	fd := &f.fields[f.focus]
	if fd.Filter {
		f.pickQuery = strings.TrimPrefix(text, "/")
		return Picking
	}
	n := len(fd.Choices)
	labels := make([]string, n)
	for i := range n {
		labels[i] = strings.ToLower(fd.choiceLabel(i))
	}
	// Named values share a prefix (ACCESS_TYPE_WEB, ACCESS_TYPE_API): a
	// letter names what follows it.
	shared := len(sharedWordPrefix(labels))
	// By what follows the prefix first, then by the whole label (e on
	// EFFECT_ALLOW steps through them as shown).
	for _, from := range []int{shared, 0} {
		for step := 1; step <= n; step++ {
			i := (fd.choice + step) % n
			if strings.HasPrefix(labels[i][from:], strings.ToLower(text)) {
				fd.choice = i
				fd.err, fd.errCol = "", 0
				return Editing
			}
		}
	}
	keys := "←/→ choose"
	if fd.Multi {
		keys += ", space ticks"
	}
	fd.err, fd.errCol = fmt.Sprintf("%q was not used: no choice of %s starts with it (%s; tab goes to the next field)", text, fd.Label, keys), 0
	return Editing
}

// sharedWordPrefix is the longest prefix every label has that ends in "_"
// (or ""), when there are at least two labels.
func sharedWordPrefix(labels []string) string {
	if len(labels) < 2 {
		return ""
	}
	prefix := labels[0]
	for _, l := range labels[1:] {
		for !strings.HasPrefix(l, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return prefix[:strings.LastIndex(prefix, "_")+1]
}

// PickRequest is what the form asked for when it returned Picking: the
// focused field's key, and the text typed that asked (the filter's start;
// "" for /).
func (f Form) PickRequest() (key, query string) {
	if len(f.fields) == 0 {
		return "", ""
	}
	return f.fields[f.focus].Key, f.pickQuery
}

// choiceRow is choice i's label between open and shut, then after (its
// keys), cut to width cells: after goes first, then the label, which keeps
// its ChoiceTails end (a user's id) whole.
func (fd Field) choiceRow(open string, i int, shut, after string, width int) string {
	label := Clean(fd.choiceLabel(i))
	if i >= len(fd.ChoiceTails) || ansi.StringWidth(open+label+shut) <= width {
		return ansi.Truncate(open+label+shut+after, width, "…")
	}
	room := max(width-ansi.StringWidth(open+shut), 1)
	return ansi.Truncate(open+TruncateKeepTail(label, Clean(fd.ChoiceTails[i]), room)+shut, width, "…")
}

// PickChoices are the choices of the field key, their labels (ChoiceLabels,
// or the choices), the ends of the labels kept whole when one is cut
// (ChoiceTails) and those ticked, for a filter over them.
func (f Form) PickChoices(key string) (values, labels, tails, ticked []string) {
	i := f.index(key)
	if i < 0 {
		return nil, nil, nil, nil
	}
	fd := f.fields[i]
	labels = make([]string, len(fd.Choices))
	for j, c := range fd.Choices {
		labels[j] = fd.choiceLabel(j)
		if fd.picked[j] || !fd.Multi && j == fd.choice {
			ticked = append(ticked, c)
		}
	}
	return fd.Choices, labels, fd.ChoiceTails, ticked
}

// SetPicked makes values the choice of the field key: on a Multi field the
// ticked choices (every other one unticked), the first of them shown; on
// another, the first of values. Values that are not choices are ignored.
func (f *Form) SetPicked(key string, values []string) {
	i := f.index(key)
	if i < 0 {
		return
	}
	fd := &f.fields[i]
	want := make(map[string]bool, len(values))
	for _, v := range values {
		want[v] = true
	}
	if fd.Multi {
		fd.picked = map[int]bool{}
	}
	first := true
	for j, c := range fd.Choices {
		if !want[c] {
			continue
		}
		if first {
			fd.choice, first = j, false
		}
		if !fd.Multi {
			break
		}
		fd.picked[j] = true
	}
	fd.err, fd.errCol = "", 0
}

// FieldLabel is the label of the field key ("" when there is none).
func (f Form) FieldLabel(key string) string {
	if i := f.index(key); i >= 0 {
		return f.fields[i].Label
	}
	return ""
}
