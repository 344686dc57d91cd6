package screens

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// fakeClient is an in-memory stand-in for the service, for unit tests of Update
// only; the end-to-end tests use the real local service.
type fakeClient struct {
	// Submitter is nil: the fake answers the votes only, and any other submit
	// would panic the test rather than pass unnoticed.
	Submitter
	mu         sync.Mutex
	activities []api.Activity
	listErr    error
	voteErr    error
	lists      []api.ListActivitiesOptions
	// watches counts the root's looks at the newest activities
	// (org_watch.go), kept apart from lists as tagLookups are.
	watches int
	// tagLookups are the lists of completed create_user_tag activities the
	// organization's load reads tag names from, kept apart from lists (the
	// lists the screens show) so that counting those is not thrown by it.
	tagLookups int
	approvals  []string // fingerprints
	rejections []string
	evalCalls  []string
	// Boot proofs by app and by ephemeral key; a missing one is a not-found error.
	bootByApp map[string]*api.BootProof
	bootByKey map[string]*api.BootProof
	appProofs []api.AppProof
	bootCalls []string // apps and keys asked for, in order
	// policies replace the default policy list when set; created records
	// create_policy submits.
	policies     []api.Policy
	evals        map[string][]api.PolicyEvaluation // by activity id, instead of the default
	policyLists  int
	created      []api.CreatePolicyParams
	createStatus string // status of the created activity; "" = CONSENSUS_NEEDED
	featureSets  []api.SetOrganizationFeatureParams
	featureErr   error               // set_organization_feature fails with it
	who          *api.WhoamiResponse // nil: alice, a root member
	users        []api.User          // nil: alice, bob and carol without credentials
	keyDeletes   []api.DeleteAPIKeysParams
	mfaPolicies  map[string][]api.MfaPolicy // by user id
	mfaCreates   []api.CreateMfaPolicyParams
}

