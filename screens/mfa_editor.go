package screens

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

const mfaDialogID = "mfa.create"

type (
	// mfaConfirmedMsg is the confirm's yes: the policy it showed, from
	// editor; resend: the earlier request is sent again.
	mfaConfirmedMsg struct {
		params api.CreateMfaPolicyParams
		editor *mfaEditor
		resend bool
	}
	// mfaDraftDiscardedMsg is the yes to closing a changed editor.
	mfaDraftDiscardedMsg struct{ editor *mfaEditor }
	// mfaCreatedMsg is the answer to create_mfa_policy sent from editor.
	mfaCreatedMsg struct {
		editor   *mfaEditor
		params   api.CreateMfaPolicyParams
		resent   bool
		activity *api.Activity
		err      error
	}
)

// mfaEditor creates an MFA policy: a form for name, condition, order and notes,
// and a step editor (ctrl+t switches between them). generateAppProofs is not
// offered: SPEC.md does not list it for create_mfa_policy.
type mfaEditor struct {
	form     ui.Form
	steps    []api.AuthenticationStep
	inSteps  bool
	step     int
	method   int
	creds    []pinCandidate
	existing []api.MfaPolicy
	userID   string
	userName string
	err      string
	// earlier is a submit whose outcome is unknown, sent again while the
	// policy is unchanged.
	earlier *earlierSubmit
	// initialSteps are the steps the editor opened with, for changed.
	initialSteps string
	k            mfaEditorKeys
}

// changed reports whether closing the editor would lose something.
func (e *mfaEditor) changed() bool {
	return e.form.Changed() || formValues(e.steps) != e.initialSteps || e.earlier != nil
}

// mfaEditorKeys are the editor's fixed keys (like a form's, not rebound).
type mfaEditorKeys struct {
	Switch, Submit, Cancel, Up, Down, Left, Right, AddStep, RemoveStep, StepUp, StepDown,
	AddMethod, RemoveMethod, Type, Authenticator key.Binding
}

func newMfaEditorKeys() mfaEditorKeys {
	b := func(k, help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, help))
	}
	return mfaEditorKeys{
		Switch: b("ctrl+t", "fields/steps", "ctrl+t"), Submit: b("ctrl+s", "create", "ctrl+s"), Cancel: b("esc", "cancel", "esc"),
		Up: b("↑", "previous step", "up"), Down: b("↓", "next step", "down"),
		Left: b("←", "previous method", "left"), Right: b("→", "next method", "right"),
		AddStep: b("a", "add step", "a"), RemoveStep: b("x", "remove step", "x"),
		StepUp: b("K", "move step up", "K"), StepDown: b("J", "move step down", "J"),
		AddMethod: b("m", "add method", "m"), RemoveMethod: b("backspace", "remove method", "backspace"),
		Type: b("t", "method type", "t"), Authenticator: b("i", "pin credential", "i"),
	}
}

func (e *mfaEditor) keys() []key.Binding {
	if e.inSteps {
		return []key.Binding{e.k.Up, e.k.Down, e.k.Left, e.k.Right, e.k.AddStep, e.k.RemoveStep, e.k.StepUp, e.k.StepDown,
			e.k.AddMethod, e.k.RemoveMethod, e.k.Type, e.k.Authenticator, e.k.Switch, e.k.Submit, e.k.Cancel}
	}
	return append(e.form.Keys.ShortHelp()[:2], e.k.Switch, e.k.Submit, e.k.Cancel)
}

