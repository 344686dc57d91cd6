package screens

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// Organization shows who you are, the root quorum and the features, and lets a
// root member set a feature (organization_set.go).
type Organization struct {
	// dialogAsk: the feature form's confirms, asked for by its keys.
	dialogAsk
	c       *Common
	pane    ui.Detail
	keys    organizationKeys
	gkeys   organizationSetKeys
	loading bool
	// awaited is the number of the load whose reply ends loading: the one
	// r asked for, not an older one still in flight (Common.OrgLoadsStarted).
	awaited int
	landed  int // the newest load that landed: its reply alone sets err
	err     string
	fetched time.Time // when the organization last loaded
	stale   bool      // its last load failed: what shows is from fetched
	width   int
	height  int
	// form is the open set-feature form, nil when none.
	form       *ui.Form
	formGen    int         // which form is open: a discard is about one
	submitting *Submission // the set_organization_feature in flight
	// earlier is a set_organization_feature whose outcome is unknown, sent
	// again when the same feature and value are submitted.
	earlier *earlierSubmit
	// The auth proxy's login-kit configuration, when the profile has one.
	kit        *api.WalletKitConfig
	kitErr     string
	kitLoading bool
}

// NewOrganization builds the screen; it shows what the root model loaded at start.
func NewOrganization(c *Common) *Organization {
	o := &Organization{c: c, pane: ui.NewDetail(c.Theme), loading: true,
		keys: newOrganizationKeys(), gkeys: newOrganizationSetKeys(), kitLoading: c.LoginKit != nil}
	o.render()
	return o
}

// SetSize implements Screen: the heading takes a line, the pane the rest.
func (o *Organization) SetSize(width, height int) {
	o.width, o.height = width, height
	o.pane.SetSize(width, max(height-1, 1))
}

// Title implements Screen.
func (o *Organization) Title() string { return "Organization" }

// Init implements Screen; the root model already loads the organization, the
// screen loads the login-kit configuration.
func (o *Organization) Init() tea.Cmd { return loadLoginKit(o.c) }

// Capturing implements Screen.
func (o *Organization) Capturing() bool { return o.form != nil }

// Status implements Screen.
func (o *Organization) Status() ScreenStatus {
	st := ScreenStatus{Err: o.err, LastRefresh: o.fetched, Stale: o.stale && !o.fetched.IsZero(), Submitting: submissions(o.submitting)}
	if o.loading {
		st.Busy = "loading organization…"
	}
	if o.submitting != nil {
		st.Busy = "submitting set_organization_feature…"
	}
	return st
}

// Keys implements Screen.
func (o *Organization) Keys() ui.KeyMap { return orgHelp{o} }

type orgHelp struct{ o *Organization }

func (h orgHelp) ShortHelp() []key.Binding {
	if h.o.form != nil {
		return h.o.form.Keys.ShortHelp()
	}
	h.o.syncKeys()
	return append([]key.Binding{h.o.keys.Refresh, h.o.gkeys.Set}, h.o.pane.KeyBindings()[:2]...)
}
func (h orgHelp) FullHelp() [][]key.Binding {
	if h.o.form != nil {
		return h.o.form.Keys.FullHelp() // the form takes every key
	}
	return fullHelp(h.o.KeyActions(), h.o.pane.KeyBindings())
}