func (f *fakeClient) ListActivities(_ context.Context, o api.ListActivitiesOptions) ([]api.Activity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case slices.Equal(o.Types, []string{api.TypeCreateUserTag}) && slices.Equal(o.Statuses, []string{api.StatusCompleted}):
		f.tagLookups++
	case o.Limit == watchLimit && len(o.Statuses)+len(o.Types) == 0 && o.Before+o.After == "":
		// The root's look for completions (org_watch.go): not a list a
		// screen shows.
		f.watches++
	case o.Limit == 1 && (o.After != "" || o.Before != ""):
		// Whether a page's ends are the list's: part of one load, not a
		// load of its own.
	default:
		f.lists = append(f.lists, o)
	}
	if f.listErr != nil {
		return nil, f.listErr
	}
	var out []api.Activity
	for _, a := range f.activities {
		if len(o.Statuses) > 0 && !slices.Contains(o.Statuses, a.Status) {
			continue
		}
		if len(o.Types) > 0 && !slices.Contains(o.Types, a.Type) {
			continue
		}
		out = append(out, a)
	}
	// The cursors, in the list's order (newest first), as the service pages:
	// After lists what follows the cursor, Before the page just above it. An
	// unknown cursor lists nothing.
	at := func(id string) int { return slices.IndexFunc(out, func(a api.Activity) bool { return a.ID == id }) }
	// As the service: no limit is its default page, so that a screen that
	// forgets the limit reads here as few as it would there.
	limit := o.Limit
	if limit == 0 {
		limit = api.DefaultListLimit
	}
	switch {
	case o.After != "":
		if i := at(o.After); i >= 0 {
			out = out[i+1:]
		} else {
			out = nil
		}
	case o.Before != "":
		i := max(at(o.Before), 0)
		out = out[max(i-limit, 0):i]
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (f *fakeClient) GetActivity(_ context.Context, id string) (*api.Activity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.activities {
		if a.ID == id {
			return &a, nil
		}
	}
	return nil, fmt.Errorf("no activity %s", id)
}

func (f *fakeClient) vote(fp string, approve bool) (*api.Activity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if approve {
		f.approvals = append(f.approvals, fp)
	} else {
		f.rejections = append(f.rejections, fp)
	}
	if f.voteErr != nil {
		return nil, f.voteErr
	}
	for i, a := range f.activities {
		if a.Fingerprint == fp {
			a.CanApprove, a.CanReject = false, false
			sel := api.VoteApproved
			a.Status = api.StatusCompleted
			if !approve {
				sel, a.Status = api.VoteRejected, api.StatusRejected
			}
			a.Votes = append(append([]api.Vote(nil), a.Votes...), api.Vote{UserID: "u-alice", User: api.User{UserName: "alice"}, Selection: sel})
			f.activities[i] = a
			return &a, nil
		}
	}
	return nil, fmt.Errorf("no activity with fingerprint %s", fp)
}

func (f *fakeClient) ApproveActivity(_ context.Context, fp string, _ ...api.SubmitOption) (*api.Activity, error) {
	return f.vote(fp, true)
}
func (f *fakeClient) RejectActivity(_ context.Context, fp string, _ ...api.SubmitOption) (*api.Activity, error) {
	return f.vote(fp, false)
}
func (f *fakeClient) GetPolicyEvaluations(_ context.Context, id string) ([]api.PolicyEvaluation, error) {
	f.mu.Lock()
	f.evalCalls = append(f.evalCalls, id)
	defer f.mu.Unlock()
	if e, ok := f.evals[id]; ok {
		return e, nil
	}
	// What the service stores for the sample activities under the default
	// policy: its condition (resource USER) matches none of them; a root-only
	// activity runs no policy.
	outcomes := []api.PolicyOutcome{{PolicyID: "pol-ops", Outcome: api.OutcomeDenyImplicit}}
	voteID := "v-" + id
	for _, a := range f.activities {
		if a.ID == id && a.Type == api.TypeSetOrganizationFeature {
			outcomes = []api.PolicyOutcome{}
		}
	}
	return []api.PolicyEvaluation{{ID: "ev-" + id, ActivityID: id, VoteID: voteID,
		PolicyEvaluations: outcomes, CreatedAt: api.NewTime(testNow.Add(-time.Hour))}}, nil
}
func (f *fakeClient) ListAppProofs(context.Context, string) ([]api.AppProof, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.appProofs, nil
}
func (f *fakeClient) GetLatestBootProof(_ context.Context, app string) (*api.BootProof, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bootCalls = append(f.bootCalls, "app:"+app)
	if bp, ok := f.bootByApp[app]; ok {
		c := *bp
		return &c, nil
	}
	return nil, fmt.Errorf("no boot proof for enclave app %q", app)
}
func (f *fakeClient) GetBootProof(_ context.Context, key string) (*api.BootProof, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bootCalls = append(f.bootCalls, "key:"+key)
	if bp, ok := f.bootByKey[key]; ok {
		c := *bp
		return &c, nil
	}
	return nil, fmt.Errorf("no boot proof for ephemeral key %q", key)
}
func (f *fakeClient) Whoami(context.Context) (*api.WhoamiResponse, error) {
	if f.who != nil {
		return f.who, nil
	}
	return &api.WhoamiResponse{OrganizationID: "org-1", OrganizationName: "Acme", UserID: "u-alice", Username: "alice"}, nil
}
func (f *fakeClient) GetOrganizationConfigs(context.Context) (*api.OrganizationConfigs, error) {
	return &api.OrganizationConfigs{Quorum: api.Quorum{Threshold: 2, UserIDs: []string{"u-alice", "u-bob", "u-carol"}},
		Features: []api.Feature{{Name: "FEATURE_NAME_EMAIL_AUTH", Value: ""}}}, nil
}
func (f *fakeClient) ListPolicies(context.Context) ([]api.Policy, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.policyLists++
	if f.policies != nil {
		return f.policies, nil
	}
	return []api.Policy{{PolicyID: "pol-ops", PolicyName: "Ops need two approvers", Effect: api.EffectAllow,
		Condition: "activity.resource == 'USER'", Consensus: "approvers.filter(u, u.tags.contains('ops')).count() >= 2",
		Notes: "bob and carol carry ops", CreatedAt: api.NewTime(testNow.Add(-48 * time.Hour)), UpdatedAt: api.NewTime(testNow.Add(-48 * time.Hour))}}, nil
}

func (f *fakeClient) CreatePolicy(_ context.Context, p api.CreatePolicyParams, _ ...api.SubmitOption) (*api.Activity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.created = append(f.created, p)
	a := pendingActivity("act-new-policy", "alice", 0, api.Intent{CreatePolicyIntentV3: &p}, api.TypeCreatePolicyV3)
	if f.createStatus != "" {
		a.Status = f.createStatus
	}
	f.activities = append(f.activities, a)
	return &a, nil
}
func (f *fakeClient) GetUser(ctx context.Context, id string) (*api.User, error) {
	users, _ := f.ListUsers(ctx)
	for _, u := range users {
		if u.UserID == id {
			return &u, nil
		}
	}
	return nil, fmt.Errorf("no user %s", id)
}
func (f *fakeClient) GetPolicy(_ context.Context, id string) (*api.Policy, error) {
	return nil, fmt.Errorf("no policy %s", id)
}
func (f *fakeClient) GetAPIKey(_ context.Context, id string) (*api.APIKey, error) {
	for _, u := range f.users {
		for _, k := range u.APIKeys {
			if k.APIKeyID == id {
				return &k, nil
			}
		}
	}
	return nil, fmt.Errorf("no API key %s", id)
}
func (f *fakeClient) ListUsers(context.Context) ([]api.User, error) {
	if f.users != nil {
		return f.users, nil
	}
	return []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-bob", UserName: "bob"}, {UserID: "u-carol", UserName: "carol"}}, nil
}

func (f *fakeClient) GetOnrampTransactionStatus(context.Context, string, bool) (string, error) {
	return "", fmt.Errorf("the fake has no on-ramp transactions")
}

func (f *fakeClient) counts() (lists, approvals, rejections int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.lists), len(f.approvals), len(f.rejections)
}

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func pendingActivity(id, requester string, age time.Duration, in api.Intent, typ string) api.Activity {
	return api.Activity{
		ID: id, OrganizationID: "org-1", Status: api.StatusConsensusNeeded, Type: typ,
		Intent: in, Fingerprint: "sha256:" + fmt.Sprintf("%064x", len(id)*7919+int(age.Seconds())) + id,
		CanApprove: true, CanReject: true,
		CreatedAt: api.NewTime(testNow.Add(-age)), UpdatedAt: api.NewTime(testNow.Add(-age)),
		Votes: []api.Vote{{ID: "v-" + id, UserID: "u-" + requester, User: api.User{UserName: requester},
			ActivityID: id, Selection: api.VoteApproved, CreatedAt: api.NewTime(testNow.Add(-age))}},
	}
}

