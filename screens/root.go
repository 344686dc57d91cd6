package screens

import (
	"log/slog"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

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
	// View renders the screen's body in width×height cells.
	View(width, height int) string
	// Keys are the screen's keys for the help line and the full help.
	Keys() ui.KeyMap
	// Capturing reports that the screen is taking text or a dialog answer: the root
	// then keeps only ctrl+c for itself.
	Capturing() bool
	// Status is what the status bar shows for this screen.
	Status() ScreenStatus
}

// ScreenStatus is a screen's part of the status bar.
type ScreenStatus struct {
	LastRefresh time.Time
	AutoRefresh time.Duration
	Busy        string // what is in flight
	Err         string // latest error, until the next success
}

// ScreenFactory builds a screen on the shared state; Register adds more screens.
type ScreenFactory func(c *Common) Screen

// Root is the console's top-level model.
type Root struct {
	common   *Common
	screens  []Screen
	active   int
	width    int
	height   int
	keys     globalKeys
	fullHelp bool
	toasts   ui.Toasts
	spinner  spinner.Model
	spinning bool
	orgErr   string
	static   bool
	keyKind  string
}

// Options configure the console.
type Options struct {
	Client  Client
	Profile string
	Theme   theme.Options
	Refresh time.Duration
	Now     func() time.Time // nil = time.Now
	Screens []ScreenFactory  // nil = DefaultScreens()
	// Tick schedules delayed messages; nil = tea.Tick. Tests pass one that never fires.
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	// Static turns the spinner's animation off (tests; people who prefer no motion).
	Static bool
	// Logger receives the console's log; nil discards it.
	Logger *slog.Logger
	// Proofs configure the Boot proofs screen and the app proofs of activities.
	Proofs ProofSettings
	// KeyKind says in the status bar how the stamping key is held ("file key",
	// "agent key", "hardware key (agent)"); "" shows nothing.
	KeyKind string
}

// DefaultScreens are the screens in tab order.
func DefaultScreens() []ScreenFactory {
	return []ScreenFactory{
		func(c *Common) Screen { return NewActivities(c) },
		func(c *Common) Screen { return NewBootProofs(c) },
		func(c *Common) Screen { return NewOrganization(c) },
	}
}

// NewRoot builds the console.
func NewRoot(o Options) *Root {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	tick := o.Tick
	if tick == nil {
		tick = tea.Tick
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	c := &Common{Client: o.Client, Theme: theme.New(o.Theme), Options: o.Theme, Now: now,
		Profile: o.Profile, Refresh: o.Refresh, Tick: tick, Log: logger, Proofs: o.Proofs}
	r := &Root{common: c, keys: newGlobalKeys(), width: 80, height: 24, static: o.Static, keyKind: o.KeyKind}
	r.toasts.Tick = tick
	r.spinner = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	factories := o.Screens
	if factories == nil {
		factories = DefaultScreens()
	}
	for _, f := range factories {
		r.screens = append(r.screens, f(c))
	}
	return r
}

// clockMsg redraws the times that count up ("refreshed 12s ago", ages) every
// few seconds.
type clockMsg struct{}

const clockEvery = 5 * time.Second

func (r *Root) clock() tea.Cmd {
	return r.common.Tick(clockEvery, func(time.Time) tea.Msg { return clockMsg{} })
}

// Init asks for the background colour and loads the organization and every screen.
func (r *Root) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, loadOrg(r.common), r.clock()}
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

// Update routes msg.
func (r *Root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.width, r.height = msg.Width, msg.Height
		return r, nil
	case tea.BackgroundColorMsg:
		opts := r.common.Options
		opts.Dark = msg.IsDark()
		r.common.Options = opts
		r.common.Theme = theme.New(opts)
		return r, r.broadcast(themeChangedMsg{})
	case ui.ToastMsg:
		return r, r.toasts.Push(msg)
	case clockMsg:
		return r, tea.Batch(r.broadcast(msg), r.clock())
	case orgLoadedMsg:
		if msg.org.Loaded {
			r.common.Org = msg.org
		}
		r.orgErr = ""
		if msg.err != nil {
			r.orgErr = errorText(msg.err)
		}
		cmds = append(cmds, r.broadcast(msg))
	case spinner.TickMsg:
		if !r.busy() {
			r.spinning = false
			return r, nil
		}
		var cmd tea.Cmd
		r.spinner, cmd = r.spinner.Update(msg)
		return r, cmd
	case tea.KeyPressMsg:
		cmds = append(cmds, r.handleKey(msg))
	default:
		if r.toasts.Update(msg) {
			return r, nil
		}
		cmds = append(cmds, r.broadcast(msg))
	}
	if r.busy() && !r.spinning && !r.static {
		r.spinning = true
		cmds = append(cmds, r.spinner.Tick)
	}
	return r, tea.Batch(cmds...)
}

