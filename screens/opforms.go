package screens

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// An operation form is one spec (opSpec): its fields, how the typed values
// become api parameters (validated by api, the same checks the CLI and the local
// service make), and the call. The mechanism around it is shared: the form is a
// dialog on the root's stack; a valid form is confirmed (as every submit in the
// console is: what it does, and what happens next; No is the default), then
// submitted through Common.submitter() in a command; the resulting activity
// opens in Activities, which follows it.

// submitFunc is a prepared submit: everything validated, only the call left.
// It may set note to a line for the user about what it sent (the size of a
// file against its limit).
type submitFunc func(ctx context.Context, s Submitter, note *string, opts ...api.SubmitOption) (*api.Activity, error)

// prepared is a form's submit made ready: the call, and the parameters it
// sends (the confirm reads them as the vote dialog reads an intent).
type prepared struct {
	run    submitFunc
	params any
	// load, when set, reads what the form names (a file) and returns the
	// submit made ready with it. It runs in a command before the confirm, so
	// the confirm shows what is sent and a bad file reopens the form; run
	// and params are then load's.
	load func() (prepared, error)
	// facts are lines for the confirm about what load read (its size).
	facts []string
}

// opSpec describes one operation's form.
type opSpec struct {
	op    string // the operation: "create_invitations"
	title string // the form's title
	// fields are the form's inputs; their Keys are the api field names, so a
	// validation error lands under its field.
	fields func(c *Common) []ui.Field
	// build turns the values into a prepared submit, or an error (a
	// *api.ValidationError is shown under its field).
	build func(c *Common, v map[string]string) (prepared, error)
	// fieldKey maps an api field name ("receiverUserEmail") to a form key when
	// they differ; nil = the same.
	fieldKey map[string]string
	// destructive returns the question to confirm and the lines restating what
	// is at stake; a nil func or "" asks nothing.
	destructive func(v map[string]string) (string, []string)
	// noAppProofs: the envelope has no generateAppProofs for this operation.
	noAppProofs bool
	// secret is the key of a field to clear once the form is sent.
	secret string
}

// paletteName is the palette's entry: "create invitations".
func (s opSpec) paletteName() string { return strings.ReplaceAll(s.op, "_", " ") }

const appProofsKey = "generateAppProofs"

// operationCommands are the palette's entries for every operation form; in
// read-only mode they are listed as unavailable, with why.
func operationCommands(c *Common) []Command {
	var out []Command
	for _, s := range operationSpecs() {
		cmd := Command{Name: s.paletteName(), Dialog: newOpFormDialog(c, s)}
		if c.ReadOnly() {
			cmd.Disabled, cmd.Dialog = ErrReadOnly.Error(), nil
		}
		out = append(out, cmd)
	}
	return append(out, queryCommands(c)...)
}

// opFormDialog is an operation's form on the dialog stack.
type opFormDialog struct {
	// dialogAsk: ctrl+s closes the form and asks for its confirm.
	dialogAsk
	// dialogAnswer: ctrl+s that sends the earlier request again, unasked.
	dialogAnswer
	c    *Common
	spec opSpec
	form ui.Form
	err  string // the last submit's failure, above the fields
	// earlier is a submit whose outcome is unknown, sent again while the
	// values are unchanged (and the secret, if any, left empty: the request
	// holds it encrypted).
	earlier *earlierSubmit
	// secretRequired: the secret field is required when no earlier request
	// can be sent in its place.
	secretRequired bool
	width          int
	height         int
	// pick is the filter over a field's many choices (ui.Field.Filter),
	// drawn in the form's place while open (opforms_pick.go).
	pick *pickerDialog
}

func newOpFormDialog(c *Common, s opSpec) *opFormDialog {
	fields := s.fields(c)
	if !s.noAppProofs {
		fields = append(fields, ui.Field{Key: appProofsKey, Label: "Generate app proofs", Choices: []string{"no", "yes"}})
	}
	d := &opFormDialog{c: c, spec: s, form: ui.NewForm(s.title, fields...)}
	for _, f := range fields {
		if f.Key == s.secret && s.secret != "" {
			d.secretRequired = f.Required
		}
	}
	return d
}

