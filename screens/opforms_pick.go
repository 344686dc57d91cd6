package screens

import (
	tea "charm.land/bubbletea/v2"
)

// A form field of an organization's users (ui.Field.Filter) is reached by
// name, not by thousands of presses of →: / or a typed letter on it opens
// the fuzzy picker the filters use, in the form's place, its filter started
// with that letter; enter writes the ticked choices back into the field, esc
// leaves the field as it was. Inside the form dialog rather than above it on
// the root's stack, the letters typed after the first one reach the filter,
// not the root's wait for a dialog to arrive.

// openPick opens the picker the focused field asked for (ui.Picking).
func (d *opFormDialog) openPick() {
	field, query := d.form.PickRequest()
	values, labels, tails, ticked := d.form.PickChoices(field)
	p := newPickerDialog("pick:"+field, d.form.FieldLabel(field), values, labels, ticked, func(v []string) tea.Msg {
		d.form.SetPicked(field, v)
		return nil
	})
	p.keepTails(tails)
	p.noneLabel("none")
	p.startFilter(query)
	d.pick = p
}

// updatePick gives msg to the open picker; it closes on enter (applied) or esc.
func (d *opFormDialog) updatePick(msg tea.Msg) tea.Cmd {
	next, _ := d.pick.Update(msg) // apply wrote the choice back already: its message is nil
	if next == nil {
		d.pick = nil
	}
	return nil
}
