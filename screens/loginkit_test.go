package screens

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

func newHarnessWithLoginKit(t *testing.T, kit LoginKitSource) *harness {
	t.Helper()
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true, LoginKit: kit, AuthProxyURL: "http://127.0.0.1:8421",
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 60})
	h.run(r.Init())
	h.key("3")
	if h.root.ActiveTitle() != "Organization" {
		t.Fatalf("3 went to %s", h.root.ActiveTitle())
	}
	return h
}

// The Organization screen shows the auth proxy's login kit, cleaned; a
// failure says so and r loads it again.
func TestOrganizationShowsLoginKit(t *testing.T) {
	yes := false
	calls := 0
	fail := true
	h := newHarnessWithLoginKit(t, func(context.Context) (*api.WalletKitConfig, error) {
		calls++
		if fail {
			return nil, errors.New("auth_proxy/wallet_kit_config: HTTP 404")
		}
		return &api.WalletKitConfig{EnabledProviders: []string{"google", "email\x1b[31m"}, SessionExpirationSeconds: "86400",
			OrganizationID: "org-1", OauthClientIDs: map[string]string{"google": "client-g.apps"},
			OauthRedirectURL: "https://app.example.com/cb", OtpLength: "6", OtpAlphanumeric: &yes}, nil
	})
	out := ansi.Strip(h.root.Render())
	if !strings.Contains(out, "Login kit") || !strings.Contains(out, "HTTP 404") || !strings.Contains(out, "press r to retry") {
		t.Fatalf("a failed load:\n%s", out)
	}
	fail = false
	h.key("r")
	out = ansi.Strip(h.root.Render())
	for _, want := range []string{"providers", "google, email", "session lifetime", "1d (86400 s)", "oauth client id (google)",
		"client-g.apps", "https://app.example.com/cb", "6 characters, digits only"} {
		if !strings.Contains(out, want) {
			t.Errorf("login kit lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(h.root.Render(), "\x1b[31m") {
		t.Error("an escape sequence from the auth proxy reached the terminal")
	}
	if calls != 2 {
		t.Errorf("login kit loaded %d times, want 2 (start, r)", calls)
	}
}

// Without an auth proxy there is no login-kit section.
func TestOrganizationWithoutAuthProxy(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("3")
	if out := ansi.Strip(h.root.Render()); strings.Contains(out, "Login kit") {
		t.Errorf("login kit shown without an auth proxy:\n%s", out)
	}
}
