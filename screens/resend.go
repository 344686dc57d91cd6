package screens

import (
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// earlierSubmit is a form's submit whose outcome is unknown: it was sent, and
// then the connection failed, the time ran out or a 5xx came back, so the
// service may have recorded it. A new request built from the form would carry
// a new timestampMs, which the service takes for a second activity (two
// identical policies, once both are approved). So the form keeps the request
// as it was sent, and while its values are unchanged the next submit sends
// that again (Submitter.Resubmit), which the service answers with the same
// activity. Changed values are a new request, confirmed first (No is the
// default). The kept request is the body that was sent: a secret in it is
// already encrypted, and the form clears its plaintext as before.
type earlierSubmit struct {
	op string // "create_policy"
	// sent is the request to send again; nil once the service refused it as
	// too old (STALE_TIMESTAMP: more than five minutes after it was made),
	// when only the activity list can tell whether it was recorded.
	sent *api.OutcomeUnknownError
	// values is what the request was built from (formValues).
	values string
}

// resendNote is what a form says when it sends the same request again.
const resendNote = "sending the same request again: the service will not create it twice"

// formValues is what a request is built from, in a form that compares:
// the parameters, or the form's values.
func formValues(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// resends reports whether a submit of these values sends the earlier
// request again.
func (e *earlierSubmit) resends(values string) bool {
	return e != nil && e.sent != nil && e.values == values
}

// hint is the line a form shows while it holds an unsettled request.
func (e *earlierSubmit) hint() string {
	if e == nil {
		return ""
	}
	if e.sent == nil {
		return "The earlier " + e.op + " got no clear answer and is too old to send again: look for it in Activities (v: all) before submitting a new one."
	}
	return "The earlier " + e.op + " got no clear answer: it may have been recorded. Submitting the form unchanged sends the same request again (the service will not create it twice)."
}

// appendWarning appends to a confirm's lines, marked in warn as its
// warnings (drawn so and counted among those below), that the earlier
// request may have been recorded: a second one may take effect as well.
func (e *earlierSubmit) appendWarning(lines []string, warn map[int]bool) []string {
	why := "You changed the form, so this is a new request"
	if e.sent == nil {
		why = "The earlier request is too old to send again (over 5 minutes), so this is a new request"
	}
	for _, l := range []string{
		"The earlier " + e.op + " got no clear answer: it may have been recorded and be waiting for votes. Look in Activities (v: all) first.",
		why + ": if both are approved, both take effect.",
	} {
		warn[len(lines)] = true
		lines = append(lines, l)
	}
	return lines
}

// afterSubmit is what a form holds after the answer to a submit: resent
// says whether it sent e's request again, values what a new one was built
// from.
func (e *earlierSubmit) afterSubmit(op, values string, resent bool, err error) *earlierSubmit {
	var unknown *api.OutcomeUnknownError
	switch {
	case err == nil:
		return nil // settled: the service answered with the activity
	case errors.As(err, &unknown):
		if resent && e != nil {
			values = e.values
		}
		return &earlierSubmit{op: op, sent: unknown, values: values}
	case !resent:
		return nil // answered: this request was refused, or never sent
	case isStaleTimestamp(err):
		return &earlierSubmit{op: op, values: e.values}
	}
	// The same request refused for now (not sent, rate limited…): sending
	// it again stays safe.
	return e
}

// answerText is what to say about a failed submit: a resend that came too
// late says where to look, rather than the clock advice a stale request
// otherwise gets.
func answerText(op string, resent bool, err error) string {
	if resent && isStaleTimestamp(err) {
		return op + ": the earlier request is over 5 minutes old, and the service no longer takes it again (STALE_TIMESTAMP): " +
			"look for it in Activities (v: all) before submitting a new one"
	}
	return errorText(err)
}

// isStaleTimestamp reports a refusal of a request made too long ago.
func isStaleTimestamp(err error) bool {
	var apiErr *api.Error
	if !errors.As(err, &apiErr) {
		return false
	}
	for _, d := range apiErr.Details {
		if d.ErrorCode == "STALE_TIMESTAMP" {
			return true
		}
	}
	return false
}

// resend is the command that sends e's request again; answer turns the
// service's answer into the form's own message.
func (e *earlierSubmit) resend(c *Common, answer func(*api.Activity, error) tea.Msg) tea.Cmd {
	client, err := c.submitter()
	if err != nil {
		return ui.Toast(err.Error(), true)
	}
	sent := e.sent
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		return answer(activityOrError(client.Resubmit(ctx, sent)))
	}
}

// editorNotes are an editor's error and the note on an earlier submit with no
// clear answer, each after a blank line, word-wrapped to width.
func editorNotes(th *theme.Theme, width int, err string, earlier *earlierSubmit) []string {
	var lines []string
	for _, msg := range []struct {
		text  string
		style lipgloss.Style
	}{{err, th.Bad}, {earlier.hint(), th.Warn}} {
		if msg.text == "" {
			continue
		}
		lines = append(lines, "")
		for _, l := range ui.WrapLines(ui.Clean(msg.text), max(width-2, 1)) {
			lines = append(lines, msg.style.Render(l))
		}
	}
	return lines
}