// values are what a request is built from: the form's values but the
// secret, which is never kept (a resend takes it from the request, encrypted).
func (d *opFormDialog) values(v map[string]string) string {
	rest := make(map[string]string, len(v))
	for k, x := range v {
		if k != d.spec.secret {
			rest[k] = x
		}
	}
	return formValues(rest)
}

// setEarlier records what the form holds after a submit's answer; the secret
// may be left empty while that request can be sent again.
func (d *opFormDialog) setEarlier(e *earlierSubmit) {
	d.earlier = e
	if d.spec.secret != "" {
		d.form.SetRequired(d.spec.secret, d.secretRequired && (e == nil || e.sent == nil))
	}
}

func (d *opFormDialog) ID() string { return "op:" + d.spec.op }

func (d *opFormDialog) SetSize(w, h int) { d.width, d.height = w, h }

func (d *opFormDialog) Keys() ui.KeyMap {
	if d.pick != nil {
		return d.pick.Keys()
	}
	return d.form.Keys
}

func (d *opFormDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if d.pick != nil {
		return d, d.updatePick(msg)
	}
	var res ui.FormResult
	d.form, res = d.form.Update(msg)
	switch res {
	case ui.Picking:
		d.openPick()
	case ui.Cancelled:
		if d.form.Changed() || d.earlier != nil {
			return newDiscardFormDialog(d), nil
		}
		d.form.Clear(d.spec.secret)
		return nil, nil
	case ui.Submitted:
		return d.submit()
	}
	return d, nil
}

// submit validates and prepares the call; it stays open on an error. After
// an unknown outcome, unchanged values send the earlier request again, and
// changed ones are confirmed as a new request.
func (d *opFormDialog) submit() (Dialog, tea.Cmd) {
	d.err = ""
	v := d.form.Values()
	vals := d.values(v)
	question, lines := d.stakes(v)
	secretTyped := d.spec.secret != "" && v[d.spec.secret] != ""
	if d.earlier.resends(vals) && !secretTyped {
		sub := d.submission()
		send := opSendMsg{sub: sub, send: tea.Batch(ui.Toast(d.spec.op+": "+resendNote, false), d.earlier.resend(d.c, func(act *api.Activity, err error) tea.Msg {
			return opSubmittedMsg{op: d.spec.op, form: d, activity: act, err: err, resent: true, values: vals, sub: sub}
		}))}
		if question != "" {
			lines = append(lines, "", "The earlier "+d.spec.op+" got no clear answer: "+resendNote+".")
			return nil, d.askDialog(NewConfirmDialogMsg("confirm:"+d.spec.op, ui.NewConfirm(question, "Delete", lines...), send, nil).reopensOnNo(d))
		}
		d.answerNow(send)
		return nil, nil
	}
	if d.spec.secret != "" && !secretTyped && d.earlier != nil {
		// Optional only while the earlier request could be sent instead.
		d.form.SetError(d.spec.secret, "type it again: the values changed, so this is a new request")
		return d, nil
	}
	prep, err := d.spec.build(d.c, v)
	if err == nil {
		err = d.checkSize(prep, v)
	}
	if err != nil {
		d.showError(err)
		return d, nil
	}
	if prep.load != nil {
		// The form closes while its file is read; the root drops keys until
		// the confirm, or the form with the file's error, comes back.
		d.asked = true
		load := prep.load
		return nil, func() tea.Msg {
			loaded, err := load()
			return opFormLoadedMsg{form: d, prep: loaded, err: err, values: v}
		}
	}
	return nil, d.askDialog(d.confirm(prep, v, question, lines))
}

// opFormLoadedMsg is what a form's load read, for its confirm.
type opFormLoadedMsg struct {
	form   *opFormDialog
	prep   prepared
	err    error
	values map[string]string
}

// loaded opens the confirm for what was read, or the form again with the
// reason it could not be. The root is still holding keys back for it (submit
// asked), so the dialog comes through OpenDialog, not askDialog.
func (d *opFormDialog) loaded(msg opFormLoadedMsg) tea.Cmd {
	if msg.err == nil {
		msg.err = d.checkSize(msg.prep, msg.values)
	}
	if msg.err != nil {
		d.showError(msg.err)
		return OpenDialog(d)
	}
	question, lines := d.stakes(msg.values)
	return OpenDialog(d.confirm(msg.prep, msg.values, question, lines))
}

