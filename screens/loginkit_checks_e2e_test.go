package screens

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// organizationWithKit opens the Organization screen of a console on the
// local service whose login kit comes from the service's auth proxy, its
// replies passed through rewrite (given the organization's id).
func organizationWithKit(t *testing.T, rewrite func(org string, reply []byte) []byte) (*harness, *servertest.Demo) {
	t.Helper()
	d := servertest.StartDemo(t)
	inner := d.Server.AuthProxyHandler()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		w.Write(rewrite(d.Info.OrganizationID, rec.Body.Bytes()))
	}))
	t.Cleanup(proxy.Close)
	client := d.ClientAt(d.URL, "alice", api.WithExactStrings(), api.WithAuthProxy(proxy.URL, d.Info.AuthProxyConfigID))
	r := NewRoot(Options{Reader: client, Submitter: client, Profile: "alice", Theme: theme.Options{Dark: true, NoColor: true},
		Now: time.Now, Static: true, LoginKit: client.WalletKitConfig, AuthProxyURL: proxy.URL,
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 200, Height: 80})
	h.run(r.Init())
	h.key("3")
	if h.root.ActiveTitle() != "Organization" {
		t.Fatalf("3 went to %s", h.root.ActiveTitle())
	}
	return h, d
}

// A login kit of another organization is shown under this one's with a
// warning that names both.
func TestOrganizationWarnsOfAnotherOrganizationsLoginKit(t *testing.T) {
	other := "ffffffff-0000-7000-8000-000000000000"
	h, d := organizationWithKit(t, func(org string, b []byte) []byte { return bytes.ReplaceAll(b, []byte(org), []byte(other)) })
	org := d.Info.OrganizationID
	out := ansi.Strip(h.root.Render())
	want := "⚠ this login kit is organization " + other + "'s, not this profile's (" + org + ")"
	if !strings.Contains(out, "Login kit") || !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("the Organization screen does not warn %q:\n%s", want, out)
	}
}

// A reply without the fields SPEC requires is not shown as a login kit: the
// section says it did not load, naming the fields missing.
func TestOrganizationRefusesALoginKitWithoutRequiredFields(t *testing.T) {
	h, _ := organizationWithKit(t, func(string, []byte) []byte { return []byte(`{}`) })
	out := strings.Join(strings.Fields(ansi.Strip(h.root.Render())), " ")
	if !strings.Contains(out, "not loaded: ") || !strings.Contains(out, "lacks enabledProviders, sessionExpirationSeconds, organizationId") {
		t.Errorf("a reply of {} is not refused on screen:\n%s", out)
	}
}

// A login kit of another organization followed by a case-variant key
// holding this one's ("organizationId":<other>,"ORGANIZATIONID":<this>)
// signs browsers in to the other: it is not shown as this organization's
// login kit; the section says it did not load and why. From audit 216.
func TestOrganizationRefusesALoginKitReadTwoWays(t *testing.T) {
	other := "ffffffff-0000-7000-8000-000000000000"
	h, d := organizationWithKit(t, func(org string, b []byte) []byte {
		return bytes.Replace(b, []byte(`"organizationId":"`+org+`"`), []byte(`"organizationId":"`+other+`","ORGANIZATIONID":"`+org+`"`), 1)
	})
	out := strings.Join(strings.Fields(ansi.Strip(h.root.Render())), " ")
	if !strings.Contains(out, "not loaded: ") || !strings.Contains(out, "can be read two ways") {
		t.Errorf("a login kit read two ways is not refused on screen:\n%s", out)
	}
	if strings.Contains(out, "organization: "+d.Info.OrganizationID) {
		t.Errorf("the login kit is shown as this organization's:\n%s", out)
	}
}
