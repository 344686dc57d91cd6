package screens

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// maxMfaStatusActivities bounds the get_mfa_status calls of one load.
const maxMfaStatusActivities = 20

// MfaPolicies shows one user's MFA policies in order (yourself by default; u
// picks another), the MFA status of that user for pending activities, and
// creates a policy with a step editor (mfa_editor.go).
type MfaPolicies struct {
	c        *Common
	keys     mfaKeys
	list     ui.ListDetail
	userID   string
	user     *api.User
	items    []api.MfaPolicy
	statuses []mfaActivityStatus
	pending  pendingCount // how many activities are pending, of which statuses checked the newest
	gen      int
	// cancelLoad abandons the load in flight when another starts: a user
	// stepping through users quickly starts one load per step, and only
	// the last one's answer is shown.
	cancelLoad context.CancelFunc
	loading    bool
	// ownReadAfter is the newest organization load started when the
	// screen's own read began (orgLoadTaken).
	ownReadAfter int
	err          string
	fetched      time.Time
	stale        bool // the last load failed: what shows is from fetched
	width        int
	height       int
	editor       *mfaEditor
	creating     *Submission // the create_mfa_policy in flight
	openID       string      // the policy the open detail shows
	// openPolicy is that policy as last loaded; openGone says why the last
	// load no longer lists it ("" while listed).
	openPolicy api.MfaPolicy
	openGone   string
	// statusOpen: the open detail is the MFA status in full (s), which the
	// preview cuts to what the window leaves.
	statusOpen bool
	// choice is the pending activity chosen in the open MFA status (A opens
	// it); choiceEnd is the last line of its status there.
	choice    activityChoice
	choiceEnd int
	// dialogAsk: the editor's confirms, asked for by its keys.
	dialogAsk
	// activities: the console submitted or voted since the load, so the
	// status for pending activities is read again when shown.
	activities staleOnChange
}

// mfaActivityStatus is the user's MFA status for one pending activity.
type mfaActivityStatus struct {
	activity api.Activity
	statuses []api.MfaStatus
	// voted says whether the user has voted: the service reports the status
	// of voters only. Before the vote, expected is the policy that would apply,
	// read by the console from the conditions (nil: none would).
	voted    bool
	expected *api.MfaPolicy
	// unread says the console cannot read the intent's params, which a
	// condition may look at: no expectation is worked out then.
	unread bool
}

// pendingCount is how many activities wait for votes: listed is the page
// read, more says older ones follow it; unknown is why the look for older
// ones failed (whether any follow is not known then).
type pendingCount struct {
	listed  int
	more    bool
	unknown string
}

type mfaLoadedMsg struct {
	gen      int
	userID   string
	user     *api.User
	policies []api.MfaPolicy
	statuses []mfaActivityStatus
	pending  pendingCount
	err      error
	at       time.Time
}

// NewMfaPolicies builds the screen.
func NewMfaPolicies(c *Common) *MfaPolicies {
	m := &MfaPolicies{c: c, keys: newMfaKeys()}
	m.list = ui.NewListDetail(c.Theme, []ui.Column{
		{Title: "ORDER", Width: 5},
		{Title: "NAME", Width: 12, Max: 32},
		{Title: "STEPS", Width: 5},
		{Title: "CONDITION", Width: 10, Grow: true},
	})
	m.list.Table.Empty = "no MFA policies for this user — n creates one"
	m.list.Table.Loading = "loading the MFA policies…"
	m.list.PreviewMore = "s shows them all, scrollable"
	return m
}

// Title implements Screen.
func (m *MfaPolicies) Title() string { return "MFA policies" }

// Init implements Screen: the user is known once the organization loads.
func (m *MfaPolicies) Init() tea.Cmd { return nil }

// Capturing implements Screen.
func (m *MfaPolicies) Capturing() bool { return m.editor != nil || m.list.Filtering() }

func (m *MfaPolicies) filterList() *ui.ListDetail { return &m.list }
func (m *MfaPolicies) filterEdited()              { m.setPreview(); m.syncKeys() }

// SetSize implements Screen.
func (m *MfaPolicies) SetSize(width, height int) {
	m.width, m.height = width, height
	m.list.SetSize(width, max(height-1, 1))
}

