package screens

import (
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
	// otherView is the filter, sort and selection of the view not showing,
	// restored when e switches back to it.
	otherView ui.TableState
	data      policiesData
	gen       int
	// recent activities are loaded when first needed (a detail, the
	// evaluations view, the editor), not at start: that is a call per activity.
	// They load after the policies, on their own (recentGen, recentErr): their
	// failure never keeps the policies from showing or refreshing.
	recentLoaded, recentWanted, recentLoading bool
	recentGen                                 int
	recentErr                                 string
	recentFetched                             time.Time // when the recent evaluations last loaded
	// editor is the create form with its simulation; nil when closed.
	editor *policyEditor
	// sending are the create_policy submits in flight, from the editor open
	// or ones closed since, in the order sent; each is cleared by its own
	// answer (policyCreatedMsg.sub).
	sending   []policySubmit
	submitSeq int        // numbers the submits
	reload    reloadGate // a load runs, and another was asked for meanwhile
	// orgAwaited is the organization load whose policies, users and quorum
	// a completion elsewhere makes the list take (orgChangedMsg), instead
	// of reading them again; 0 when none is awaited.
	orgAwaited int
	// ownReadAfter is the newest organization load started when the list's
	// own read began: a load that changed the organization is taken only if
	// it started after (orgLoadTaken).
	ownReadAfter  int
	err           string
	fetched       time.Time
	width, height int
	// activities: the console submitted or voted since the load, so the
	// recent evaluations, once loaded, are read again when shown.
	activities staleOnChange
	// dialogAsk: the editor's confirms, asked for by its keys.
	dialogAsk
	// choice is the activity chosen among those the open policy decided
	// (A opens it).
	choice activityChoice
	// explained remembers the open evaluation's explanations, computed in a
	// command (explainOpen): the detail is rendered again at every tick and
	// load, and explaining re-runs the policies.
	explained explanations
	// held is what the open detail shows, by id (not the cursor's row).
	held heldOpen
	// askedUnknown are the unknown policy ids an evaluation named that
	// made the policies reload (askForUnknownPolicies).
	askedUnknown map[string]bool
	// notReturned are the recent last evaluations whose vote a read after
	// them did not hold, as of the last recent load: not read again for.
	notReturned notReturnedEvals
	// lines are the one-line expressions of the list's rows (setRows).
	lines oneLines
}

// policiesData is one load: the policies, what explaining needs, and the
// recent activities with their evaluations explained.
type policiesData struct {
	policies []api.Policy
	ctx      evaluationContext
	users    []api.User
	// usersErr says why the users did not load (the policies did): the
	// explanations then have no members, and the editor does not simulate.
	usersErr string
	quorum   api.Quorum
	recent   []recentActivity
	// unread counts the recent activities whose evaluations could not be
	// read, and unreadErr says why (the first error).
	unread    int
	unreadErr string
}

// recentActivity is an activity with its stored evaluations, the last one
// explained.
type recentActivity struct {
	act   api.Activity
	evals []api.PolicyEvaluation
	last  *explained // nil when it has no evaluation
	// err: its evaluations could not be read ("" when they were).
	err string
	// notReturned: the last evaluation's vote is not in act, read after
	// the evaluations (now or at an earlier load): the service no longer
	// returns it.
	notReturned bool
	// rereadErr: the read of act after the evaluations failed; a vote
	// missing from act is then of unknown status (evals_reread.go).
	rereadErr string
	// final: evals were read after the activity was decided (the list that
	// preceded them said so), so they are all it will ever have.
	final bool
}

type policiesLoadedMsg struct {
	gen  int
	data policiesData
	err  error
	at   time.Time
}

// policiesRecentMsg carries the recent activities with their evaluations.
type policiesRecentMsg struct {
	gen            int
	recent         []recentActivity
	unread         int
	unreadErr, err error
	at             time.Time
	// held is the activity chosen in the editor read again, when it is no
	// longer among recent (nil when it is, none is chosen, or the read failed).
	held *recentActivity
	// notReturned is notReturnedOf(recent).
	notReturned notReturnedEvals
}

// recentFetches is how many evaluation reads run at once.
const recentFetches = 4

// NewPolicies builds the screen.
func NewPolicies(c *Common) *Policies {
	p := &Policies{c: c, keys: newPoliciesKeys()}
	p.list = ui.NewListDetail(c.Theme, policyColumns())
	p.list.Table.Empty = "no policies"
	p.list.Table.Loading = "loading the policies…"
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
	if p.reload.running {
		return nil // the recent ones follow the policies loading
	}
	if p.fetched.IsZero() {
		return p.load() // the recent ones follow the policies
	}
	return p.loadRecent()
}