func sampleActivities() []api.Activity {
	return []api.Activity{
		pendingActivity("act-policy", "bob", 5*time.Minute,
			api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: "allow treasury", Effect: "EFFECT_ALLOW",
				Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.count() >= 2", Notes: "for finance"}},
			api.TypeCreatePolicyV3),
		pendingActivity("act-feature", "carol", 3*time.Hour,
			api.Intent{SetOrganizationFeatureIntent: &api.SetOrganizationFeatureParams{Name: "FEATURE_NAME_WEBHOOK", Value: "https://hooks.example/x"}},
			api.TypeSetOrganizationFeature),
		pendingActivity("act-keys", "bob", 50*time.Hour,
			api.Intent{DeleteAPIKeysIntent: &api.DeleteAPIKeysParams{UserID: "u-carol", APIKeyIDs: []string{"key-1"}}},
			api.TypeDeleteAPIKeys),
	}
}

// harness drives a Root model with a fake client, running commands as the program
// would (commands that take long, like refresh ticks and toast expiry, are dropped).
type harness struct {
	t    testing.TB
	fake *fakeClient
	root *Root
	msgs []tea.Msg // every message the commands produced
	// slowCommands is how long a command may run before the harness takes it
	// for one that blocks on a delay it should have injected (0: 5 s). Tests
	// that move megabytes through the local service set it longer: under the
	// load of the whole suite, their commands legitimately take seconds. The
	// harness always waits out the console's own deadline as well
	// (commandWait), so a command that ends at it shows its error.
	slowCommands time.Duration
	// typingAhead delivers keys as one burst (typeAhead): no time passes
	// between them, so a dialog they open is not armed before the next.
	typingAhead bool
}

func newHarness(t testing.TB, fake *fakeClient, readOnly bool, refresh time.Duration) *harness {
	t.Helper()
	var sub Submitter = fake
	if readOnly {
		sub = nil
	}
	h := newHarnessWith(t, fake, sub, theme.Options{Dark: true, NoColor: true}, refresh)
	h.fake = fake
	return h
}

// readerSubmitter is a client that can do both, as *api.Client can.
type readerSubmitter interface {
	Reader
	Submitter
}

// newHarnessFor drives a Root on any client, with the theme given.
func newHarnessFor(t testing.TB, c readerSubmitter, th theme.Options, refresh time.Duration) *harness {
	t.Helper()
	return newHarnessWith(t, c, c, th, refresh)
}

// newHarnessWith drives a Root on a reader and a submitter (nil: read-only).
func newHarnessWith(t testing.TB, c Reader, sub Submitter, th theme.Options, refresh time.Duration) *harness {
	t.Helper()
	return newSlowHarness(t, c, sub, th, refresh, 0)
}

