package screens

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// simulateLast is the choice of the editor's "simulate over" field that runs
// the draft over every recent activity.
const simulateLast = "the last activities loaded"

// policyEditor is the create-policy form, checked on every keystroke, and
// the draft's simulation.
type policyEditor struct {
	form ui.Form
	sim  []simRow
	// simDraft is the draft sim ran on (simulatedDraft): the draft may
	// change after ctrl+r, and its results are then no longer this draft's.
	simDraft string
	// simUnreadable says which stored policies the simulation left out
	// (this console cannot read them): what they allowed it cannot see.
	simUnreadable string
	simErr        string
	simGen        int
	busy          string
	// sending says what create_policy of this editor is in flight ("" none);
	// sendingSub numbers it among Policies.sending.
	sending    string
	sendingSub int
	// err is the last submit's failure, shown under the fields.
	err string
	// earlier is a submit whose outcome is unknown, sent again while the
	// draft is unchanged.
	earlier *earlierSubmit
	// recent are the activities "simulate over" offers, in its order after
	// simulateLast.
	recent []recentActivity
	// held is the activity chosen to simulate over once it is no longer
	// among recent (setRecent); heldStale: not read again since.
	held      *recentActivity
	heldStale bool
	// threshold is the root quorum's, as loaded: whether a deny on
	// create_policy cannot be undone (policy.IrreversibleDeny); 0 unknown.
	threshold int
	view      string
	width     int
	height    int
}

// simRow is one activity decided today and with the draft.
type simRow struct {
	id, what         string
	today, withDraft string // outcomes
	decider, why     string // who decides with the draft, and why
	locksOut         bool
	// doubt says why the service may decide otherwise (credentialDoubtOf):
	// an approval's key was deleted since and a policy, the draft's too,
	// reads which credential approved.
	doubt string
	// unread says the console cannot read the activity's params, which a
	// condition may look at: it tells no outcome.
	unread bool
}

type (
	policySimulatedMsg struct {
		gen   int
		draft string // what was simulated (simulatedDraft)
		rows  []simRow
		err   error
		// unreadable says which stored policies the simulation left out
		// because this console cannot read them ("" when none).
		unreadable string
	}
	// policyCreatedMsg is the answer to create_policy sent from editor;
	// resent: the earlier request sent again.
	policyCreatedMsg struct {
		editor *policyEditor
		sub    int // the submit's number in Policies.sending
		params api.CreatePolicyParams
		resent bool
		act    *api.Activity
		err    error
	}
	// policyNewConfirmedMsg is the yes to a create_policy: a new one (an
	// earlier one's outcome may be unknown), or, resend, the earlier
	// request sent again.
	policyNewConfirmedMsg struct {
		editor *policyEditor
		params api.CreatePolicyParams
		resend bool
	}
	// policyCheckedMsg is a deferred check of one of editor's expression
	// fields (compile and warnings), run off the event loop.
	policyCheckedMsg struct {
		editor *policyEditor
		res    ui.CheckResult
	}
	// policyDraftDiscardedMsg is the yes to closing a changed editor.
	policyDraftDiscardedMsg struct{ editor *policyEditor }
)

// exprError is a compile error with the column the form marks.
type exprError struct {
	msg string
	col int
}

func (e exprError) Error() string { return e.msg }
func (e exprError) Column() int   { return e.col }

// checkExpr compiles one expression of a policy as the service would, and
// returns its first problem with its position.
func checkExpr(field, src string) error {
	// The field is one line: a comment there hides everything after it, so
	// text that reads as code would silently not count.
	if col := policy.CommentColumn(src); col > 0 {
		return exprError{msg: fmt.Sprintf("column %d: everything after // is a comment and does not count (the field is one line); remove the comment, or write what follows it before it", col), col: col}
	}
	var only policy.Source
	switch field {
	case policy.FieldCondition:
		only.Condition = src
	case policy.FieldConsensus:
		only.Consensus = src
	case policy.FieldTime:
		only.Time = src
	}
	for _, d := range policy.CheckSource(only) {
		if d.Field != field {
			continue
		}
		col := d.Column
		if d.Line > 1 { // the field is one line; a later line cannot be marked
			col = 0
		}
		return exprError{msg: fmt.Sprintf("column %d: %s", d.Column, d.Message), col: col}
	}
	return nil
}

