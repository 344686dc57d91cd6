package screens

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A real service whose organization has FEATURE_NAME_SWAP_CONFIG and
// FEATURE_NAME_EARN_CONFIG set (the official client lists them, SPEC.md
// does not): the console loads the organization and its Organization
// screen shows both with their values.
func TestOrganizationShowsSwapAndEarnConfig(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		reply = bytes.ReplaceAll(reply, []byte(`{"name":"FEATURE_NAME_AUTH_PROXY","value":"enabled"}`), []byte(`{"name":"FEATURE_NAME_SWAP_CONFIG","value":"swap-v1"}`))
		return bytes.ReplaceAll(reply, []byte(`{"name":"FEATURE_NAME_OTP_EMAIL_AUTH","value":"enabled"}`), []byte(`{"name":"FEATURE_NAME_EARN_CONFIG","value":"earn-v1"}`))
	}), "alice", api.WithExactStrings())
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 80})
	h.key("3")
	f := h.frame()
	for _, want := range []string{"SWAP_CONFIG", `"swap-v1"`, "EARN_CONFIG", `"earn-v1"`, "WEBAUTHN_ORIGINS", "Features (3)"} {
		if !strings.Contains(f, want) {
			t.Errorf("the Organization screen does not show %s:\n%s", want, f)
		}
	}
}