// checkSize refuses, on the form, params whose request would be over the
// 1 MiB the service reads: every field may be within its limit and the
// whole still too large (100 invitees, each given all of 100 tags).
func (d *opFormDialog) checkSize(prep prepared, v map[string]string) error {
	params, ok := prep.params.(api.Params)
	if !ok && prep.params != nil { // a form keeps its params by value
		ptr := reflect.New(reflect.TypeOf(prep.params))
		ptr.Elem().Set(reflect.ValueOf(prep.params))
		params, ok = ptr.Interface().(api.Params)
	}
	op, known := api.OperationByPath(d.spec.op)
	if !ok || !known {
		return nil
	}
	err := api.CheckRequestSize(op, d.c.Org.ID, params, v[appProofsKey] == "yes" && !d.spec.noAppProofs)
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return err
	}
	return nil // anything else, the submit itself reports
}

// stakes is the question a destructive operation's confirm asks and the
// lines restating what is at stake; "" and nil for the others.
func (d *opFormDialog) stakes(v map[string]string) (string, []string) {
	if d.spec.destructive == nil {
		return "", nil
	}
	return d.spec.destructive(v)
}

// confirm is the question that sends prep: what it asks for, what happens
// next, and, after an unknown outcome, that this is a new request. No (or esc)
// reopens the form as it was: nothing typed is lost. The secret, if any, is
// cleared once sent (Activities.submitted).
func (d *opFormDialog) confirm(prep prepared, v map[string]string, question string, lines []string) *ConfirmDialog {
	vals := d.values(v)
	var opts []api.SubmitOption
	if v[appProofsKey] == "yes" {
		opts = append(opts, api.WithAppProofs())
	}
	sub := d.submission()
	send := opSendMsg{sub: sub, send: submitOperation(d.c, d, prep.run, opts, vals, sub)}
	yes := "Delete"
	if question == "" {
		question, yes = "Submit "+d.spec.op+"?", "submit"
	}
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	asked, warn := d.outcome(prep.params)
	warned := map[int]bool{}
	for i := range warn {
		warned[len(lines)+i] = true
	}
	lines = append(lines, asked...)
	if v[appProofsKey] == "yes" {
		// The envelope's flag is signed with the rest: shown like it.
		lines = append(lines, "app proofs:  generated (generateAppProofs); the activity's detail lists and verifies them")
	}
	lines = append(lines, prep.facts...)
	if d.earlier != nil {
		if yes == "submit" {
			question = "Submit a new " + d.spec.op + "?"
		}
		lines = append(lines, "")
		if d.earlier.resends(vals) { // unchanged but for the secret typed again
			lines = append(lines, "The secret was typed again: leave it empty to send the same request instead.")
		}
		lines = d.earlier.appendWarning(lines, warned)
		yes = "submit new"
	}
	ask := ui.NewConfirm(question, yes, lines...)
	ask.Warn = warned
	return NewConfirmDialogMsg("confirm:"+d.spec.op, ask, send, nil).reopensOnNo(d)
}

// outcome are the confirm's lines on what the submit asks for, in the words
// of the vote dialog the other members will read (who is invited, with which
// access and tags, which users get a tag: a summary would hide a wrong pick
// until they vote), and what happens next, by the console's reading of the
// policies. warn holds the indexes of the lines drawn as warnings.
func (d *opFormDialog) outcome(params any) (lines []string, warn map[int]bool) {
	op, ok := api.OperationByPath(d.spec.op)
	if !ok {
		return nil, nil
	}
	intent, err := api.IntentFor(op.Type, params)
	if err != nil {
		return nil, nil
	}
	lines, warn, doubt := intentLines(d.c, intent, nil) // no form submits a create_policy: no weighed line
	if doubt != "" {
		// What cannot be shown here will not be shown to the members who
		// vote on it either: said first, as their vote dialog says it.
		lines = append([]string{"WARNING: this confirm cannot show all you are about to submit (" + doubt + "), and the other members' vote dialog cannot either; they will be told to read it with 'vigil activity get --json'"}, lines...)
		shifted := map[int]bool{0: true}
		for i, w := range warn {
			shifted[i+1] = w
		}
		warn = shifted
	}
	return append(lines, submitOutcome(d.c, op.Type, intent)...), warn
}