// exprWarnings are what in a policy's condition or consensus (field, src)
// compiles and runs here but behaves differently on the real service
// (policy.PolicyWarningTexts), each with its column: a deny on a parameter
// the real service does not expose, or on an approver's field its User does
// not have, never denies there. They are said, never refused.
func exprWarnings(field, src string) []string {
	var condition, consensus string
	switch field {
	case policy.FieldCondition:
		condition = src
	case policy.FieldConsensus:
		consensus = src
	default:
		return nil
	}
	var out []string
	for _, w := range policy.PolicyWarningTexts(condition, consensus, ui.Clean) {
		if w.Field == field {
			out = append(out, w.Text)
		}
	}
	return out
}

// exprWarningLines appends the warnings of a condition or consensus
// (exprWarnings), at most maxConfirmWarnings and how many more, indented
// under it and marked in warn (the dialogs' warning lines, read before y
// counts). The line of how many more is weighed in weight
// (ui.Confirm.WarnWeight) when weight is not nil: a dialog that counts the
// warnings below counts those it stands for. The author's confirm, the
// approver's vote dialog and the activity's detail say the same.
func exprWarningLines(lines []string, warn map[int]bool, weight map[int]int, field, src string) []string {
	ws := exprWarnings(field, src)
	for i, w := range ws {
		warn[len(lines)] = true
		if i == maxConfirmWarnings {
			if weight != nil {
				weight[len(lines)] = len(ws) - i
			}
			lines = append(lines, fmt.Sprintf("  ⚠ … and %d more warnings", len(ws)-i))
			break
		}
		lines = append(lines, ui.Clean("  ⚠ warning: "+w))
	}
	return lines
}

// exprWarning is the warning shown under the condition or consensus field:
// the first, and how many more the confirm lists.
func exprWarning(field string) func(string) string {
	return func(src string) string {
		ws := exprWarnings(field, src)
		if len(ws) == 0 {
			return ""
		}
		text := "warning: " + ws[0]
		if len(ws) > 1 {
			text += fmt.Sprintf(" (and %d more; the confirm before submitting lists them)", len(ws)-1)
		}
		return text
	}
}

// sourceOf is a draft's three expressions.
func sourceOf(params api.CreatePolicyParams) policy.Source {
	return policy.Source{Condition: params.Condition, Consensus: params.Consensus, Time: params.Time}
}

// maxConfirmWarnings is how many warnings of a condition or consensus the
// confirm lists; a condition can read any number of parameters.
const maxConfirmWarnings = 5

// openEditor opens an empty create form.
func (p *Policies) openEditor() {
	th := p.c.Theme
	e := &policyEditor{threshold: p.data.quorum.Threshold}
	highlight := func(s string) string { return highlightExpr(th, s) }
	// The draft's expressions as its name and notes are checked: e.form is
	// the form of the key being handled, whose expressions that key left
	// as they were (a key edits one field).
	expressions := func() []string {
		v := e.form.Values()
		return []string{v["condition"], v["consensus"], v["time"]}
	}
	e.form = ui.NewForm("New policy (create_policy: the root quorum usually has to approve it)",
		ui.Field{Key: "name", Label: "Name", Required: true, CharLimit: api.MaxNameLength, Validate: refuseSecretBeside("policyName", expressions)},
		ui.Field{Key: "effect", Label: "Effect", Choices: []string{api.EffectAllow, api.EffectDeny}},
		ui.Field{Key: "condition", Label: "Condition (empty: always applies)", CharLimit: api.MaxExpressionLength, Live: true, Deferred: true, Highlight: highlight, OneLine: policy.OneLine,
			Placeholder: "activity.resource == 'POLICY'",
			Validate:    func(s string) error { return checkExpr(policy.FieldCondition, s) },
			Warn:        exprWarning(policy.FieldCondition)},
		ui.Field{Key: "consensus", Label: "Consensus (empty: the requester alone)", CharLimit: api.MaxExpressionLength, Live: true, Deferred: true, Highlight: highlight, OneLine: policy.OneLine,
			Placeholder: "approvers.count() >= 2",
			Validate:    func(s string) error { return checkExpr(policy.FieldConsensus, s) },
			Warn:        exprWarning(policy.FieldConsensus)},
		ui.Field{Key: "time", Label: "Time (empty: always active)", CharLimit: api.MaxExpressionLength, Live: true, Deferred: true, Highlight: highlight, OneLine: policy.OneLine,
			Placeholder: "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')",
			Validate:    func(s string) error { return checkExpr(policy.FieldTime, s) }},
		ui.Field{Key: "notes", Label: "Notes", CharLimit: api.MaxNotesLength, Validate: refuseSecretBeside("notes", expressions)},
		ui.Field{Key: "over", Label: "Simulate over (ctrl+r)", Choices: []string{simulateLast}},
	)
	p.editor = e
	e.width, e.height = p.width, p.height
	e.setRecent(p.c, p.data.recent, nil)
	e.render(p.c, p.width)
}

