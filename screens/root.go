package screens

import (
	"log/slog"
	"reflect"
	"slices"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// Screen is one page of the console. The root model owns the window and the global
// keys, and hands every other key to the active screen and every other message to
// all screens (each ignores what is not its own).
type Screen interface {
	// Title is the name on the tab bar.
	Title() string
	Init() tea.Cmd
	Update(msg tea.Msg) (Screen, tea.Cmd)
	// SetSize gives the screen its body's size in cells; the root calls it whenever
	// the window or the lines around the body (help, dialogs) change, as
	// soft-serve's components are sized. Layout work (wrapping, column widths)
	// happens here or in Update, never in View.
	SetSize(width, height int)
	// View renders the screen's body in the size last given; it changes nothing.
	View() string
	// Keys are the screen's keys for the help line and the full help.
	Keys() ui.KeyMap
	// Capturing reports that the screen is taking text or a dialog answer: the root
	// then keeps only ctrl+c for itself. A list screen's open filter need not
	// be reported: the root sees it itself (listScreen).
	Capturing() bool
	// Status is what the status bar shows for this screen.
	Status() ScreenStatus
}

// ScreenStatus is a screen's part of the status bar.
type ScreenStatus struct {
	LastRefresh time.Time
	AutoRefresh time.Duration
	AutoPaused  bool   // the user paused the auto-refresh the screen has
	Busy        string // what is in flight
	Err         string // latest error, until the next success
	// Stale: the latest refresh failed and the data shown is from
	// LastRefresh (the status bar marks it).
	Stale bool
	// Submitting are the screen's submits in flight (votes included): q asks
	// before quitting while there are any.
	Submitting []Submission
}

// ScreenFactory builds a screen on the shared state; Register adds more screens.
type ScreenFactory func(c *Common) Screen

// Root is the console's top-level model.
type Root struct {
	common       *Common
	serviceClock ServiceClock // nil: none to tell the skew of
	screens      []Screen
	active       int
	width        int
	height       int
	keys         globalKeys
	fullHelp     bool
	toasts       ui.Toasts
	spinner      spinner.Model
	spinning     bool
	orgErr       string
	// orgPartial: the organization shown is the part of a reload that
	// failed half-way, accepted because no whole one was known; the next
	// load, whole or not, may replace it.
	orgPartial bool
	// orgReload: a reload for a completed activity is in flight, and
	// whether another completion came meanwhile (reload once more).
	orgReload reloadGate
	orgLoads  orgLoads
	// orgWatch: the newest activities at the last look (org_watch.go).
	orgWatch orgWatch
	static   bool
	mouse    bool
	keyKind  string
	// dialogs are the modals over the screens, routed first.
	dialogs dialogStack
	// armTokens counts the arming ticks started, so that each names its dialog.
	armTokens int
	// dialogAwaited: the last key asked for a dialog that has not arrived
	// yet; keys until it does are dropped (see dialogAsker).
	dialogAwaited bool
	// log is every toast, error and vote result of the session (the messages view).
	log messageLog
	// lastErr is each screen's status error as last logged, so a lasting error
	// is logged once, not on every message.
	lastErr []string
	// clockOwed: the screen at the index was hidden at a tick, so its rows
	// show the ages of an earlier one until it is shown (showActive).
	clockOwed []bool
	// bodyW and bodyH are the size last given to the screens (SetSize).
	bodyW, bodyH int
	// opsInFlight are the operation forms' submits in flight (the forms are
	// the palette's, any screen's).
	opsInFlight []*Submission
	// heldJump is an activity a reply asked to show while the user was
	// typing (a filter, a form, a dialog): it waits for the user to go to
	// Activities (see root_jump.go).
	heldJump *ShowActivityMsg
}

// Options configure the console.
type Options struct {
	// Reader makes the queries (required).
	Reader Reader
	// Submitter makes the submits and votes; nil is read-only mode.
	Submitter Submitter
	Profile   string
	Theme     theme.Options
	Refresh   time.Duration
	// Now is the console's clock; nil is Clock's ServiceNow, or time.Now
	// without a Clock. Tests inject their own.
	Now func() time.Time
	// MachineNow is this machine's clock, by which the console judges what
	// the service says about itself (a boot proof's age); nil is Now when
	// set (a test that fixes one clock fixes both), else time.Now.
	MachineNow func() time.Time
	// Clock is the service's clock (*api.Client is one); nil is the Reader's
	// if it is one. Every service timestamp (a vote's round, a key's expiry,
	// an age) is judged by it, and the status bar says when it is far from
	// this machine's.
	Clock   ServiceClock
	Screens []ScreenFactory // nil = DefaultScreens()
	// Tick schedules delayed messages; nil = tea.Tick. Tests pass one that never fires.
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	// Static turns the spinner's animation off (tests; people who prefer no motion).
	Static bool
	// Logger receives the console's log; nil discards it.
	Logger *slog.Logger
	// Proofs configure the Boot proofs screen and the app proofs of activities.
	Proofs ProofSettings
	// Mouse turns mouse support on: click a tab or a row, wheel scrolls.
	Mouse bool
	// Notify turns desktop notifications on (see Common.Notify).
	Notify bool
	// SavedFilters are the profile's named filters (see NormalizeFilter).
	SavedFilters []SavedFilter
	// LoginKit and AuthProxyURL: the profile's auth proxy (see Common.LoginKit).
	LoginKit     LoginKitSource
	AuthProxyURL string
	// Webhooks feeds the Webhooks screen (see Common.Webhooks), else
	// NoWebhooksHint says why there is no listener.
	Webhooks       *WebhookFeed
	NoWebhooksHint string
	// PublicKey is the stamping key's public key (hex), "" when unknown, and
	// Scheme its scheme (see Common.OwnScheme).
	PublicKey, Scheme string
	// KeyKind says in the status bar how the stamping key is held ("file key",
	// "agent key", "hardware key (agent)"); "" shows nothing.
	KeyKind string
	// TLSFetcherPublicKey is the profile's tls_fetcher_public_key (see Common).
	TLSFetcherPublicKey string
	// ConfigPath and CLIProfileNote: how a vigil verb reaches this profile
	// (see Common.ConfigPath).
	ConfigPath, CLIProfileNote string
}

// ServiceClock is the service's clock as its replies tell it (api.Client).
type ServiceClock interface {
	ServiceNow() time.Time
	// ClockSkew is how far the service's clock is ahead of this machine's;
	// known is false until a reply has said.
	ClockSkew() (skew time.Duration, known bool)
}

// DefaultScreens are the screens in tab order.
func DefaultScreens() []ScreenFactory {
	return []ScreenFactory{
		func(c *Common) Screen { return NewActivities(c) },
		func(c *Common) Screen { return NewBootProofs(c) },
		func(c *Common) Screen { return NewOrganization(c) },
		func(c *Common) Screen { return NewPolicies(c) },
		func(c *Common) Screen { return NewUsers(c) },
		func(c *Common) Screen { return NewMfaPolicies(c) },
		func(c *Common) Screen { return NewWebhooks(c) },
	}
}

// NewRoot builds the console.
func NewRoot(o Options) *Root {
	clock := o.Clock
	if clock == nil {
		clock, _ = o.Reader.(ServiceClock)
	}
	now := o.Now
	switch {
	case now != nil:
	case clock != nil:
		now = clock.ServiceNow
	default:
		now = time.Now
	}
	machineNow := o.MachineNow
	switch {
	case machineNow != nil:
	case o.Now != nil:
		machineNow = o.Now
	default:
		machineNow = time.Now
	}
	tick := o.Tick
	if tick == nil {
		tick = tea.Tick
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	// Only the queries of the Reader are kept: even if it is also a Submitter
	// (*api.Client is), nothing can reach its submits through Common.Reader.
	submitter := o.Submitter
	if v := reflect.ValueOf(submitter); submitter != nil && v.Kind() == reflect.Pointer && v.IsNil() {
		submitter = nil // a nil *api.Client is no submitter: read-only, not a panic
	}
	// Reads and submits note alike whether the service refused the
	// console's key: either locks the console out (root_lockout.go).
	refused := new(atomic.Bool)
	if submitter != nil {
		submitter = submitsNoted{s: submitter, refused: refused}
	}
	c := &Common{Reader: queriesOnly{r: o.Reader, refused: refused}, Submitter: submitter, Theme: theme.New(o.Theme), Options: o.Theme, Now: now, MachineNow: machineNow,
		Profile: o.Profile, Refresh: o.Refresh, Tick: tick, Log: logger, Proofs: o.Proofs, Notify: o.Notify, SavedFilters: o.SavedFilters,
		LoginKit: o.LoginKit, AuthProxyURL: o.AuthProxyURL, Webhooks: o.Webhooks, NoWebhooksHint: o.NoWebhooksHint,
		TLSFetcherPublicKey: o.TLSFetcherPublicKey, OwnPublicKey: o.PublicKey, OwnScheme: o.Scheme,
		ConfigPath: o.ConfigPath, CLIProfileNote: o.CLIProfileNote, Compiled: policy.NewCompileCache(consoleCompileBudget)}
	r := &Root{common: c, serviceClock: clock, keys: newGlobalKeys(), width: 80, height: 24, static: o.Static, mouse: o.Mouse, keyKind: o.KeyKind}
	r.toasts.Tick = tick
	r.spinner = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	factories := o.Screens
	if factories == nil {
		factories = DefaultScreens()
	}
	for _, f := range factories {
		r.screens = append(r.screens, f(c))
	}
	r.keys.setScreens(len(r.screens))
	r.lastErr = make([]string, len(r.screens))
	r.clockOwed = make([]bool, len(r.screens))
	r.sizeScreens()
	return r
}

// clockMsg redraws the times that count up ("refreshed 12s ago", ages) every
// few seconds. Only the screen on show redraws: a hidden one gets the tick
// unseen (its rows can be thousands, and rebuilding them all froze every key),
// keeps only what follows the clock unseen (the vote dialog), and the root
// sends it a seen tick when it is shown (showActive).
type clockMsg struct{ unseen bool }

const clockEvery = 5 * time.Second

func (r *Root) clock() tea.Cmd {
	return r.common.Tick(clockEvery, func(time.Time) tea.Msg { return clockMsg{} })
}

// Init asks for the background colour and loads the organization and every screen.
func (r *Root) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, r.loadOrg(), r.clock()}
	for _, s := range r.screens {
		cmds = append(cmds, s.Init())
	}
	return tea.Batch(cmds...)
}

