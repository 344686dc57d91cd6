package screens

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// recentActivities is how many of the latest activities the Policies screen
// loads with their evaluations: which activities a policy decided, the
// evaluations view, and what the simulator runs over.
const recentActivities = 30

// Policies lists the organization's policies, shows each with its expressions
// highlighted and the recent activities it decided, creates policies with a
// checking editor and a simulator, and shows recent evaluations explained.
type Policies struct {
	c    *Common
	keys policiesKeys
	list ui.ListDetail
	// evals is true while the list shows recent evaluations, not policies.
	evals bool
	data  policiesData
	gen   int
	// recent activities are loaded when first needed (a detail, the
	// evaluations view, the editor), not at start: that is a call per activity.
	recentLoaded, recentWanted bool
	// editor is the create form with its simulation; nil when closed.
	editor *policyEditor
	// sending is the create_policy in flight, from the editor open or one
	// closed since.
	sending       *Submission
	loading       bool
	err           string
	fetched       time.Time
	width, height int
	// activities: the console submitted or voted since the load, so the
	// recent evaluations, once loaded, are read again when shown.
	activities staleOnChange
	// dialogAsk: the editor's confirms, asked for by its keys.
	dialogAsk
	// decidedCursor is the activity chosen among those the open policy
	// decided (A opens it); decidedLine is its line in the detail.
	decidedCursor, decidedLine int
}

// policiesData is one load: the policies, what explaining needs, and the
// recent activities with their evaluations explained.
type policiesData struct {
	policies []api.Policy
	ctx      evaluationContext
	users    []api.User
	quorum   api.Quorum
	recent   []recentActivity
}

// recentActivity is an activity with its stored evaluations, the last one
// explained.
type recentActivity struct {
	act   api.Activity
	evals []api.PolicyEvaluation
	last  *explained // nil when it has no evaluation
}

type policiesLoadedMsg struct {
	gen        int
	data       policiesData
	withRecent bool
	err        error
	at         time.Time
}

// NewPolicies builds the screen.
func NewPolicies(c *Common) *Policies {
	p := &Policies{c: c, keys: newPoliciesKeys()}
	p.list = ui.NewListDetail(c.Theme, policyColumns())
	p.list.Table.Empty = "no policies"
	p.syncKeys()
	return p
}

// Title implements Screen.
func (p *Policies) Title() string { return "Policies" }

// Init implements Screen.
func (p *Policies) Init() tea.Cmd { return p.load() }

// wantRecent loads the recent activities and their evaluations the first
// time something needs them.
func (p *Policies) wantRecent() tea.Cmd {
	if p.recentLoaded || p.recentWanted {
		return nil
	}
	p.recentWanted = true
	return p.load()
}

// Capturing implements Screen: the filter and the editor take letters.
func (p *Policies) Capturing() bool { return p.list.Filtering() || p.editor != nil }

// SetSize implements Screen.
func (p *Policies) SetSize(width, height int) {
	p.width, p.height = width, height
	p.list.SetSize(width, max(height-1, 1))
	if p.editor != nil {
		p.editor.height = height
		p.editor.render(p.c, width)
	}
}

// Status implements Screen.
func (p *Policies) Status() ScreenStatus {
	st := ScreenStatus{LastRefresh: p.fetched, Err: p.err, Submitting: submissions(p.sending)}
	switch {
	case p.loading:
		st.Busy = "loading policies and recent evaluations…"
	case p.editor != nil && p.editor.busy != "":
		st.Busy = p.editor.busy
	}
	return st
}