func (p *Policies) editorKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, p.keys.Simulate) {
		defer p.editor.render(p.c, p.width)
		return p.simulate()
	}
	return p.editorUpdate(k)
}

// pasteIntoForm implements formScreen: a paste edits the draft as typing
// does, checked again as it changes.
func (p *Policies) pasteIntoForm(msg tea.PasteMsg) tea.Cmd {
	if p.editor == nil {
		return nil
	}
	return p.editorUpdate(msg)
}

// editorUpdate gives a key or a paste to the editor's form.
func (p *Policies) editorUpdate(msg tea.Msg) tea.Cmd {
	e := p.editor
	defer func() {
		if p.editor != nil {
			p.editor.render(p.c, p.width)
		}
	}()
	var res ui.FormResult
	e.form, res = e.form.Update(msg)
	if res == ui.Editing {
		// Compiling a long condition, and its warnings, take longer than a
		// frame: they run in a command, and only the newest value's counts.
		return e.checks()
	}
	switch res {
	case ui.Cancelled:
		// What to simulate over is no part of the draft.
		if e.form.Changed("over") || e.earlier != nil || e.sending != "" {
			q := discardQuestion("the policy editor", e.earlier)
			if s, ok := p.submitOf(e.sendingSub); ok && e.sending != "" {
				// Said, or the author may take the draft for never sent.
				q.Lines = append(q.Lines, s.What+" from this draft is still in flight: its answer will still be shown, but the draft will not come back if it fails.")
			}
			return p.askDialog(NewConfirmDialog("policies.discard", q,
				msgCmd(policyDraftDiscardedMsg{editor: e}), nil))
		}
		p.editor = nil
	case ui.Submitted:
		return p.submitDraft()
	}
	return nil
}

// checks runs the expression fields' pending checks in commands; each
// answers with a policyCheckedMsg.
func (e *policyEditor) checks() tea.Cmd {
	var cmds []tea.Cmd
	for _, c := range e.form.Pending() {
		cmds = append(cmds, func() tea.Msg { return policyCheckedMsg{editor: e, res: c.Run()} })
	}
	return tea.Batch(cmds...)
}

// checked applies a deferred check's result (dropped when the field changed
// since) and starts the check of the field's newest value, if any.
func (p *Policies) checked(msg policyCheckedMsg) tea.Cmd {
	e := p.editor
	if e == nil || msg.editor != e {
		return nil
	}
	e.form.Apply(msg.res)
	e.render(p.c, p.width)
	return e.checks()
}