// newSlowHarness is newHarnessWith whose commands may take up to
// slowCommands (harness.slowCommands), its first ones included.
func newSlowHarness(t testing.TB, c Reader, sub Submitter, th theme.Options, refresh, slowCommands time.Duration) *harness {
	t.Helper()
	// The console's requests get as long as the harness waits for them: the
	// default 15 s is too short for megabytes under the race detector on a
	// busy machine.
	r := NewRoot(Options{Reader: c, Submitter: sub, Profile: "demo", Theme: th,
		Refresh: refresh, Now: func() time.Time { return testNow }, Static: true,
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	r.common.Timeout = slowCommands
	h := &harness{t: t, root: r, slowCommands: slowCommands}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(r.Init())
	return h
}

// newClockedHarness is newHarness on a clock the test moves: advance *now, then
// send clockMsg{} as the root's ticker would.
func newClockedHarness(t testing.TB, fake *fakeClient) (*harness, *time.Time) {
	t.Helper()
	now := new(time.Time)
	*now = testNow
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return *now }, Static: true,
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())
	return h, now
}

// send delivers msg to the root and runs what it returns. A key press is
// one a person types: the moment before it arms every dialog waiting to arm
// (the harness's Tick never fires), unless the keys are typed ahead.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	if _, ok := msg.(tea.KeyPressMsg); ok && !h.typingAhead {
		h.armDialogs()
	}
	_, cmd := h.root.Update(msg)
	h.run(cmd)
}

// key presses s; "@Title" presses the number key of the screen with that
// title, so tests do not change when a tab is added before it.
func (h *harness) key(s string) {
	h.t.Helper()
	if title, ok := strings.CutPrefix(s, "@"); ok && title != "" {
		for i, sc := range h.root.screens {
			if sc.Title() == title {
				h.send(keyPress(strconv.Itoa(i + 1)))
				return
			}
		}
		h.t.Fatalf("no screen titled %q", title)
	}
	h.send(keyPress(s))
}

// typeAhead types keys in one burst, as tmux send-keys -l or a fast typist
// does: every key is handled before any tick, so no dialog a key opens is
// armed by the time the next arrives.
func (h *harness) typeAhead(keys ...string) {
	h.t.Helper()
	h.typingAhead = true
	defer func() { h.typingAhead = false }()
	for _, k := range keys {
		h.key(k)
	}
}

// armDialogs delivers the arming tick of every dialog waiting for one, as
// the program does DialogArmDelay after the dialog opened.
func (h *harness) armDialogs() {
	h.t.Helper()
	for _, d := range h.root.dialogs.dialogs {
		if a, ok := d.(armingDialog); ok && a.guard().token != 0 && !a.guard().armed {
			_, cmd := h.root.Update(dialogArmedMsg{token: a.guard().token})
			h.run(cmd)
		}
	}
}

// run executes cmd and feeds its messages back, expanding batches and sequences.
// Delays are injected (Options.Tick), so every command answers at once.
func (h *harness) run(cmd tea.Cmd) {
	h.t.Helper()
	msgs, err := collectUntil(cmd, h.commandWait())
	if err != nil {
		h.t.Fatal(err) // this test only: the binary's other tests still run
	}
	for _, msg := range msgs {
		h.msgs = append(h.msgs, msg)
		switch msg.(type) {
		case tea.QuitMsg:
			continue
		}
		if reflect.TypeOf(msg).PkgPath() == "charm.land/bubbletea/v2" {
			continue // terminal requests (background colour, clipboard) the program would handle
		}
		h.send(msg)
	}
}

func collect(cmd tea.Cmd) []tea.Msg { return collectWithin(cmd, 0) }

// commandGrace is how long past its deadline a command may take to return
// its timeout error: on a loaded 2-core machine under the race detector, the
// goroutine that sees the context end may wait seconds for a core.
const commandGrace = 30 * time.Second

// commandWait is how long the harness waits for one command: slowCommands
// (0: 5 s), but never less than the console's per-call deadline and then
// some. A command whose calls reach their deadline ends with "did not answer
// in time", which the test must see as such; a wait that ended with that
// deadline would take it for a command that blocks.
func (h *harness) commandWait() time.Duration {
	return max(h.slowCommands, h.root.common.timeout()+commandGrace)
}

// collectWithin is collect, panicking on a command that runs longer than
// limit (0: 5 s), taken for one that blocks.
func collectWithin(cmd tea.Cmd, limit time.Duration) []tea.Msg {
	msgs, err := collectUntil(cmd, limit)
	if err != nil {
		panic(err)
	}
	return msgs
}

