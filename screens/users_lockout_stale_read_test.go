package screens

import (
	"strings"
	"testing"
)

// A user list read before the console's own key was deleted (r, or the
// refresh, in flight as the deletion completes) lands after the lock-out:
// it must not bring the deleted key back nor clear the lock-out message.
func TestUsersLockOutSurvivesAReadSentBeforeIt(t *testing.T) {
	_, h, u, own := operatorOnItsOwnKey(t)
	// A read in flight: served now, before the deletion; its reply lands later.
	early := u.load()()
	if m, ok := early.(usersLoadedMsg); !ok || m.err != nil || m.gen != u.gen {
		t.Fatalf("set-up: the early read is not a successful newest read (%#v)", early)
	}
	h.key("d")
	h.key("y")
	if u.lockedOut == "" {
		t.Fatalf("set-up: no lock-out:\n%s", h.frame())
	}
	h.send(early)
	f := h.frame()
	if !strings.Contains(f, "locked out") {
		t.Errorf("a read sent before the lock-out cleared its message:\n%s", f)
	}
	for _, k := range u.open.APIKeys {
		if k.APIKeyID == own.APIKeyID {
			t.Errorf("a read sent before the lock-out brought back the deleted key %s:\n%s", own.APIKeyID, f)
		}
	}
}