// Update implements Screen.
func (o *Organization) Update(msg tea.Msg) (Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case themeChangedMsg:
		o.pane.SetTheme(o.c.Theme)
		o.render()
	case featureConfirmedMsg:
		return o, o.submitFeature(msg)
	case featureSubmittedMsg:
		return o, o.featureSubmitted(msg)
	case featureDraftDiscardedMsg:
		if msg.gen == o.formGen {
			o.form = nil
		}
	case orgLoadedMsg:
		if msg.load >= o.awaited {
			o.loading = false
		}
		// Only the newest load that landed says how loading went: an older
		// one read before it, its success or failure is no longer news.
		if msg.load >= o.landed {
			o.landed = msg.load
			o.err, o.stale = "", msg.err != nil
			if msg.err != nil {
				o.err = errorText(msg.err)
			} else {
				o.fetched = o.c.Now() // the status bar says when (r gives feedback)
			}
		}
		o.render()
	case loginKitLoadedMsg:
		o.kitLoading, o.kit, o.kitErr = false, msg.cfg, ""
		if msg.err != nil {
			o.kitErr = errorText(msg.err)
		}
		o.render()
	case tea.KeyPressMsg:
		if o.form != nil {
			return o, o.formUpdate(msg)
		}
		if pressed(msg, o.gkeys.Set) {
			return o, o.openSetForm()
		}
		if key.Matches(msg, o.keys.Refresh) {
			o.loading = true
			o.awaited = o.c.OrgLoadsStarted + 1 // the root starts it on reloadOrgMsg
			o.kitLoading = o.c.LoginKit != nil
			o.render()
			return o, tea.Batch(msgCmd(reloadOrgMsg{}), loadLoginKit(o.c))
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
		kv := LoginKitFields(o.kit, o.c.Org.ID)
		for i := 0; i < len(kv); i += 2 {
			labels = append(labels, "  "+kv[i])
		}
	}
	for _, f := range feats {
		labels = append(labels, "  "+strings.TrimPrefix(f.Name, "FEATURE_NAME_"))
	}
	for _, id := range org.Quorum.UserIDs {
		labels = append(labels, "  "+quorumName(org, id))
	}
	b := ui.NewDetailBuilder(th)
	b.LabelWidth = ui.LabelWidth(labels...)
	b.Section("You")
	b.Field("organization", org.Name)
	b.Field("organization id", api.SanitizeID(org.ID))
	b.Field("user", optionalText(org.UserName))
	b.Field("user id", api.SanitizeID(org.UserID))
	b.Field("profile", o.c.Profile)
	b.Field("read-only", yesNo(o.c.ReadOnly()))
	b.Section(fmt.Sprintf("Root quorum: %d of %d", org.Quorum.Threshold, len(org.Quorum.UserIDs)))
	for _, id := range org.Quorum.UserIDs {
		b.Field("  "+quorumName(org, id), api.SanitizeID(id))
	}
	b.Section(fmt.Sprintf("Features (%d)", len(org.Features)))
	for _, f := range feats {
		// Quoted as the approvers see it: a look-alike host reads as such.
		b.Field("  "+strings.TrimPrefix(f.Name, "FEATURE_NAME_"), api.Quote(f.Value))
	}
	if !org.Loaded && !o.loading {
		b.Line("not loaded: press r to retry")
	}
	if why := o.whyNoSet(); why != "" && org.Loaded {
		b.Line("")
		b.Styled(th.Muted.Render("setting a feature: " + ui.Clean(why)))
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
		kv := LoginKitFields(o.kit, o.c.Org.ID)
		for i := 0; i+1 < len(kv); i += 2 {
			b.Field("  "+kv[i], kv[i+1])
		}
		if warn := LoginKitOtherOrganization(o.kit, o.c.Org.ID); warn != "" {
			b.Styled(o.c.Theme.Warn.Render("  ⚠ " + ui.Clean(warn)))
		}
	}
}

// View implements Screen.
func (o *Organization) View() string {
	th := o.c.Theme
	if o.form != nil {
		return o.formView()
	}
	sub := "  s sets a feature (root quorum)"
	if o.whyNoSet() != "" {
		sub = "  read-only view"
	}
	head := ansi.Truncate(th.Title.Render("Organization")+th.Muted.Render(sub), o.width, "…")
	return head + "\n" + o.pane.View()
}

// quorumName is a root member's name, "?" when the user list lacks it.
func quorumName(org Org, id string) string {
	if name := org.UserNames[id]; name != "" {
		return api.NameText(name)
	}
	return "?"
}

// formView is the set-feature form with what the chosen feature takes and its
// current value.
func (o *Organization) formView() string {
	th := o.c.Theme
	name := o.form.Values()["name"]
	cur, set := o.currentFeature(name)
	now := "current value: (not set)"
	if set {
		now = "current value: " + api.Quote(cur)
	}
	lines := []string{o.form.View(th, o.width), "",
		th.Muted.Render(ansi.Truncate("takes "+featureValueHint(name), o.width, "…")),
		th.Muted.Render(ansi.Truncate(ui.Clean(now), o.width, "…")),
		th.Muted.Render(ansi.Truncate("ctrl+s checks the value and asks to confirm; the root quorum must approve", o.width, "…"))}
	if hint := o.earlier.hint(); hint != "" {
		lines = append(lines, "", th.Warn.Render(ansi.Wrap(ui.Clean(hint), max(o.width-2, 1), " ")))
	}
	return strings.Join(lines, "\n")
}

// syncKeys enables set only where it can do something, so help strikes it
// through otherwise (pressing it still says why).
func (o *Organization) syncKeys() { o.gkeys.Set.SetEnabled(o.whyNoSet() == "" && o.submitting == nil) }
