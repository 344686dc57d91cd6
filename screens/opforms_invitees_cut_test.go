package screens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A paste of short invitees cut at the field's limit keeps more whole ones
// than one activity takes: the message must not advise deleting the partial
// one and submitting (the form then refuses: over the limit of 100); it says
// to keep the first 100 and names the last of them.
func TestInviteesCutPastTheServiceMaximumSaysToKeepTheFirstHundred(t *testing.T) {
	var parts []string
	for i := 0; i < 220; i++ {
		parts = append(parts, fmt.Sprintf("N%d %s <n%d@example.com>", i, strings.Repeat("y", 250), i))
	}
	kept := []rune(strings.Join(parts, ", "))[:inviteesCharLimit]
	msg := inviteesCut(string(kept))
	if strings.Contains(msg, "delete the partial entry at the end") {
		t.Errorf("more than %d whole invitees kept, yet the message says to delete the partial one and submit: %s", api.MaxListItems, msg)
	}
	last := fmt.Sprintf("n%d@example.com", api.MaxListItems-1)
	if !strings.Contains(msg, fmt.Sprintf("keep the first %d", api.MaxListItems)) || !strings.Contains(msg, last) {
		t.Errorf("the message does not say to keep the first %d, ending at %s: %s", api.MaxListItems, last, msg)
	}
}