// collectUntil runs cmd and returns its messages, expanding batches and
// sequences; a command that runs longer than limit (0: 5 s) is an error,
// with every goroutine's stack, to show where it blocked.
func collectUntil(cmd tea.Cmd, limit time.Duration) ([]tea.Msg, error) {
	if limit == 0 {
		limit = 5 * time.Second
	}
	if cmd == nil {
		return nil, nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(limit):
		stacks := make([]byte, 1<<20)
		stacks = stacks[:runtime.Stack(stacks, true)]
		return nil, fmt.Errorf("a command blocked for %v: inject its delay, or bound its I/O by the console's deadline (Common.ctx)\n%s", limit, stacks)
	}
	var cmds []tea.Cmd
	switch m := msg.(type) {
	case nil:
		return nil, nil
	case tea.BatchMsg:
		cmds = m
	default:
		if reflect.TypeOf(msg).Name() != "sequenceMsg" {
			return []tea.Msg{msg}, nil
		}
		cmds = reflect.ValueOf(msg).Convert(reflect.TypeOf([]tea.Cmd{})).Interface().([]tea.Cmd)
	}
	var out []tea.Msg
	for _, c := range cmds {
		msgs, err := collectUntil(c, limit)
		if err != nil {
			return nil, err
		}
		out = append(out, msgs...)
	}
	return out, nil
}

func keyPress(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	}
	if strings.HasPrefix(s, "ctrl+") && len(s) == 6 {
		return tea.KeyPressMsg{Code: rune(s[5]), Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// clipboard returns what the commands asked to copy, in order.
func (h *harness) clipboard() []string {
	var out []string
	for _, m := range h.msgs {
		if reflect.TypeOf(m).String() == "tea.setClipboardMsg" {
			out = append(out, reflect.ValueOf(m).String())
		}
	}
	return out
}

func (h *harness) quit() bool {
	for _, m := range h.msgs {
		if _, ok := m.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

func (h *harness) activities() *Activities { return h.root.screens[0].(*Activities) }

// voteDialogOpen reports whether the vote's confirm dialog is on top of the root's
// dialog stack.
func (h *harness) voteDialogOpen() bool {
	d := h.root.dialogs.Top()
	return d != nil && d.ID() == voteDialogID
}

func (f *fakeClient) GetMfaPolicies(_ context.Context, user string) ([]api.MfaPolicy, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mfaPolicies[user], nil
}

// CreateMfaPolicy records the policy and answers a completed activity.
func (f *fakeClient) CreateMfaPolicy(_ context.Context, p api.CreateMfaPolicyParams) (*api.Activity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mfaCreates = append(f.mfaCreates, p)
	return &api.Activity{ID: "act-mfa", Status: api.StatusCompleted, Type: api.TypeCreateMfaPolicy}, nil
}
func (f *fakeClient) GetMfaPolicy(_ context.Context, user, id string) (*api.MfaPolicy, error) {
	return nil, fmt.Errorf("no MFA policy %s", id)
}
func (f *fakeClient) GetMfaStatus(_ context.Context, activity, user string) ([]api.MfaStatus, error) {
	return nil, nil
}

// SetOrganizationFeature records the feature set and answers a pending activity.
func (f *fakeClient) SetOrganizationFeature(_ context.Context, p api.SetOrganizationFeatureParams, _ ...api.SubmitOption) (*api.Activity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.featureSets = append(f.featureSets, p)
	if f.featureErr != nil {
		return nil, f.featureErr
	}
	return &api.Activity{ID: "act-feature", Status: api.StatusConsensusNeeded, Type: api.TypeSetOrganizationFeature}, nil
}

// DeleteAPIKeys records the deletion and answers a pending activity.
func (f *fakeClient) DeleteAPIKeys(_ context.Context, p api.DeleteAPIKeysParams, _ ...api.SubmitOption) (*api.Activity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keyDeletes = append(f.keyDeletes, p)
	return &api.Activity{ID: "act-delete", Status: api.StatusConsensusNeeded, Type: api.TypeDeleteAPIKeys}, nil
}

// submitAndConfirm presses ctrl+s in a form and answers y to the confirm
// that every submit asks for first (failing when none is asked).
func (h *harness) submitAndConfirm() {
	h.t.Helper()
	h.key("ctrl+s")
	if _, ok := h.root.dialogs.Top().(*ConfirmDialog); !ok {
		h.t.Fatalf("ctrl+s asked for no confirm:\n%s", h.frame())
	}
	h.key("y")
}

// memberConsole is the console of the member whose client c is (reading and
// submitting as them), without colour, in a 160×48 window.
func memberConsole(t testing.TB, c interface {
	Reader
	Submitter
}) *harness {
	t.Helper()
	h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	return h
}
