package screens

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// Organization is a read-only view of who you are, the root quorum and the features.
type Organization struct {
	c       *Common
	pane    ui.Detail
	keys    organizationKeys
	loading bool
	err     string
	width   int
	// The auth proxy's login-kit configuration, when the profile has one.
	kit        *api.WalletKitConfig
	kitErr     string
	kitLoading bool
}

// NewOrganization builds the screen; it shows what the root model loaded at start.
func NewOrganization(c *Common) *Organization {
	o := &Organization{c: c, pane: ui.NewDetail(c.Theme), loading: true,
		keys: newOrganizationKeys(), kitLoading: c.LoginKit != nil}
	o.render()
	return o
}

// SetSize implements Screen: the heading takes a line, the pane the rest.
func (o *Organization) SetSize(width, height int) {
	o.width = width
	o.pane.SetSize(width, max(height-1, 1))
}

// Title implements Screen.
func (o *Organization) Title() string { return "Organization" }

// Init implements Screen; the root model already loads the organization, the
// screen loads the login-kit configuration.
func (o *Organization) Init() tea.Cmd { return loadLoginKit(o.c) }

// Capturing implements Screen.
func (o *Organization) Capturing() bool { return false }

// Status implements Screen.
func (o *Organization) Status() ScreenStatus {
	st := ScreenStatus{Err: o.err}
	if o.loading {
		st.Busy = "loading organization…"
	}
	return st
}

// Keys implements Screen.
func (o *Organization) Keys() ui.KeyMap { return orgHelp{o} }

type orgHelp struct{ o *Organization }

func (h orgHelp) ShortHelp() []key.Binding {
	return append([]key.Binding{h.o.keys.Refresh}, h.o.pane.KeyBindings()[:2]...)
}
func (h orgHelp) FullHelp() [][]key.Binding {
	return fullHelp(h.o.KeyActions(), h.o.pane.KeyBindings())
}

// Update implements Screen.
func (o *Organization) Update(msg tea.Msg) (Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case themeChangedMsg:
		o.pane.SetTheme(o.c.Theme)
		o.render()
	case orgLoadedMsg:
		o.loading = false
		o.err = ""
		if msg.err != nil {
			o.err = errorText(msg.err)
		}
		o.render()
	case loginKitLoadedMsg:
		o.kitLoading, o.kit, o.kitErr = false, msg.cfg, ""
		if msg.err != nil {
			o.kitErr = errorText(msg.err)
		}
		o.render()
	case tea.KeyPressMsg:
		if key.Matches(msg, o.keys.Refresh) {
			o.loading = true
			o.kitLoading = o.c.LoginKit != nil
			o.render()
			return o, tea.Batch(loadOrg(o.c), loadLoginKit(o.c))
		}
		var cmd tea.Cmd
		o.pane, cmd = o.pane.Update(msg)
		return o, cmd
	}
	return o, nil
}

// render rebuilds the pane's text from what the root loaded.
func (o *Organization) render() {
	th, org := o.c.Theme, o.c.Org
	feats := append([]api.Feature(nil), org.Features...)
	sort.Slice(feats, func(i, j int) bool { return feats[i].Name < feats[j].Name })
	labels := []string{"organization", "organization id", "user", "user id", "profile", "read-only", "auth proxy"}
	if o.kit != nil {
		kv := LoginKitFields(o.kit)
		for i := 0; i < len(kv); i += 2 {
			labels = append(labels, "  "+kv[i])
		}
	}
	for _, f := range feats {
		labels = append(labels, "  "+strings.TrimPrefix(f.Name, "FEATURE_NAME_"))
	}
	b := ui.NewDetailBuilder(th)
	b.LabelWidth = ui.LabelWidth(labels...)
	b.Section("You")
	b.Field("organization", org.Name)
	b.Field("organization id", api.SanitizeID(org.ID))
	b.Field("user", org.UserName)
	b.Field("user id", api.SanitizeID(org.UserID))
	b.Field("profile", o.c.Profile)
	b.Field("read-only", yesNo(o.c.ReadOnly()))
	b.Section(fmt.Sprintf("Root quorum: %d of %d", org.Quorum.Threshold, len(org.Quorum.UserIDs)))
	for _, id := range org.Quorum.UserIDs {
		name := org.UserNames[id]
		if name == "" {
			name = "?"
		}
		b.Line("  " + name + "  " + api.SanitizeID(id))
	}
	b.Section(fmt.Sprintf("Features (%d)", len(org.Features)))
	for _, f := range feats {
		b.Field("  "+strings.TrimPrefix(f.Name, "FEATURE_NAME_"), f.Value)
	}
	if !org.Loaded && !o.loading {
		b.Line("not loaded: press r to retry")
	}
	o.renderLoginKit(b)
	o.pane.SetContent(b.String())
}

// renderLoginKit adds the auth proxy's login-kit configuration, when the
// profile has an auth proxy.
func (o *Organization) renderLoginKit(b *ui.DetailBuilder) {
	if o.c.LoginKit == nil {
		return
	}
	b.Section("Login kit")
	b.Field("auth proxy", o.c.AuthProxyURL)
	switch {
	case o.kitLoading:
		b.Line("  loading…")
	case o.kitErr != "":
		b.Line("  not loaded: " + o.kitErr + " (press r to retry)")
	case o.kit != nil:
		kv := LoginKitFields(o.kit)
		for i := 0; i+1 < len(kv); i += 2 {
			b.Field("  "+kv[i], kv[i+1])
		}
	}
}

// View implements Screen.
func (o *Organization) View() string {
	th := o.c.Theme
	head := ansi.Truncate(th.Title.Render("Organization")+th.Muted.Render("  read-only view"), o.width, "…")
	return head + "\n" + o.pane.View()
}