func (r *Root) busy() bool { return r.screens[r.active].Status().Busy != "" }

// themeChangedMsg tells screens to pick up the new theme from Common.
type themeChangedMsg struct{}

func (r *Root) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, len(r.screens))
	for i, s := range r.screens {
		r.screens[i], cmds[i] = s.Update(msg)
	}
	return tea.Batch(cmds...)
}

func (r *Root) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, r.keys.ForceQuit) {
		return tea.Quit
	}
	active := r.screens[r.active]
	if !active.Capturing() {
		switch {
		case key.Matches(k, r.keys.Quit):
			return tea.Quit
		case key.Matches(k, r.keys.Help):
			r.fullHelp = !r.fullHelp
			return nil
		case key.Matches(k, r.keys.Back) && r.fullHelp:
			r.fullHelp = false
			return nil
		case key.Matches(k, r.keys.Next):
			r.active = (r.active + 1) % len(r.screens)
			return nil
		case key.Matches(k, r.keys.Prev):
			r.active = (r.active + len(r.screens) - 1) % len(r.screens)
			return nil
		case key.Matches(k, r.keys.Jump):
			if n := int(k.String()[0] - '1'); n >= 0 && n < len(r.screens) {
				r.active = n
			}
			return nil
		}
	}
	var cmd tea.Cmd
	r.screens[r.active], cmd = active.Update(k)
	return cmd
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

// View renders the tab bar, the active screen, toasts, help and the status bar.
func (r *Root) View() tea.View {
	v := tea.NewView(r.Render())
	v.AltScreen = true
	v.WindowTitle = r.WindowTitle()
	return v
}

// Render is the frame as a string (what View shows), for tests and goldens.
func (r *Root) Render() string {
	th := r.common.Theme
	w, h := max(r.width, 20), max(r.height, 5)
	screen := r.screens[r.active]

	tabs := []string{th.Title.Render("vigil")}
	for i, s := range r.screens {
		label := string(rune('1'+i)) + " " + s.Title()
		if i == r.active {
			tabs = append(tabs, th.ActiveTab.Render(label))
		} else {
			tabs = append(tabs, th.InactiveTab.Render(label))
		}
	}
	top := ansi.Truncate(strings.Join(tabs, "  "), w, "…")

	// While a screen captures keys (filter, dialog) only ctrl+c stays global.
	global, globalFull := r.keys.ShortHelp(), r.keys.FullHelp()
	if screen.Capturing() {
		global, globalFull = []key.Binding{r.keys.ForceQuit}, [][]key.Binding{{r.keys.ForceQuit}}
	}
	var help string
	if r.fullHelp {
		help = ui.FullHelp(th, append(screen.Keys().FullHelp(), globalFull...), w)
	} else {
		help = ui.ShortHelp(th, append(screen.Keys().ShortHelp(), global...), w)
	}
	st := screen.Status()
	org := r.common.Org
	errText := st.Err
	if errText == "" {
		errText = r.orgErr
	}
	bar := ui.StatusBar(th, ui.Status{Profile: r.common.Profile, Org: org.Name, User: org.UserName, Key: r.keyKind,
		ReadOnly: r.common.ReadOnly(), AutoRefresh: st.AutoRefresh, LastRefresh: st.LastRefresh,
		Busy: st.Busy, Spinner: r.spinner.View(), Err: errText, Now: r.common.Now()}, w)

	// Help never takes the last body line: on a small window it is cut.
	if hl := strings.Split(help, "\n"); len(hl) > h-3 {
		help = strings.Join(hl[:h-3], "\n")
	}
	bodyH := h - 2 - lipgloss.Height(help)
	body := screen.View(w, bodyH)
	lines := strings.Split(body, "\n")
	if len(lines) > bodyH {
		lines = lines[:bodyH]
	}
	for len(lines) < bodyH {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "")
	}
	// Toasts overlay the bottom right of the body, so nothing moves when they come and go.
	toasts := r.toasts.Lines(th, max(w/2, 20))
	for i, t := range toasts {
		row := bodyH - len(toasts) + i
		if row < 0 {
			continue
		}
		tw := ansi.StringWidth(t)
		left := ansi.Truncate(lines[row], max(w-tw-1, 0), "")
		if pad := w - tw - ansi.StringWidth(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		lines[row] = left + t
	}
	return strings.Join(append(append([]string{top}, lines...), help, bar), "\n")
}