// Capturing implements Screen: the filter and the editor take letters.
func (p *Policies) Capturing() bool { return p.list.Filtering() || p.editor != nil }

func (p *Policies) filterList() *ui.ListDetail { return &p.list }
func (p *Policies) filterEdited()              { p.setPreview(); p.syncKeys() }

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
	// p.err is only ever a failed load of the policies.
	st := ScreenStatus{LastRefresh: p.fetched, Err: p.err, Stale: p.err != "" && !p.fetched.IsZero(), Submitting: p.submitting()}
	if st.Err == "" && p.data.usersErr != "" {
		st.Err = p.data.usersErr
	}
	if st.Err == "" && p.recentErr != "" {
		st.Err = "recent evaluations: " + p.recentErr
	}
	if p.evals && p.recentLoaded {
		// The rows shown are the recent evaluations: their own load time,
		// stale when their refresh failed (the policies may have refreshed).
		st.LastRefresh = p.recentFetched
		st.Stale = st.Stale || p.recentErr != ""
	}
	switch {
	case p.reload.running:
		st.Busy = "loading policies…"
	case p.recentLoading:
		st.Busy = "loading recent evaluations…"
	case p.editor != nil && p.editor.busy != "":
		st.Busy = p.editor.busy
	}
	return st
}

// selectedPolicy is the open policy, or else the one under the cursor (nil
// in the evaluations view).
func (p *Policies) selectedPolicy() *api.Policy {
	if p.evals {
		return nil
	}
	if p.list.IsOpen() && p.held.id != "" {
		return &p.held.policy
	}
	return selectedIn(&p.list, p.data.policies, func(x *api.Policy) string { return x.PolicyID })
}

// selectedRecent is the open evaluation, or else the one under the cursor
// (nil in the policies view).
func (p *Policies) selectedRecent() *recentActivity {
	if !p.evals {
		return nil
	}
	if p.list.IsOpen() && p.held.id != "" {
		return &p.held.recent
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
	p.keys.OpenActivity.SetEnabled(open && p.held.gone == "" && (p.evals || p.hasDecided()))
}

// Update implements Screen: update, then the open evaluation's
// explanations not computed yet are, in a command.
func (p *Policies) Update(msg tea.Msg) (Screen, tea.Cmd) {
	s, cmd := p.update(msg)
	return s, tea.Batch(cmd, p.explainOpen())
}

// explainOpen explains the open activity's evaluations that are not yet
// (nil when none, or no evaluation is open); the detail says "explaining…"
// until each explainedMsg arrives.
func (p *Policies) explainOpen() tea.Cmd {
	ra := p.selectedRecent()
	if !p.list.IsOpen() || ra == nil {
		return nil
	}
	return p.explained.explainCmd(p.data.ctx, ra.act, ra.evals)
}

// update handles msg.
func (p *Policies) update(msg tea.Msg) (Screen, tea.Cmd) {
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
			// A policy or an evaluation may be new: the root's load,
			// started just before this message, reads them.
			p.orgAwaited = p.c.OrgLoadsStarted
		}
	case orgLoadedMsg:
		return p, p.takeOrgLoad(msg)
	case clockMsg:
		// UPDATED and AGE count up between loads: rebuilding the rows is cheap,
		// and the detail is rendered only when open (it keeps its scroll).
		// Hidden, the screen redraws when shown (Root.showActive).
		if !msg.unseen {
			p.setRows()
			p.renderDetail()
		}
	case policiesLoadedMsg:
		return p, p.policiesLoaded(msg)
	case policiesRecentMsg:
		return p, p.takeRecent(msg)
	case explainedMsg:
		if p.explained.take(msg) {
			p.renderDetail()
			return p, p.askForUnknownPolicies(msg.explained)
		}
	case policySimulatedMsg, policyNewConfirmedMsg:
		if p.editor == nil {
			return p, nil
		}
		return p, p.editorResult(msg)
	case policyCheckedMsg:
		return p, p.checked(msg)
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
		left := p.list.Table.State()
		if p.evals {
			p.list.Table.SetColumns(evaluationColumns())
		} else {
			p.list.Table.SetColumns(policyColumns())
		}
		p.setRows()
		p.list.Restore(p.otherView)
		p.otherView = left
		p.setPreview()
		return p.wantRecent()
	case key.Matches(k, p.keys.CopyID):
		id := p.list.Table.SelectedID()
		if p.list.IsOpen() {
			id = p.held.id // the cursor may have moved under the detail
		}
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
		p.hold()
		p.choice.reset()
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