// openEditor starts a new policy for the picked user with one PASSKEY step.
func (m *MfaPolicies) openEditor() tea.Cmd {
	if why := m.whyNoCreate(); why != "" {
		return ui.Toast(why, true)
	}
	// The new policy is proposed last: after the user's last order, or at
	// the largest order the service takes, tying with a last one there
	// (a tie goes by creation, so it is still evaluated after it). min
	// first: a hostile order near MaxInt must not overflow to the front.
	next := 0
	for _, p := range m.items {
		next = max(next, min(p.Order, api.MaxMfaPolicyOrder-1)+1)
	}
	e := &mfaEditor{userID: m.userID, userName: m.userName(), creds: pinCandidates(m.user),
		existing: m.items, k: newMfaEditorKeys(),
		steps: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}}
	th := m.c.Theme
	e.form = ui.NewForm("New MFA policy for "+m.userText(),
		ui.Field{Key: "name", Label: "Name", Required: true, CharLimit: api.MaxNameLength, Validate: refuseSecret("mfaPolicyName")},
		ui.Field{Key: "condition", Label: "Condition", Required: true, Value: "true", CharLimit: api.MaxExpressionLength,
			Live: true, Highlight: func(s string) string { return highlightExpr(th, s) }, OneLine: policy.OneLine,
			Validate: func(s string) error { return checkExpr(policy.FieldCondition, s) }},
		ui.Field{Key: "order", Label: "Order (0 is evaluated first)", Required: true, Value: strconv.Itoa(next), Validate: checkOrder},
		ui.Field{Key: "notes", Label: "Notes", CharLimit: api.MaxNotesLength, Validate: refuseSecret("notes")},
	)
	e.form.Keys.Submit.SetEnabled(false) // ctrl+s is the editor's: it checks the steps too
	e.initialSteps = formValues(e.steps)
	m.editor = e
	return nil
}

func checkOrder(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("order must be a whole number from 0 to %d; got %q", api.MaxMfaPolicyOrder, s)
	}
	if n < 0 || n > api.MaxMfaPolicyOrder {
		return fmt.Errorf("order must be from 0 to %d; got %d", api.MaxMfaPolicyOrder, n)
	}
	return nil
}

// params builds the request from the editor, checked by api's Validate (the
// rules of SPEC.md the client enforces for every caller).
func (e *mfaEditor) params() (api.CreateMfaPolicyParams, error) {
	v := e.form.Values()
	order, err := strconv.Atoi(strings.TrimSpace(v["order"]))
	if err != nil {
		return api.CreateMfaPolicyParams{}, errors.New("order must be a whole number")
	}
	p := api.CreateMfaPolicyParams{UserID: e.userID, MfaPolicyName: v["name"], Condition: v["condition"],
		Order: order, Notes: v["notes"], RequiredAuthenticationMethods: e.steps}
	return p, p.Validate()
}

// pasteIntoForm implements formScreen: a paste goes into the focused field;
// the steps take keys only, so there the paste is refused, saying why.
func (m *MfaPolicies) pasteIntoForm(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.editor == nil:
		return nil
	case m.editor.inSteps:
		return ui.Toast("the paste was not used: the steps take no text; "+
			m.editor.k.Switch.Help().Key+" goes to the fields", true)
	}
	return m.editorUpdate(msg)
}

// editorUpdate handles a key or a paste of the open editor.
func (m *MfaPolicies) editorUpdate(msg tea.Msg) tea.Cmd {
	e := m.editor
	k, isKey := msg.(tea.KeyPressMsg)
	switch {
	case isKey && key.Matches(k, e.k.Cancel):
		if e.changed() {
			return m.askDialog(NewConfirmDialog("mfa.discard", discardQuestion("the MFA policy editor", e.earlier),
				msgCmd(mfaDraftDiscardedMsg{editor: e}), nil))
		}
		m.editor = nil
		return nil
	case isKey && key.Matches(k, e.k.Switch):
		e.setInSteps(!e.inSteps)
		return nil
	case isKey && key.Matches(k, e.k.Submit):
		return m.submitEditor()
	}
	if !e.inSteps {
		f, _ := e.form.Update(msg)
		e.form = f
		return nil
	}
	if isKey {
		e.stepKey(k)
	}
	return nil
}

// setInSteps gives the keys to the steps or to the fields; the fields show
// their focus (▸ and the cursor) only while they have the keys.
func (e *mfaEditor) setInSteps(on bool) {
	e.inSteps = on
	if on {
		e.form.Blur()
	} else {
		e.form.Focus()
	}
}