// load fetches the policies, the members, the quorum and, once wanted, the
// recent activities with their evaluations, and explains the evaluations (CPU
// work: in the command, not in Update).
func (p *Policies) load() tea.Cmd {
	p.gen++
	p.loading = true
	gen, c, client, withRecent := p.gen, p.c, p.c.Reader, p.recentWanted
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		fail := func(what string, err error) tea.Msg {
			return policiesLoadedMsg{gen: gen, err: fmt.Errorf("%s: %w", what, err), at: c.Now()}
		}
		var d policiesData
		var err error
		if d.policies, err = client.ListPolicies(ctx); err != nil {
			return fail("list policies", err)
		}
		if d.users, err = client.ListUsers(ctx); err != nil {
			return fail("list users", err)
		}
		cfg, err := client.GetOrganizationConfigs(ctx)
		if err != nil {
			return fail("organization configs", err)
		}
		d.quorum = cfg.Quorum
		d.ctx = newEvaluationContext(d.users, d.quorum, d.policies)
		if !withRecent {
			return policiesLoadedMsg{gen: gen, data: d, at: c.Now()}
		}
		acts, err := client.ListActivities(ctx, api.ListActivitiesOptions{Limit: recentActivities})
		if err != nil {
			return fail("list activities", err)
		}
		for _, a := range acts {
			evs, err := client.GetPolicyEvaluations(ctx, a.ID)
			if err != nil {
				return fail("policy evaluations of "+api.SanitizeID(a.ID), err)
			}
			ra := recentActivity{act: a, evals: evs}
			if len(evs) > 0 {
				ex := explainEvaluation(d.ctx, a, evs[len(evs)-1])
				ra.last = &ex
			}
			d.recent = append(d.recent, ra)
		}
		return policiesLoadedMsg{gen: gen, data: d, withRecent: true, at: c.Now()}
	}
}

// selectedPolicy is the policy under the cursor (nil in the evaluations view).
func (p *Policies) selectedPolicy() *api.Policy {
	if p.evals {
		return nil
	}
	return selectedIn(&p.list, p.data.policies, func(x *api.Policy) string { return x.PolicyID })
}

func (p *Policies) selectedRecent() *recentActivity {
	if !p.evals {
		return nil
	}
	return selectedIn(&p.list, p.data.recent, func(r *recentActivity) string { return r.act.ID })
}

// createBlock says why a new policy cannot be created now ("" when it can).
func (p *Policies) createBlock() string {
	switch {
	case p.c.ReadOnly():
		return ErrReadOnly.Error()
	case p.editor != nil:
		return "the editor is already open"
	}
	return ""
}

func (p *Policies) syncKeys() {
	open := p.list.IsOpen()
	has := p.list.Table.Visible() > 0
	l := &p.list.Keys
	l.Open.SetEnabled(has && !open)
	l.Back.SetEnabled(open)
	l.Sort.SetEnabled(has && !open)
	l.ReverseSort.SetEnabled(has && !open)
	p.keys.Create.SetEnabled(p.createBlock() == "")
	p.keys.CopyID.SetEnabled(has)
	p.keys.Simulate.SetEnabled(p.editor != nil)
	p.keys.Evaluations.SetEnabled(!open)
	p.keys.OpenActivity.SetEnabled(open && (p.evals || p.hasDecided()))
}