// Status implements Screen.
func (m *MfaPolicies) Status() ScreenStatus {
	st := ScreenStatus{LastRefresh: m.fetched, Err: m.err, Stale: m.stale && !m.fetched.IsZero(), Submitting: submissions(m.creating)}
	switch {
	case m.creating != nil:
		st.Busy = "submitting create_mfa_policy…"
	case m.loading:
		st.Busy = "loading MFA policies…"
	case m.userID == "" && m.list.Table.Failed == "":
		// The user is known once the organization loads (Init).
		st.Busy = "loading who you are…"
	}
	return st
}

// userName is the picked user's name.
func (m *MfaPolicies) userName() string {
	if n := m.c.Org.UserNames[m.userID]; n != "" {
		return n
	}
	return api.SanitizeID(m.userID)
}

// userText is the picked user's name as shown: look-alikes marked.
func (m *MfaPolicies) userText() string {
	if n := m.c.Org.UserNames[m.userID]; n != "" {
		return api.NameText(n)
	}
	return api.SanitizeID(m.userID)
}

// load fetches the user (its authenticators), its MFA policies and its MFA
// status for the pending activities.
func (m *MfaPolicies) load() tea.Cmd {
	if m.userID == "" {
		return nil
	}
	m.gen++
	m.loading = true
	m.ownReadAfter = m.c.OrgLoadsStarted
	if m.cancelLoad != nil {
		m.cancelLoad()
	}
	ctx, cancel := m.c.ctx()
	m.cancelLoad = cancel
	gen, c, client, uid := m.gen, m.c, m.c.Reader, m.userID
	return func() tea.Msg {
		defer cancel()
		msg := mfaLoadedMsg{gen: gen, userID: uid, at: c.Now()}
		pols, err := client.GetMfaPolicies(ctx, uid)
		if err != nil {
			msg.err = fmt.Errorf("get_mfa_policies: %w", err)
			return msg
		}
		pols = api.MfaPoliciesInOrder(pols)
		msg.policies = pols
		if msg.user, err = client.GetUser(ctx, uid); err != nil {
			msg.err = fmt.Errorf("get_user: %w", err)
			return msg
		}
		if len(pols) == 0 {
			return msg // no policy can apply: no status to ask for
		}
		// Pending as the activity detail counts it: those a service holds
		// for MFA (AUTHENTICATORS_NEEDED) are the ones this status is for.
		// One past the bound, so that the heading counts exactly up to it:
		// with no limit the service's page (10) would cut the checks short.
		opts := api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded, api.StatusAuthenticatorsNeeded},
			Limit: maxMfaStatusActivities + 1}
		acts, err := client.ListActivities(ctx, opts)
		if err != nil {
			msg.err = fmt.Errorf("pending activities: %w", err)
			return msg
		}
		// The heading counts what was not checked: the oldest pending are
		// often the ones stuck on MFA.
		msg.pending.listed = len(acts)
		if len(acts) > 0 {
			more, err := api.ActivitiesFollow(ctx, client, opts, acts[len(acts)-1].ID, true)
			msg.pending.more = more
			if err != nil {
				// Not "none older": said, with why.
				msg.pending.unknown = probeWhy(err)
			}
		}
		compiled := map[string]*policy.Compiled{} // each condition once, for every activity
		compile := func(cond string) (*policy.Compiled, error) {
			if c, ok := compiled[cond]; ok {
				return c, nil
			}
			c, err := policy.CompileMfaCondition(cond)
			if err == nil {
				compiled[cond] = c
			}
			return c, err
		}
		for i, a := range acts {
			if i == maxMfaStatusActivities {
				break
			}
			st, err := client.GetMfaStatus(ctx, a.ID, uid)
			if err != nil {
				msg.err = fmt.Errorf("get_mfa_status %s: %w", api.SanitizeID(a.ID), err)
				return msg
			}
			s := mfaActivityStatus{activity: a, statuses: st,
				voted: slices.ContainsFunc(a.Votes, func(v api.Vote) bool { return v.UserID == uid })}
			s.unread = !s.voted && a.IntentUnread()
			if !s.voted && !s.unread {
				s.expected, _ = policy.ApplicableMfaPolicy(pols, policy.InputOfActivity(a, nil, c.Now()), compile)
			}
			msg.statuses = append(msg.statuses, s)
		}
		return msg
	}
}