// submitEditor checks every field and step, then asks to confirm.
func (m *MfaPolicies) submitEditor() tea.Cmd {
	e := m.editor
	if m.creating != nil {
		e.err = "create_mfa_policy is being submitted; wait for its answer"
		return nil
	}
	e.err = ""
	// The form's own checks (required fields, order) first, through its submit.
	e.form.Keys.Submit.SetEnabled(true)
	f, res := e.form.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	e.form = f
	e.form.Keys.Submit.SetEnabled(false)
	if res != ui.Submitted {
		e.setInSteps(false)
		return nil
	}
	if len(e.steps) == 0 {
		// api's message shows the JSON a script would send; here a key adds one.
		e.err = "no step yet: a policy needs at least one; " + e.k.AddStep.Help().Key + " adds one (the steps are focused now)"
		e.setInSteps(true)
		return nil
	}
	p, err := e.params()
	if err != nil {
		e.err = err.Error()
		if strings.Contains(e.err, "requiredAuthenticationMethods") {
			e.setInSteps(true)
		}
		return nil
	}
	warn := map[int]bool{}
	// The condition whole, on its own line (the confirm wraps it): its end
	// may be what widens the policy.
	// The whole name (the title cuts a long one) and the user id sent.
	lines := []string{"name: " + api.Quote(p.MfaPolicyName),
		fmt.Sprintf("For %s, order %d", api.QuotedNameWithID(e.userName, p.UserID), p.Order), "condition: " + ui.Clean(p.Condition)}
	lines = exprNameLines(lines, warn, exprNames(m.c, p.Condition))
	lines = append(lines, describeSteps(p.RequiredAuthenticationMethods, credentials{names: e.authNames(), full: true})...)
	if p.Notes != "" {
		lines = append(lines, "notes: "+api.Quote(p.Notes))
	}
	title, resend := "Create MFA policy ", e.earlier.resends(formValues(p))
	switch {
	case resend:
		title = "Send again: MFA policy "
		lines = append(lines, "", "The earlier create_mfa_policy got no clear answer: "+resendNote+".")
	case e.earlier != nil:
		title = "Create a new MFA policy "
		lines = e.earlier.appendWarning(append(lines, ""), warn)
	}
	c := ui.NewConfirm(title+api.Quote(clip(p.MfaPolicyName, 30))+"?", "create", lines...)
	c.Warn = warn
	return m.askDialog(NewConfirmDialogMsg(mfaDialogID, c, mfaConfirmedMsg{params: p, editor: e, resend: resend}, nil))
}

// stepKey edits the steps.
func (e *mfaEditor) stepKey(k tea.KeyPressMsg) {
	n := len(e.steps)
	cur := func() *api.AuthenticationStep {
		if e.step < len(e.steps) {
			return &e.steps[e.step]
		}
		return nil
	}
	switch {
	case key.Matches(k, e.k.Up):
		e.step, e.method = max(e.step-1, 0), 0
	case key.Matches(k, e.k.Down):
		e.step, e.method = min(e.step+1, max(n-1, 0)), 0
	case key.Matches(k, e.k.Left):
		e.method = max(e.method-1, 0)
	case key.Matches(k, e.k.Right):
		if s := cur(); s != nil {
			e.method = min(e.method+1, max(len(s.Any)-1, 0))
		}
	case key.Matches(k, e.k.AddStep):
		at := min(e.step+1, n)
		if n == 0 {
			at = 0
		}
		step := api.AuthenticationStep{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}
		e.steps = append(e.steps[:at], append([]api.AuthenticationStep{step}, e.steps[at:]...)...)
		e.step, e.method = at, 0
	case key.Matches(k, e.k.RemoveStep):
		if n > 0 {
			e.steps = append(e.steps[:e.step], e.steps[e.step+1:]...)
			e.step, e.method = max(min(e.step, len(e.steps)-1), 0), 0
		}
	case key.Matches(k, e.k.StepUp):
		if e.step > 0 {
			e.steps[e.step-1], e.steps[e.step] = e.steps[e.step], e.steps[e.step-1]
			e.step--
		}
	case key.Matches(k, e.k.StepDown):
		if e.step+1 < n {
			e.steps[e.step+1], e.steps[e.step] = e.steps[e.step], e.steps[e.step+1]
			e.step++
		}
	case key.Matches(k, e.k.AddMethod):
		if s := cur(); s != nil {
			s.Any = append(s.Any, api.AuthenticationMethod{Type: api.AuthPasskey})
			e.method = len(s.Any) - 1
		}
	case key.Matches(k, e.k.RemoveMethod):
		if s := cur(); s != nil && e.method < len(s.Any) {
			s.Any = append(s.Any[:e.method], s.Any[e.method+1:]...)
			e.method = max(min(e.method, len(s.Any)-1), 0)
		}
	case key.Matches(k, e.k.Type):
		if s := cur(); s != nil && e.method < len(s.Any) {
			types := api.AuthenticationTypes()
			i := indexOf(types, s.Any[e.method].Type)
			// A pinned credential is of the old type: kept, it would make
			// a method no vote can satisfy.
			s.Any[e.method] = api.AuthenticationMethod{Type: types[(i+1)%len(types)]}
		}
	case key.Matches(k, e.k.Authenticator):
		if s := cur(); s != nil && e.method < len(s.Any) {
			m := &s.Any[e.method]
			ids := []string{""}
			for _, c := range e.creds {
				if c.typ == m.Type {
					ids = append(ids, c.id)
				}
			}
			if len(ids) == 1 {
				e.err = fmt.Sprintf("%s has no %s credential to pin this method to; unpinned, any %s of theirs satisfies it",
					e.userName, authType(m.Type), authType(m.Type))
				return
			}
			i := indexOf(ids, m.ID)
			m.ID = ids[(i+1)%len(ids)]
		}
	}
	e.err = ""
}