// ThemeOptions are the theme options in effect (after the terminal reported its
// background).
func (r *Root) ThemeOptions() theme.Options { return r.common.Options }

// ActiveTitle is the title of the screen showing.
func (r *Root) ActiveTitle() string { return r.screens[r.active].Title() }

// Update routes msg: dialogs first, then the global keys, then the screens.
func (r *Root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	shown := r.active
	cmd := r.update(msg)
	if r.active != shown {
		cmd = tea.Batch(cmd, r.hide(shown))
	}
	if _, ok := msg.(activityChange); ok {
		cmd = tea.Batch(cmd, r.announceActivitiesChanged())
	} else if r.active != shown {
		cmd = tea.Batch(cmd, r.showActive())
	}
	if c := r.startArming(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	if c := r.syncLockOut(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	r.logScreenErrors()
	if c := r.settleQuitQuestion(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	r.sizeDialogs()
	r.sizeScreens()
	return r, cmd
}

// sizeScreens gives every screen the body's size when it changed: the window may
// have, or the help under the body may have grown or shrunk a line (another
// screen, a dialog, the full help, a key enabled).
func (r *Root) sizeScreens() {
	if r.tooSmall() {
		return
	}
	_, _, bodyH := r.layout()
	if r.width == r.bodyW && bodyH == r.bodyH {
		return
	}
	r.bodyW, r.bodyH = r.width, bodyH
	for _, s := range r.screens {
		s.SetSize(r.width, bodyH)
	}
}

func (r *Root) update(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.width, r.height = msg.Width, msg.Height
		r.sizeDialogs()
		return nil
	case tea.BackgroundColorMsg:
		opts := r.common.Options
		opts.Dark = msg.IsDark()
		r.common.Options = opts
		r.common.Theme = theme.New(opts)
		return r.broadcast(themeChangedMsg{})
	case OpenDialogMsg:
		r.openDialog(msg.Dialog)
		r.dialogArrived()
		return nil
	case CloseDialogMsg:
		r.dialogs.Close(msg.ID)
		return nil
	case withdrawnDialogMsg:
		r.dialogs.Remove(msg.dialog)
		return nil
	case dialogArmedMsg:
		for _, d := range r.dialogs.dialogs {
			if a, ok := d.(armingDialog); ok {
				a.guard().arm(msg.token)
			}
		}
		return nil
	case quitMsg:
		return r.quit()
	case opFormLoadedMsg:
		return msg.form.loaded(msg)
	case opSendMsg:
		r.opsInFlight = append(r.opsInFlight, msg.sub)
		return msg.send
	case opSubmittedMsg:
		r.opsInFlight = slices.DeleteFunc(r.opsInFlight, func(s *Submission) bool { return s == msg.sub })
		cmds = append(cmds, r.broadcast(msg))
	case gotoScreenMsg:
		return r.goTo(msg.index)
	case ShowActivityMsg:
		return r.showActivity(msg)
	case toggleHelpMsg:
		r.fullHelp = !r.fullHelp
		return nil
	case ui.ToastMsg:
		if !msg.Logged {
			kind := messageInfo
			if msg.Bad {
				kind = messageError
			}
			r.log.add(r.common.Now(), kind, msg.Text)
		}
		return r.toasts.Push(msg)
	case activityVotedMsg, voteRecheckedMsg:
		cmd := r.broadcast(msg)
		r.syncScreenErrors() // the vote's own entry (voteReportMsg) holds its error in full
		return cmd
	case voteReportMsg:
		// The vote's own entry holds its error in full: the status bar's
		// copy of it is not logged again.
		cmd := r.logVoteReport(msg.report)
		r.syncScreenErrors()
		return cmd
	case clockMsg:
		return tea.Batch(r.tickScreens(), r.clock())
	case orgChangedMsg:
		return r.orgChanged(msg)
	case reloadOrgMsg:
		return r.loadOrg()
	case orgRetryMsg:
		return tea.Batch(r.retryOrg(), r.watchOrg())
	case orgWatchedMsg:
		return r.orgWatched(msg)
	case orgLoadedMsg:
		cmds = append(cmds, r.orgLoaded(msg))
	case spinner.TickMsg:
		if !r.busy() {
			r.spinning = false
			return nil
		}
		var cmd tea.Cmd
		r.spinner, cmd = r.spinner.Update(msg)
		return cmd
	case tea.KeyPressMsg:
		cmds = append(cmds, r.byUser(func() tea.Cmd { return r.handleKey(msg) }))
	case pressKeyMsg:
		cmds = append(cmds, r.byUser(func() tea.Cmd { return r.handleKey(msg.key) }))
	case tea.PasteMsg:
		if r.tooSmall() {
			return nil
		}
		if r.dialogAwaited {
			return nil // for the screen below, as a key would be
		}
		pasted := msg
		msg = tea.PasteMsg{Content: ui.PastedLine(msg.Content)}
		if r.dialogs.Len() > 0 {
			if fd, ok := r.dialogs.Top().(*opFormDialog); ok && fd.pick == nil {
				return r.dialogs.Update(pasted) // the field joins its lines (ui.Field.OneLine)
			}
			return r.dialogs.Update(msg)
		}
		// Only the screen the user sees takes a paste, into its open
		// filter, form or editor: an editor left open on another screen
		// must not.
		active := r.screens[r.active]
		if ls, ok := active.(listScreen); ok && filtering(active) {
			return typeInFilter(ls, msg)
		}
		if fs, ok := active.(formScreen); ok && active.Capturing() {
			return fs.pasteIntoForm(pasted) // the field joins its lines
		}
		var cmd tea.Cmd
		r.screens[r.active], cmd = active.Update(msg)
		return cmd
	case tea.MouseClickMsg:
		if r.dialogAwaited {
			return nil // dropped as a key would be: the dialog is for the row highlighted now
		}
		return r.byUser(func() tea.Cmd { return r.handleClick(msg.Mouse()) })
	case tea.MouseWheelMsg:
		if r.tooSmall() || r.dialogAwaited {
			return nil
		}
		return r.handleWheel(msg.Mouse())
	case tea.MouseMsg:
		return nil // motion and release: nothing uses them
	default:
		if r.toasts.Update(msg) {
			return nil
		}
		cmds = append(cmds, r.broadcast(msg))
	}
	if r.busy() && !r.spinning && !r.static {
		r.spinning = true
		cmds = append(cmds, r.spinner.Tick)
	}
	return tea.Batch(cmds...)
}

// logScreenErrors records each screen's status error when it changes, in full.
func (r *Root) logScreenErrors() {
	for i, s := range r.screens {
		e := s.Status().Err
		if e != "" && e != r.lastErr[i] {
			r.log.add(r.common.Now(), messageError, s.Title()+": "+e)
		}
		r.lastErr[i] = e
	}
}

func (r *Root) syncScreenErrors() {
	for i, s := range r.screens {
		r.lastErr[i] = s.Status().Err
	}
}

func (r *Root) busy() bool { return r.activeStatus().Busy != "" }

// activeStatus is the active screen's status, with an operation form's submit
// in flight said when the screen has nothing busier to say: the form closed
// when it was sent, so no screen reports it.
func (r *Root) activeStatus() ScreenStatus {
	st := r.screens[r.active].Status()
	if st.Busy == "" && len(r.opsInFlight) > 0 {
		st.Busy = "submitting " + r.opsInFlight[0].What + "…"
	}
	return st
}

// WindowTitle is "vigil — <org> (<profile>)", cleaned.
func (r *Root) WindowTitle() string {
	org := r.common.Org.Name
	if org == "" {
		org = r.common.Org.ID
	}
	if org == "" {
		org = "connecting…"
	}
	t := "vigil — " + org
	if r.common.Profile != "" {
		t += " (" + r.common.Profile + ")"
	}
	return ui.Clean(t)
}

// View renders the tab bar, the active screen, dialogs, toasts, help and the
// status bar.
func (r *Root) View() tea.View {
	v := tea.NewView(r.Render())
	v.AltScreen = true
	v.WindowTitle = r.WindowTitle()
	if r.mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}
