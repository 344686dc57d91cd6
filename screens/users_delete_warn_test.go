package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// bob marks a dozen keys, among them the one his MFA policy pins: the
// warning that the policy can then never be met is below the confirm's
// window at the minimum size, and the line saying what is below must count
// it as a warning, as the vote dialog counts its own.
func TestUsersDeleteConfirmCountsItsWarningsBelowTheWindow(t *testing.T) {
	users := governanceUsers()
	for i := range 11 {
		users[1].APIKeys = append(users[1].APIKeys, apiKey(fmt.Sprintf("k-bob-%02d", i), fmt.Sprintf("bob spare %02d", i),
			fmt.Sprintf("02cc1%d", i), testNow.Add(-time.Hour), ""))
	}
	users[1].MfaPolicies = []api.MfaPolicy{{MfaPolicyID: "mfa-1", UserID: "u-bob", MfaPolicyName: "cli key for all", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: "k-bob"}}}}}}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j") // bob
	h.key("enter")
	for range users[1].APIKeys {
		h.key("space")
		h.key("j")
	}
	h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
	h.key("d")
	out := h.plainFrame()
	if !strings.Contains(out, "Delete API keys?") || strings.Contains(out, "can never be cast") {
		t.Fatalf("setup: no confirm, or its MFA warning is not below the window:\n%s", out)
	}
	more := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "↓ ") && strings.Contains(l, "more") {
			more = l
		}
	}
	if !strings.Contains(more, "warning") {
		t.Errorf("the warning that bob's MFA policy could never be met is below the window, and the confirm's %q does not count it:\n%s",
			strings.TrimSpace(more), out)
	}
}