// pinCandidate is a credential of the user that a method of type typ can be
// pinned to (any[].id).
type pinCandidate struct{ typ, id, name string }

// pinCandidates lists u's credentials by the method type a vote with each
// proves, as the service counts votes: a passkey is a PASSKEY, an API key an
// API_KEY, an OAuth key an OAUTH, a session key a SESSION, an e-mail or OTP
// key an EMAIL_OTP. No credential proves SMS_OTP by id.
func pinCandidates(u *api.User) []pinCandidate {
	if u == nil {
		return nil
	}
	var out []pinCandidate
	for _, a := range u.Authenticators {
		out = append(out, pinCandidate{api.AuthPasskey, a.AuthenticatorID, a.AuthenticatorName})
	}
	for _, k := range u.APIKeys {
		out = append(out, pinCandidate{api.AuthenticationTypeOf(k.Credential.Type), k.APIKeyID, k.APIKeyName})
	}
	return out
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// authName names a credential of the user by id.
func (e *mfaEditor) authName(id string) string {
	for _, c := range e.creds {
		if c.id == id {
			return api.NameText(c.name) + " " + idTail(api.SanitizeID(id))
		}
	}
	return idTail(api.SanitizeID(id))
}

// authNames names the user's credentials by id, for the confirm.
func (e *mfaEditor) authNames() map[string]string {
	names := make(map[string]string, len(e.creds))
	for _, c := range e.creds {
		names[c.id] = c.name
	}
	return names
}

// View renders the editor: the fields, the steps with the cursor, the last
// error, and the order among the user's policies. When they do not fit in
// height, the title and the last error stay in sight and the rest scrolls to
// what has the keys (the focused field, or the step being edited), with the
// lines hidden above and below it counted.
func (e *mfaEditor) View(th *theme.Theme, width, height int) string {
	form, first, last := e.form.Lines(th, width)
	title := "Steps (ctrl+t to edit)"
	if e.inSteps {
		title = "Steps — a add · x remove · K/J move · m add method · ⌫ remove method · t type · i pin credential"
	}
	steps := []string{"", th.Section.Render(ansi.Truncate(title, width, "…"))}
	if len(e.steps) == 0 {
		steps = append(steps, "  (no steps: a adds one)")
	}
	for i, s := range e.steps {
		parts := make([]string, len(s.Any))
		for j, m := range s.Any {
			t := authType(m.Type)
			if m.ID != "" {
				t += " (" + e.authName(m.ID) + ")"
			}
			if e.inSteps && i == e.step && j == e.method {
				t = th.Filter.Render("[" + t + "]")
			}
			parts[j] = t
		}
		marker := "  "
		if e.inSteps && i == e.step {
			marker = th.Filter.Render("▸ ")
		}
		steps = append(steps, marker+fmt.Sprintf("step %d: any of ", i+1)+strings.Join(parts, ", "))
	}
	if e.inSteps {
		// The step being edited, counted from the steps' heading.
		first = len(form) + 2 + min(e.step, max(len(e.steps)-1, 0))
		last = first
	}
	notes := editorNotes(th, width, e.err, e.earlier)
	order := append([]string{"", th.Section.Render("Order among " + api.NameText(e.userName) + "'s policies")}, e.orderLines()...)
	fitWidth := func(lines []string) []string {
		for i := range lines {
			lines[i] = ansi.Truncate(lines[i], width, "…")
		}
		return lines
	}
	all := fitWidth(append(append(append(append([]string{}, form...), steps...), notes...), order...))
	if height <= 0 || len(all) <= height {
		return strings.Join(all, "\n")
	}
	// Too tall: the title on top and the error at the bottom stay; the
	// fields, steps and order scroll between them. The form's lines start
	// with the title and a blank line.
	head, fields := form[:min(1, len(form))], form[min(2, len(form)):]
	skip := len(form) - len(fields)
	body := fitWidth(append(append(append([]string{}, fields...), steps...), order...))
	return strings.Join(pinnedLines(th, fitWidth(head), body, max(first-skip, 0), max(last-skip, 0), fitWidth(notes), width, height), "\n")
}

// orderLines are the user's policies in order with the new one in its place.
func (e *mfaEditor) orderLines() []string {
	order, err := strconv.Atoi(strings.TrimSpace(e.form.Values()["order"]))
	pols := api.MfaPoliciesInOrder(e.existing)
	var out []string
	placed := err != nil
	name := e.form.Values()["name"]
	if name == "" {
		name = "(new policy)"
	}
	for _, p := range pols {
		if !placed && order < p.Order {
			out = append(out, fmt.Sprintf("  → %d %s  (new)", order, api.NameText(name)))
			placed = true
		}
		same := ""
		if err == nil && p.Order == order {
			same = "  (same order as the new one: evaluated before it)"
		}
		out = append(out, fmt.Sprintf("    %d %s%s", p.Order, api.NameText(p.MfaPolicyName), same))
	}
	if !placed {
		out = append(out, fmt.Sprintf("  → %d %s  (new)", order, api.NameText(name)))
	}
	return out
}

// create submits create_mfa_policy. The editor stays open until the answer
// says the policy was submitted: a failure leaves every field and step as
// typed, with the error under them.
func (m *MfaPolicies) create(msg mfaConfirmedMsg) tea.Cmd {
	client, err := m.c.submitter()
	if err != nil {
		return ui.Toast(errorText(err), true)
	}
	if m.creating != nil {
		return ui.Toast("create_mfa_policy is being submitted; wait for its answer", true)
	}
	c, e, p := m.c, msg.editor, msg.params
	if e != m.editor {
		return nil // the editor was closed under the confirm
	}
	if msg.resend && e.earlier.resends(formValues(p)) {
		m.creating = submissionOf("create_mfa_policy", "create_mfa_policy "+api.Quote(p.MfaPolicyName))
		cmd := e.earlier.resend(c, func(act *api.Activity, err error) tea.Msg {
			if err != nil {
				err = fmt.Errorf("create MFA policy %s: %w", api.Quote(p.MfaPolicyName), err)
			}
			return mfaCreatedMsg{editor: e, params: p, resent: true, activity: act, err: err}
		})
		return tea.Batch(ui.Toast("create_mfa_policy: "+resendNote, false), cmd)
	}
	e.earlier = nil // a new request, confirmed over the warning
	m.creating = submissionOf("create_mfa_policy", "create_mfa_policy "+api.Quote(p.MfaPolicyName))
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		act, err := activityOrError(client.CreateMfaPolicy(ctx, p))
		if err != nil {
			err = fmt.Errorf("create MFA policy %s: %w", api.Quote(p.MfaPolicyName), err)
		}
		return mfaCreatedMsg{editor: e, params: p, activity: act, err: err}
	}
}

func (m *MfaPolicies) created(msg mfaCreatedMsg) tea.Cmd {
	m.creating = nil
	open := msg.editor != nil && msg.editor == m.editor
	if msg.err != nil {
		text := answerText("create_mfa_policy", msg.resent, msg.err)
		if open {
			// Nothing typed is lost: the editor shows the error.
			e := m.editor
			e.err = text
			e.earlier = e.earlier.afterSubmit("create_mfa_policy", formValues(msg.params), msg.resent, msg.err)
		} else {
			m.err = text
		}
		return ui.Toast(text, true)
	}
	if open {
		m.editor = nil
	}
	act := *msg.activity
	cmds := []tea.Cmd{m.load(), submittedNotice("create_mfa_policy", &act, msg.resent, "")}
	if act.Status != api.StatusCompleted {
		cmds = append(cmds, msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act}))
	}
	return tea.Batch(cmds...)
}