func (m *MfaPolicies) syncKeys() {
	open := m.list.IsOpen()
	l := &m.list.Keys
	l.Open.SetEnabled(!open && len(m.items) > 0)
	l.Back.SetEnabled(open)
	l.Sort.SetEnabled(!open)
	l.ReverseSort.SetEnabled(!open)
	m.keys.User.SetEnabled(m.whyNoUserSwitch() == "")
	m.keys.NextUser.SetEnabled(m.whyNoUserSwitch() == "")
	m.keys.Create.SetEnabled(!open && m.whyNoCreate() == "")
	m.keys.Status.SetEnabled(!open)
	m.syncStatusKeys()
}

// whyNoUserSwitch says why another user's MFA policies cannot be shown now,
// or "" when they can.
func (m *MfaPolicies) whyNoUserSwitch() string {
	switch {
	case m.list.IsOpen():
		return "close the policy first"
	case len(m.c.Org.UserNames) <= 1:
		return "the organization has no other user"
	}
	return ""
}

func (m *MfaPolicies) whyNoCreate() string {
	switch {
	case m.c.ReadOnly():
		return ErrReadOnly.Error()
	case m.user == nil:
		return "the user is not loaded yet; press r"
	case m.creating != nil:
		return "a policy is being created"
	}
	return ""
}

// Update implements Screen.
func (m *MfaPolicies) Update(msg tea.Msg) (Screen, tea.Cmd) {
	defer m.syncKeys()
	if m.activities.take(msg) && !m.fetched.IsZero() {
		return m, m.load()
	}
	switch msg := msg.(type) {
	case themeChangedMsg:
		m.list.SetTheme(m.c.Theme)
		m.setRows()
	case orgLoadedMsg:
		if m.userID == "" && msg.org.UserID != "" {
			m.userID = msg.org.UserID
			m.list.Table.Failed = ""
			return m, m.load()
		}
		if m.userID == "" && msg.err != nil { // no user to show: say why
			m.list.Table.Failed = notLoaded(time.Time{}, "who you are: "+errorText(msg.err))
		}
		if orgLoadTaken(msg, !m.fetched.IsZero(), m.ownReadAfter) {
			return m, m.load() // the load does not hold other members' MFA policies, nor the statuses
		}
	case mfaLoadedMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.loading = false
		if msg.err != nil {
			// The last list stays, with when it was fetched (the status bar
			// marks it stale): a part of this load would read as complete.
			m.err, m.stale = errorText(msg.err), true
			m.list.Table.Failed = notLoaded(m.fetched, "load failed: "+m.err)
			m.rerenderOpen()
			return m, nil
		}
		m.err, m.stale, m.list.Table.Failed = "", false, ""
		m.list.Table.SetRead(true)
		m.items, m.user, m.statuses, m.pending, m.fetched = msg.policies, msg.user, msg.statuses, msg.pending, msg.at
		m.setRows()
		wasGone := m.openGone
		m.rerenderOpen()
		if m.openGone != "" && wasGone == "" {
			return m, m.goneToast()
		}
	case orgChangedMsg:
		if !m.fetched.IsZero() {
			return m, m.load() // an MFA policy or a status may be new
		}
	case clockMsg:
		if !msg.unseen { // hidden, redrawn when shown (Root.showActive)
			m.rerenderOpen() // its created and updated ages count up
		}
	case mfaUserPickedMsg:
		if msg.userID == m.userID {
			return m, nil // shown already
		}
		return m, m.showUser(msg.userID)
	case mfaConfirmedMsg:
		return m, m.create(msg)
	case mfaCreatedMsg:
		return m, m.created(msg)
	case mfaDraftDiscardedMsg:
		if m.editor == msg.editor {
			m.editor = nil
		}
	case tea.KeyPressMsg:
		if m.editor != nil {
			return m, m.editorUpdate(msg)
		}
		return m, m.handleKey(msg)
	}
	return m, nil
}