var indexSuffix = regexp.MustCompile(`\[\d+\]$`)

// showError puts a validation error under its field (each of a joined
// error under its own), anything else on top.
func (d *opFormDialog) showError(err error) {
	if joined, ok := err.(interface{ Unwrap() []error }); ok { // every mistake at once
		for _, e := range joined.Unwrap() {
			d.showError(e)
		}
		return
	}
	var ve *api.ValidationError
	if errors.As(err, &ve) && ve.Field != "" {
		field := ve.Field
		if i := strings.LastIndex(field, "."); i >= 0 {
			field = field[i+1:]
		}
		field = indexSuffix.ReplaceAllString(field, "")
		if k, ok := d.spec.fieldKey[field]; ok {
			field = k
		}
		if d.form.SetError(field, ve.Problem) {
			return
		}
	}
	d.err = errorText(err)
}

func (d *opFormDialog) View(th *theme.Theme, width, height int) string {
	if d.pick != nil {
		return d.pick.View(th, width, height)
	}
	hint := d.earlier.hint()
	if hint != "" && d.spec.secret != "" && d.earlier.sent != nil {
		hint += " Leave the secret empty: the request holds it, encrypted."
	}
	return formBox(th, d.form, d.err, hint, "* required · ctrl+s submit · esc cancel", width, height)
}

// opSubmittedMsg is a submit's outcome; Activities shows and follows the
// activity, or reopens the form with the error.
type opSubmittedMsg struct {
	op       string
	form     *opFormDialog
	activity *api.Activity
	note     string
	err      error
	// resent: the earlier request sent again; values: what the request was
	// built from (opFormDialog.values).
	resent bool
	values string
	sub    *Submission // what the root counted in flight
}

// opSendMsg asks the root to count sub in flight and to run send, the
// submit: a form sends nothing before the root knows (q asks meanwhile). The
// form's confirm, or its ctrl+s, hands it to the root at once (dialogAnswer).
type opSendMsg struct {
	sub  *Submission
	send tea.Cmd
}

// submission is the form's submit, as q names it while it is in flight.
func (d *opFormDialog) submission() *Submission {
	return submissionOf(d.spec.op, d.spec.op+" (from its form)")
}

// submitOperation is the command that sends a prepared submit.
func submitOperation(c *Common, d *opFormDialog, run submitFunc, opts []api.SubmitOption, values string, sub *Submission) tea.Cmd {
	op := d.spec.op
	return func() tea.Msg {
		client, err := c.submitter()
		if err != nil {
			return opSubmittedMsg{op: op, form: d, err: err, values: values, sub: sub}
		}
		ctx, cancel := c.ctx()
		defer cancel()
		var note string
		act, err := run(ctx, client, &note, opts...)
		return opSubmittedMsg{op: op, form: d, activity: act, note: note, err: err, values: values, sub: sub}
	}
}

// submitted handles an operation's outcome on the Activities screen: the
// activity opens in the detail (which follows it), and the tab comes forward.
func (a *Activities) submitted(msg opSubmittedMsg) tea.Cmd {
	d := msg.form
	d.form.Clear(d.spec.secret) // sent: a confirmed form still held it
	d.setEarlier(d.earlier.afterSubmit(msg.op, msg.values, msg.resent, msg.err))
	if msg.err != nil {
		log, op, text := a.c.Log, msg.op, ui.Clean(msg.err.Error())
		answer := answerText(op, msg.resent, msg.err)
		if msg.resent && isStaleTimestamp(msg.err) {
			d.err = answer
		} else {
			d.showError(msg.err)
		}
		return tea.Batch(
			func() tea.Msg { log.Warn("submit failed", "op", op, "err", text); return nil },
			ui.Toast(op+" failed: "+answer, true),
			OpenDialog(d))
	}
	act := *msg.activity
	id := api.SanitizeID(act.ID)
	log, op, status := a.c.Log, msg.op, ui.Clean(act.Status)
	return tea.Batch(
		func() tea.Msg { log.Info("submitted", "op", op, "activity", id, "status", status); return nil },
		submittedNotice(op, &act, msg.resent, msg.note),
		// As every screen that submits: the root brings Activities forward,
		// which opens the activity (and follows it) and lists it.
		msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act}))
}
