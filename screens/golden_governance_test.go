package screens

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/vigil-console/vigil/api"
)

// The governance screens' views (organization features, users, MFA policies) at
// both sizes. Update with go test ./screens -run TestGolden -update.
func TestGoldenGovernance(t *testing.T) {
	views := []struct {
		name string
		do   func(h *harness)
	}{
		{"organization-set-form", func(h *harness) {
			h.gotoScreen("Organization")
			h.key("s")
			h.pickFeature(api.FeatureWebhook)
			h.key("tab")
			h.typeText("hooks.example.com")
			h.send(ctrlS)
		}},
		{"organization-set-confirm", func(h *harness) {
			h.gotoScreen("Organization")
			h.key("s")
			h.pickFeature(api.FeatureEmailAuth)
			h.key("tab")
			h.typeText("enabled")
			h.send(ctrlS)
		}},
		{"users", func(h *harness) { h.gotoScreen("Users") }},
		{"user-detail", func(h *harness) { h.gotoScreen("Users"); h.key("enter") }},
		{"users-delete-confirm", func(h *harness) {
			h.gotoScreen("Users")
			h.key("enter")
			h.key("space")
			h.key("j")
			h.key("space")
			h.key("d")
		}},
		{"mfa", func(h *harness) { h.gotoScreen("MFA policies") }},
		{"mfa-detail", func(h *harness) { h.gotoScreen("MFA policies"); h.key("enter") }},
		{"mfa-editor", func(h *harness) {
			h.gotoScreen("MFA policies")
			h.key("n")
			h.typeText("new one")
			h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
			h.key("a")
			h.key("m")
			h.key("i")
		}},
	}
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, v := range views {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], v.name), func(t *testing.T) {
				fake := &fakeClient{activities: append(sampleActivities(), tagActivity()), users: governanceUsers(), mfaPolicies: alicePolicies()}
				h := newHarness(t, fake, false, 30*time.Second)
				h.root.common.OwnPublicKey = consoleKey
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				v.do(h)
				golden.RequireEqual(t, screenFrame(h.root))
			})
		}
	}
}
