package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A key whose lifetime cannot be read (here expirationSeconds "abc") is shown
// as of unknown expiry, as the CLI shows it, never as "never"; and carol
// holding only such a key does not keep the quorum able to sign: deleting
// bob's last key is warned about as one the service will fail (fail closed).
func TestUsersUnreadableKeyLifetimeIsUnknownAndCannotSign(t *testing.T) {
	users := governanceUsers()
	users[2].APIKeys = []api.APIKey{apiKey("k-carol", "carol cli", "02dd03", testNow.Add(-2*time.Hour), "abc")}
	h, _ := usersHarnessWith(t, false, users)
	h.key("j")
	h.key("j") // carol
	h.key("enter")
	out := h.frame()
	if !strings.Contains(out, `unknown (expirationSeconds "abc"`) || strings.Contains(out, "never") {
		t.Errorf("carol's key of unreadable lifetime is not shown as of unknown expiry:\n%s", out)
	}
	h.key("esc")
	h.key("k") // bob
	h.key("enter")
	h.key("d")
	if out := h.frame(); !strings.Contains(out, "The service will FAIL this deletion") {
		t.Errorf("carol's key of unreadable lifetime counted as able to sign:\n%s", out)
	}
}