// Update implements Screen.
func (p *Policies) Update(msg tea.Msg) (Screen, tea.Cmd) {
	defer p.syncKeys()
	if p.activities.take(msg) && p.recentLoaded {
		return p, p.load()
	}
	switch msg := msg.(type) {
	case themeChangedMsg:
		p.list.SetTheme(p.c.Theme)
		p.setRows()
		p.renderDetail()
	case orgChangedMsg:
		if !p.fetched.IsZero() {
			return p, p.load() // a policy or an evaluation may be new
		}
	case clockMsg:
		// UPDATED and AGE count up between loads: rebuilding the rows is cheap,
		// and the detail is rendered only when open (it keeps its scroll).
		p.setRows()
		p.renderDetail()
	case policiesLoadedMsg:
		if msg.gen != p.gen {
			return p, nil
		}
		p.loading = false
		if msg.err != nil {
			p.err = "load failed: " + errorText(msg.err)
			p.setFailed()
			return p, nil
		}
		if msg.withRecent {
			p.recentLoaded = true
		} else {
			msg.data.recent = p.data.recent
		}
		p.err, p.data, p.fetched = "", msg.data, msg.at
		if p.editor != nil && msg.withRecent {
			p.editor.setRecent(p.c, p.data.recent)
		}
		p.setRows()
		p.renderDetail()
	case policySimulatedMsg, policyNewConfirmedMsg:
		if p.editor == nil {
			return p, nil
		}
		return p, p.editorResult(msg)
	case policyDraftDiscardedMsg:
		if p.editor == msg.editor {
			p.editor = nil
		}
	case policyCreatedMsg:
		// Answered even when its editor was closed meanwhile: the user
		// learns what became of the request.
		return p, p.editorResult(msg)
	case tea.KeyPressMsg:
		return p, p.handleKey(msg)
	}
	return p, nil
}

func (p *Policies) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if p.editor != nil {
		return p.editorKey(k)
	}
	if p.list.Filtering() {
		var cmd tea.Cmd
		p.list, cmd = p.list.Update(k)
		p.setPreview()
		return cmd
	}
	if cmd, ok := p.openKey(k); ok {
		return cmd
	}
	switch {
	// Create is matched while disabled too, so that a press says why.
	case pressed(k, p.keys.Create):
		if why := p.createBlock(); why != "" {
			return ui.Toast(why, true)
		}
		p.openEditor()
		if p.recentLoaded { // simulate over the activities as they are now
			return p.load()
		}
		return p.wantRecent()
	case key.Matches(k, p.keys.Refresh):
		return p.load()
	case key.Matches(k, p.keys.Evaluations):
		p.evals = !p.evals
		p.list.Close()
		p.list.Table.SetFilter("")
		if p.evals {
			p.list.Table.SetColumns(evaluationColumns())
		} else {
			p.list.Table.SetColumns(policyColumns())
		}
		p.setRows()
		return p.wantRecent()
	case key.Matches(k, p.keys.CopyID):
		id := p.list.Table.SelectedID()
		if id == "" {
			return nil
		}
		id = ui.Clean(api.SanitizeID(id))
		return tea.Batch(tea.SetClipboard(id), ui.Toast("copied id "+id, false))
	case !p.list.IsOpen() && key.Matches(k, p.list.Keys.Open):
		if p.list.Table.SelectedID() == "" {
			return nil
		}
		p.list.Open()
		p.decidedCursor = 0
		p.renderDetail()
		return p.wantRecent()
	case p.list.IsOpen() && key.Matches(k, p.list.Keys.Back):
		p.list.Close()
		return nil
	case p.list.FilterKeyInDetail(k):
		p.list.Close()
		return p.handleKey(k)
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(k)
	p.setPreview()
	return cmd
}

// ClickRow selects the clicked row (line 0 of the screen is its heading).
func (p *Policies) ClickRow(y int) tea.Cmd {
	if p.list.ClickRow(y - 1) {
		p.setPreview()
		p.syncKeys()
	}
	return nil
}

// Commands of the Policies screen, for the palette.
func (p *Policies) Commands() []Command {
	k := p.keys
	return []Command{
		keyCommand("new policy (create_policy)", k.Create, p.createBlock()),
		keyCommand("simulate the draft policy", k.Simulate, "open the policy editor (n) first"),
		keyCommand("policies/evaluations view", k.Evaluations, "not while a policy is open"),
		keyCommand("open policy or evaluation", p.list.Keys.Open, "nothing selected"),
		keyCommand("copy policy or activity id", k.CopyID, "nothing selected"),
		keyCommand("open the evaluation's activity in Activities", k.OpenActivity, "open an evaluation, or a policy that decided a recent activity, first"),
		keyCommand("refresh policies", k.Refresh, ""),
	}
}