func (m *MfaPolicies) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if m.list.IsOpen() {
		if m.statusOpen {
			if cmd, ok := m.statusKey(k); ok {
				return cmd
			}
		}
		if key.Matches(k, m.list.Keys.Back) {
			m.list.Close()
			m.statusOpen, m.openGone = false, ""
			return nil
		}
		if m.list.FilterKeyInDetail(k) {
			m.list.Close()
			m.openGone = ""
			return m.handleKey(k)
		}
		// Refresh reads the open policy (or status) again, as help says.
		if key.Matches(k, m.keys.Refresh) {
			return m.load()
		}
		var cmd tea.Cmd
		m.list, cmd = m.list.Update(k)
		return cmd
	}
	switch {
	case pressed(k, m.keys.OpenActivity): // says how to choose one
		return ui.Toast(m.whyNoStatusActivity(), true)
	case key.Matches(k, m.keys.Refresh):
		return m.load()
	case key.Matches(k, m.keys.User):
		return m.openUserPicker()
	case key.Matches(k, m.keys.NextUser):
		return m.showUser(m.nextUser())
	case pressed(k, m.keys.Create):
		return m.openEditor()
	case key.Matches(k, m.keys.Status):
		// The detail pane scrolls (↑/↓, pgup/pgdn, g/G) as the Activities
		// detail does.
		m.list.Open()
		m.statusOpen, m.openID = true, ""
		m.choice.reset()
		m.list.SetDetail(m.statusPane())
		return nil
	case key.Matches(k, m.list.Keys.Open):
		p := m.selected()
		if p == nil {
			return nil
		}
		m.list.Open()
		m.openID, m.openPolicy, m.openGone = p.MfaPolicyID, *p, ""
		m.list.SetDetail(m.renderPolicy(*p))
		return nil
	}
	var cmd tea.Cmd
	m.list, cmd = m.list.Update(k)
	m.setPreview()
	return cmd
}

// showUser shows the MFA policies of user id, loading them.
func (m *MfaPolicies) showUser(id string) tea.Cmd {
	m.userID = id
	// Another user's policies were never loaded: nothing of this one's
	// may pass for them if the load fails.
	m.items, m.user, m.statuses, m.pending, m.fetched = nil, nil, nil, pendingCount{}, time.Time{}
	m.list.Table.SetRead(false)
	m.setRows()
	return m.load()
}

// nextUser is the user after the picked one, by name.
func (m *MfaPolicies) nextUser() string {
	ids := m.usersByName()
	for i, id := range ids {
		if id == m.userID {
			return ids[(i+1)%len(ids)]
		}
	}
	if len(ids) > 0 {
		return ids[0]
	}
	return m.userID
}

func (m *MfaPolicies) selected() *api.MfaPolicy {
	return selectedIn(&m.list, m.items, func(p *api.MfaPolicy) string { return p.MfaPolicyID })
}

func (m *MfaPolicies) setRows() {
	rows := make([]ui.Row, len(m.items))
	for i, p := range m.items {
		rows[i] = ui.Row{ID: p.MfaPolicyID,
			Cells: []string{strconv.Itoa(p.Order), api.NameText(p.MfaPolicyName), strconv.Itoa(len(p.RequiredAuthenticationMethods)), oneLine(p.Condition)},
			Sort:  []string{orderSortKey(p.Order)},
		}
	}
	m.list.SetRows(rows)
	m.setPreview()
}

// orderSortKey sorts orders as numbers for any int a reply holds: the sign
// bit flipped makes the order of the unsigned values that of the signed
// ones, and 20 digits hold any uint64 ("%06d" put -1 before -5, and 1000000
// before 200000).
func orderSortKey(order int) string {
	return fmt.Sprintf("%020d", uint64(int64(order))^(1<<63))
}

// policyName names a policy of the picked user by id.
func (m *MfaPolicies) policyName(id string) string {
	for _, p := range m.items {
		if p.MfaPolicyID == id {
			return p.MfaPolicyName
		}
	}
	return ""
}

// setPreview shows the selected policy's steps and the user's MFA status for
// the pending activities.
func (m *MfaPolicies) setPreview() {
	var lines []string
	if p := m.selected(); p != nil {
		lines = append(lines, describeSteps(p.RequiredAuthenticationMethods, consoleCredentials(m.c, m.user, false))...)
		lines = append(lines, "")
	}
	m.list.SetPreview(strings.Join(append(lines, m.statusLines()...), "\n"))
}

// rerenderOpen renders the open policy's detail again, where it is scrolled.
func (m *MfaPolicies) rerenderOpen() {
	if !m.list.IsOpen() {
		return
	}
	if m.statusOpen {
		m.list.SetDetail(m.statusPane())
		return
	}
	m.holdOpen()
	m.list.SetDetail(m.renderPolicy(m.openPolicy))
}