// simulate runs the draft over the chosen activity, or every recent one, in a
// command (compiling and deciding is CPU work).
func (p *Policies) simulate() tea.Cmd {
	e := p.editor
	v := e.form.Values()
	if e.form.Checking() {
		// Its errors must be of the draft as it is now.
		e.form.CheckLive()
	}
	if errs := e.form.Errors(); errs["condition"] != "" || errs["consensus"] != "" || errs["time"] != "" {
		e.simErr = "fix the expressions first: the draft does not compile"
		return nil
	}
	if p.data.usersErr != "" {
		// Without the members' tags a simulation would be a guess.
		e.simErr = "cannot simulate without the users: " + p.data.usersErr
		return nil
	}
	acts := e.recent
	if ch := e.chosen(); ch != nil {
		acts = []recentActivity{*ch}
	}
	e.simGen++
	e.busy = "simulating…"
	gen, data, c := e.simGen, p.data, p.c
	simulated := simulatedDraft(v["effect"], v["condition"], v["consensus"], v["time"])
	return func() tea.Msg {
		draft, err := policy.CompileSource(policy.Source{Condition: v["condition"], Consensus: v["consensus"], Time: v["time"]})
		if err != nil {
			return policySimulatedMsg{gen: gen, draft: simulated, err: fmt.Errorf("the draft does not compile: %w", err)}
		}
		// The policies as the load compiled them (without those that do not
		// compile, as the service skips them): compiling them again for each
		// simulation would cost as much as a load.
		current := data.ctx.ordered
		draftP := policy.Policy{ID: "draft", Name: "draft: " + v["name"], Effect: v["effect"], Compiled: draft}
		members, quorum := data.ctx.members, policy.QuorumOf(data.quorum)
		// A waiting activity is decided as at its next approval: now.
		now := c.Now()
		rows := make([]simRow, 0, len(acts))
		for _, ra := range acts {
			if ra.act.IntentUnread() {
				rows = append(rows, simRow{id: ra.act.ID, what: intentWhat(c, &ra.act), unread: true, why: api.CannotTellParams})
				continue
			}
			s := policy.SimulateActivity(current, draftP, ra.act, members, quorum, now)
			row := simRow{id: ra.act.ID, what: intentWhat(c, &ra.act), today: s.Today.Outcome,
				withDraft: s.WithDraft.Outcome, decider: policy.Decider(s.WithDraft),
				why:      policy.FailsAt(s.WithDraft, s.WithDraftAt, policy.Explain(s.WithDraft).Why),
				locksOut: s.LocksOut, doubt: credentialDoubtOf(c, &ra.act, append(slices.Clip(current), draftP), members)}
			if s.Waiting != "" && s.WithDraft.Reason == s.Waiting { // waiting at the service, the draft changes nothing
				row.decider, row.why = "no decision yet", s.Waiting
			}
			if s.Rejected { // settled by a rejection: no draft changes it
				row.today, row.withDraft = "REJECTED", "REJECTED"
				row.why = "rejected by a vote; the draft's policies would say " + shortOutcome(s.WithDraft.Outcome)
			}
			if !s.Rejected && draftSkipped(s.WithDraft, draftP.ID) {
				// Said first (the line is cut at the width), or a draft whose
				// time is false would read as one that changes nothing.
				row.why = "the draft is skipped (" + api.OutcomeTimeInactive + ": its time was false when the service decided this); " + row.why
			}
			rows = append(rows, row)
		}
		return policySimulatedMsg{gen: gen, draft: simulated, rows: rows, unreadable: data.ctx.unreadableSummary()}
	}
}

// draftSkipped reports that the policy id was skipped in d for its time
// expression (OUTCOME_TIME_INACTIVE).
func draftSkipped(d policy.Decision, id string) bool {
	return slices.ContainsFunc(d.Details, func(pd policy.PolicyDetail) bool {
		return pd.Policy.ID == id && pd.Outcome == api.OutcomeTimeInactive
	})
}

// simulatedDraft is what a simulation's outcome depends on in a draft (not
// its name or notes), in a form that compares.
func simulatedDraft(effect, condition, consensus, timeExpr string) string {
	return formValues([]string{effect, condition, consensus, timeExpr})
}

// simStale reports that the draft changed since the simulation shown ran.
func (e *policyEditor) simStale() bool {
	v := e.form.Values()
	return e.sim != nil && e.simDraft != simulatedDraft(v["effect"], v["condition"], v["consensus"], v["time"])
}

// submitDraft submits the draft, confirmed first: the earlier request again
// when its outcome is unknown and the draft is unchanged (asked as the MFA
// editor and the forms ask, the draft's warnings worked out against the
// organization as now loaded: a quorum or policies changed since may make
// the same draft lock it out); a new one when the draft changed since.
func (p *Policies) submitDraft() tea.Cmd {
	e := p.editor
	if e.sending != "" {
		return ui.Toast("create_policy is being submitted; wait for its answer", true)
	}
	v := e.form.Values()
	params := api.CreatePolicyParams{PolicyName: v["name"], Effect: v["effect"], Condition: v["condition"],
		Consensus: v["consensus"], Notes: v["notes"], Time: v["time"]}
	c, id := p.createQuestion(params), "policies.create"
	if e.earlier.resends(formValues(params)) {
		c.Title, c.YesLabel, id = "Send again: policy "+api.Quote(clip(params.PolicyName, 40))+"?", "send again", "policies.resend"
		c.Lines = append(c.Lines, "", "The earlier create_policy got no clear answer: "+resendNote+".")
		return p.askDialog(NewConfirmDialogMsg(id, c, policyNewConfirmedMsg{editor: e, params: params, resend: true}, nil))
	}
	if e.earlier != nil {
		// The whole draft and its warnings still, and then that the earlier
		// request may take effect as well.
		c.Title, c.YesLabel, id = "Create a new policy "+api.Quote(clip(params.PolicyName, 40))+"?", "submit new", "policies.create_new"
		c.Lines = e.earlier.appendWarning(append(c.Lines, ""), c.Warn)
	}
	return p.askDialog(NewConfirmDialogMsg(id, c, policyNewConfirmedMsg{editor: e, params: params}, nil))
}

