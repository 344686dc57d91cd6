package screens

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// queryCommands are the palette's read-only views that have no screen: they
// work in read-only mode too.
func queryCommands(c *Common) []Command {
	return []Command{
		{Name: "get onramp transaction status", Dialog: newOnrampDialog(c)},
	}
}

// onrampDialog asks for a transaction id and shows its status (the answer is a
// toast, kept in full in the messages view).
type onrampDialog struct {
	c    *Common
	form ui.Form
}

func newOnrampDialog(c *Common) *onrampDialog {
	return &onrampDialog{c: c, form: ui.NewForm("On-ramp transaction status",
		// Any string the provider chose, long hex too (as the CLI sends it),
		// within the service's bound on ids.
		ui.Field{Key: "transactionId", Label: "Transaction id", Required: true, CharLimit: api.MaxIDLength},
		ui.Field{Key: "refresh", Label: "Refresh from the provider first", Choices: []string{"no", "yes"}})}
}

func (d *onrampDialog) ID() string      { return "query:onramp" }
func (d *onrampDialog) Keys() ui.KeyMap { return d.form.Keys }

func (d *onrampDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	var res ui.FormResult
	d.form, res = d.form.Update(msg)
	switch res {
	case ui.Cancelled:
		return nil, nil
	case ui.Submitted:
		v := d.form.Values()
		// Trimmed as every other id field: an id pasted with a space would
		// be "not found".
		return nil, onrampStatus(d.c, strings.TrimSpace(v["transactionId"]), v["refresh"] == "yes")
	}
	return d, nil
}

func (d *onrampDialog) View(th *theme.Theme, width, height int) string {
	return formBox(th, d.form, "", "", "* required · enter shows the status · esc cancel", width, height)
}

// onrampStatus queries the status; the toast says it or the error.
func onrampStatus(c *Common, id string, refresh bool) tea.Cmd {
	reader := c.Reader
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		status, err := reader.GetOnrampTransactionStatus(ctx, id, refresh)
		if err != nil {
			// Quoted: what was sent, stray characters included, is visible.
			return ui.ToastMsg{Text: "on-ramp transaction " + api.Quote(id) + ": " + errorText(err), Bad: true}
		}
		return ui.ToastMsg{Text: "on-ramp transaction " + api.SanitizeID(id) + ": " + ui.Clean(status)}
	}
}