// renderPolicy is a policy's detail: the condition and the steps in order.
func (m *MfaPolicies) renderPolicy(p api.MfaPolicy) string {
	b := ui.NewDetailBuilder(m.c.Theme)
	b.LabelWidth = ui.LabelWidth("condition", "updated")
	if note := m.goneNote(p); note != "" {
		b.Styled(m.c.Theme.Warn.Render(ui.Clean(note)))
	}
	b.Section("MFA policy " + api.Quote(p.MfaPolicyName))
	b.Field("id", api.SanitizeID(p.MfaPolicyID))
	b.Field("user", m.userText())
	b.Field("order", strconv.Itoa(p.Order))
	writeExprField(b, m.c.Theme, "condition", p.Condition)
	writeExprNames(b, m.c.Theme, exprNames(m.c, p.Condition))
	b.Field("notes", p.Notes)
	b.Field("created", fmtTime(m.c.Now(), p.CreatedAt))
	b.Field("updated", fmtTime(m.c.Now(), p.UpdatedAt))
	b.Section(fmt.Sprintf("Steps (%d, in order; each needs any one of its methods)", len(p.RequiredAuthenticationMethods)))
	creds := consoleCredentials(m.c, m.user, true)
	for _, l := range describeSteps(p.RequiredAuthenticationMethods, creds) {
		b.Line(l)
	}
	for _, w := range unmeetablePins(p.RequiredAuthenticationMethods, creds) {
		b.Styled(m.c.Theme.Warn.Render(ui.Clean(w)))
	}
	return b.String()
}

// ClickRow selects the clicked policy (line 0 is the heading).
func (m *MfaPolicies) ClickRow(y int) tea.Cmd {
	if !m.list.IsOpen() && m.list.ClickRow(y-1) {
		m.setPreview()
		m.syncKeys()
	}
	return nil
}

// View implements Screen.
func (m *MfaPolicies) View() string {
	if m.editor != nil {
		return m.editor.View(m.c.Theme, m.width, m.height)
	}
	th := m.c.Theme
	sub := "  " + m.list.Table.CountText(len(m.items)) + ", in order — u another user, n new, s status"
	if m.statusOpen && m.list.IsOpen() {
		// The heading names the keys the pane has: ↑/↓ choose an activity
		// when there are some, else they scroll.
		var how []string
		if pos := m.list.Pane.Position(); pos != "" {
			how = append(how, pos)
		}
		switch {
		case m.keys.OpenActivity.Enabled() && len(how) > 0:
			how = append(how, "↑/↓ choose, A opens, b/f scroll")
		case m.keys.OpenActivity.Enabled():
			how = append(how, "↑/↓ choose, A opens")
		case len(how) > 0:
			how = append(how, "↑/↓ scroll")
		}
		sub = "  MFA status — esc back"
		if len(how) > 0 {
			sub = "  MFA status (" + strings.Join(how, ", ") + ") — esc back"
		}
	}
	title := "MFA policies"
	if m.userID != "" { // else who you are is still loading
		title += " of " + ui.Clean(m.userText())
	}
	head := ansi.Truncate(th.Title.Render(title)+th.Muted.Render(sub), m.width, "…")
	return head + "\n" + m.list.View()
}

// Keys implements Screen.
func (m *MfaPolicies) Keys() ui.KeyMap { return mfaHelp{m} }

type mfaHelp struct{ m *MfaPolicies }

func (h mfaHelp) ShortHelp() []key.Binding {
	if h.m.editor != nil {
		return h.m.editor.keys()
	}
	k, l := h.m.keys, h.m.list.Keys
	if h.m.list.IsOpen() {
		if h.m.statusOpen {
			return h.m.statusHelp()
		}
		return []key.Binding{l.Back}
	}
	return []key.Binding{l.Open, h.m.list.Table.Keys.Filter, k.Status, k.User, k.NextUser, k.Create, k.Refresh}
}

func (h mfaHelp) FullHelp() [][]key.Binding {
	return fullHelp(h.m.KeyActions(), append([]key.Binding{h.m.keys.Up, h.m.keys.Down}, append(listMoveKeys(&h.m.list), h.m.list.Table.Keys.Filter)...))
}