// createQuestion is the confirm before create_policy: the policy as it will
// be sent, what the simulation found (a draft that locks the organization out
// of what it can do today is the costliest mistake here), and what happens
// next.
func (p *Policies) createQuestion(params api.CreatePolicyParams) ui.Confirm {
	e := p.editor
	warn, weight := map[int]bool{}, map[int]int{}
	// The whole name here: the title cuts a long one.
	lines := []string{"name:      " + api.Quote(params.PolicyName), "effect:    " + params.Effect,
		"condition: " + orElse(ui.Clean(params.Condition), "(empty: always applies)")}
	lines = exprNameLines(lines, warn, exprNames(p.c, params.Condition))
	// Before the vote, not after: the author may mean a deny the real
	// service never applies.
	if w, ok := policy.IrreversibleDeny(params.Effect, sourceOf(params), p.data.quorum.Threshold); ok {
		// First: the one mistake here that cannot be undone.
		warn[len(lines)] = true
		lines = append(lines, "  ⚠ CANNOT BE UNDONE: "+w.Message)
	}
	lines = exprWarningLines(lines, warn, weight, policy.FieldCondition, params.Condition)
	lines = append(lines, "consensus: "+orElse(ui.Clean(params.Consensus), "(empty: the requester alone)"))
	lines = exprNameLines(lines, warn, exprNames(p.c, params.Consensus))
	lines = exprWarningLines(lines, warn, weight, policy.FieldConsensus, params.Consensus)
	if params.Time != "" {
		lines = append(lines, "time:      "+ui.Clean(params.Time))
	}
	if params.Notes != "" {
		lines = append(lines, "notes:     "+api.Quote(params.Notes))
	}
	// Only a simulation of this very draft speaks for it: an allow simulated
	// and then turned into a deny locks out what the simulation said it kept.
	simulated := e.sim != nil && e.simDraft == simulatedDraft(params.Effect, params.Condition, params.Consensus, params.Time)
	locks := 0
	if simulated {
		locks = lockOuts(e.sim)
	}
	switch {
	case locks > 0:
		what := "activities"
		if locks == 1 {
			what = "activity"
		}
		lines = append(lines, "")
		warn[len(lines)] = true
		lines = append(lines, fmt.Sprintf("⚠ The simulation says it locks the organization out of %d recent %s it can do today.", locks, what))
	case e.sim == nil:
		lines = append(lines, "", "Not simulated: answer No, then ctrl+r runs it over recent activities.")
	case !simulated:
		lines = append(lines, "", "Not simulated since the draft changed (effect, condition, consensus or time): answer No, then ctrl+r runs it again.")
	}
	if doubt, n := doubts(e.sim); simulated && n > 0 {
		lines = append(lines, "")
		warn[len(lines)] = true
		lines = append(lines, fmt.Sprintf("? %d of the simulation's predictions may be wrong; the first: %s", n, doubt))
	}
	if u := p.data.ctx.unreadableSummary(); u != "" {
		// What such a policy allowed, the simulation cannot see: a lock-out
		// of it may be missed.
		lines = append(lines, "")
		warn[len(lines)] = true
		lines = append(lines, "⚠ left out of the simulation: "+ui.Clean(u))
	}
	if op, ok := api.OperationByPath("create_policy"); ok {
		if intent, err := api.IntentFor(op.Type, params); err == nil {
			lines = append(append(lines, ""), submitOutcome(p.c, op.Type, intent)...)
		}
	}
	d := ui.NewConfirm("Create policy "+api.Quote(clip(params.PolicyName, 40))+"?", "create", lines...)
	d.Warn, d.WarnWeight = warn, weight
	return d
}

