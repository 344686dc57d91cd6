package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// One esc does not throw a draft away. esc is the most pressed key of the
// console (it closes the help, clears a filter, leaves a detail), so every form
// that has changed since it opened — the policy and MFA editors, the feature
// form, the operation forms — asks "Discard this draft?" first; No is the
// default and returns to the form as it was. An unchanged form closes at once.

// discardQuestion is the confirm before a changed form is closed; earlier,
// when set, is a submit of the form whose outcome is still unknown: said as
// a warning (styled, and counted below), as every other confirm says it.
func discardQuestion(what string, earlier *earlierSubmit) ui.Confirm {
	lines := []string{"Everything typed in " + what + " is lost."}
	warn := map[int]bool{}
	if earlier != nil {
		warn[len(lines)] = true
		lines = append(lines, "The earlier "+earlier.op+" got no clear answer: it may have been recorded. Look for it in Activities (v: all).")
	}
	c := ui.NewConfirm("Discard this draft?", "discard", lines...)
	c.Warn = warn
	return c
}

// discardFormDialog takes the place of an operation form on the stack while
// it asks: Yes closes both (clearing a secret typed), No puts the form back.
type discardFormDialog struct {
	form    *opFormDialog
	confirm ui.Confirm
	arming  armGuard
}

func newDiscardFormDialog(d *opFormDialog) *discardFormDialog {
	return &discardFormDialog{form: d, confirm: discardQuestion("the "+d.spec.paletteName()+" form", d.earlier)}
}

func (d *discardFormDialog) ID() string { return "discard:" + d.form.spec.op }

func (d *discardFormDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch d.arming.answer(&d.confirm, msg) {
	case ui.Yes:
		d.form.form.Clear(d.form.spec.secret)
		return nil, nil
	case ui.No:
		return d.form, nil
	}
	return d, nil
}

func (d *discardFormDialog) guard() *armGuard { return &d.arming }

func (d *discardFormDialog) View(th *theme.Theme, width, height int) string {
	return d.confirm.View(th, width, height)
}

func (d *discardFormDialog) Keys() ui.KeyMap { return d.confirm.Keys }