// create submits create_policy with the draft's values.
func (p *Policies) create(params api.CreatePolicyParams) tea.Cmd {
	client, err := p.c.submitter()
	if err != nil {
		return ui.Toast(err.Error(), true)
	}
	e := p.editor
	sub := p.startSubmit(params)
	e.sending, e.sendingSub, e.err, e.earlier = "creating policy…", sub, "", nil
	e.busy = e.sending
	c := p.c
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		a, err := activityOrError(client.CreatePolicy(ctx, params))
		return policyCreatedMsg{editor: e, sub: sub, params: params, act: a, err: err}
	}
}

// resendDraft sends the earlier create_policy again, as confirmed. Should
// the earlier request no longer be one to send again, nothing is sent: the
// confirm asked to send it again, not to make a new one.
func (p *Policies) resendDraft(params api.CreatePolicyParams) tea.Cmd {
	e := p.editor
	if !e.earlier.resends(formValues(params)) {
		return ui.Toast("create_policy: nothing sent: the earlier request is no longer one to send again; "+e.form.Keys.Submit.Help().Key+" asks again", true)
	}
	sub := p.startSubmit(params)
	cmd := e.earlier.resend(p.c, func(a *api.Activity, err error) tea.Msg {
		return policyCreatedMsg{editor: e, sub: sub, params: params, resent: true, act: a, err: err}
	})
	e.sending, e.sendingSub, e.err = "sending create_policy again…", sub, ""
	e.busy = e.sending
	return tea.Batch(ui.Toast("create_policy: "+resendNote, false), cmd)
}

// editorResult applies a simulation or the reply to create_policy.
func (p *Policies) editorResult(msg tea.Msg) tea.Cmd {
	e := p.editor
	defer func() {
		if p.editor != nil {
			p.editor.render(p.c, p.width)
		}
	}()
	switch msg := msg.(type) {
	case policySimulatedMsg:
		if msg.gen != e.simGen {
			return nil
		}
		e.busy = e.sending // a create in flight is still said
		e.simErr = ""
		if msg.err != nil {
			e.simErr = msg.err.Error()
			return nil
		}
		e.sim, e.simDraft, e.simUnreadable = msg.rows, msg.draft, msg.unreadable
	case policyNewConfirmedMsg:
		if msg.editor != e || e.sending != "" {
			return nil
		}
		if msg.resend {
			return p.resendDraft(msg.params)
		}
		return p.create(msg.params)
	case policyCreatedMsg:
		// Only this submit has ended: another, from an editor opened since,
		// may still be in flight.
		p.endSubmit(msg.sub)
		open := msg.editor == e
		if open {
			e.busy, e.sending, e.sendingSub = "", "", 0
		}
		if msg.err != nil {
			text := "create policy: " + answerText("create_policy", msg.resent, msg.err)
			if open {
				// The form stays open with everything typed: nothing is lost.
				e.err = text
				e.earlier = e.earlier.afterSubmit("create_policy", formValues(msg.params), msg.resent, msg.err)
			}
			return ui.Toast(text, true)
		}
		if open {
			p.editor = nil
		}
		a := msg.act
		toast := submittedNotice("create_policy "+api.Quote(msg.params.PolicyName), a, msg.resent, "")
		return tea.Batch(toast, p.load(), msgCmd(ShowActivityMsg{ID: a.ID, Activity: a}))
	}
	return nil
}

// policySubmit is one create_policy in flight.
type policySubmit struct {
	sub int
	Submission
}

// startSubmit counts a create_policy of params as in flight and returns its
// number, which its answer carries back to endSubmit.
func (p *Policies) startSubmit(params api.CreatePolicyParams) int {
	p.submitSeq++
	p.sending = append(p.sending, policySubmit{sub: p.submitSeq, Submission: *submissionOf("create_policy", "create_policy "+api.Quote(params.PolicyName))})
	return p.submitSeq
}

// endSubmit forgets the submit numbered sub: its answer has come.
func (p *Policies) endSubmit(sub int) {
	p.sending = slices.DeleteFunc(p.sending, func(s policySubmit) bool { return s.sub == sub })
}

// submitOf is the submit numbered sub while it is in flight.
func (p *Policies) submitOf(sub int) (Submission, bool) {
	for _, s := range p.sending {
		if s.sub == sub {
			return s.Submission, true
		}
	}
	return Submission{}, false
}

// submitting are the create_policy submits in flight, oldest first.
func (p *Policies) submitting() []Submission {
	var out []Submission
	for _, s := range p.sending {
		out = append(out, s.Submission)
	}
	return out
}
