package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Once the console deletes the key it signs with (allowed at once for
// operator: own credentials), it says the profile is locked out and how to
// sign in again, drops the key from the record, and neither r nor d shows
// advice that does not apply or waits for reads that cannot succeed.
func TestUsersSaysTheProfileIsLockedOutAfterItsOwnKeyIsDeleted(t *testing.T) {
	d, h, u, own := operatorOnItsOwnKey(t)
	h.key("d")
	h.key("y")
	if _, err := d.Client("alice").GetAPIKey(t.Context(), own.APIKeyID); err == nil {
		t.Fatalf("the console's key %s was not deleted:\n%s", own.APIKeyID, h.frame())
	}
	lockedOut := func(when string) {
		t.Helper()
		f := h.frame()
		if !strings.Contains(f, "locked out") || !strings.Contains(f, "vigil login oauth") {
			t.Errorf("%s: the console does not say the profile is locked out and how to sign in again:\n%s", when, f)
		}
		for _, wrong := range []string{"clock", "still reading the pending deletions", "this console's key\n"} {
			if strings.Contains(f, wrong) {
				t.Errorf("%s: the console shows %q:\n%s", when, wrong, f)
			}
		}
		for _, k := range u.open.APIKeys {
			if k.APIKeyID == own.APIKeyID {
				t.Errorf("%s: the deleted key %s is still listed", when, own.APIKeyID)
			}
		}
	}
	lockedOut("after the deletion")
	h.key("r")
	lockedOut("after r")
	h.msgs = nil
	h.key("d")
	lockedOut("after d")
}

// operatorOnItsOwnKey opens operator's record in operator's console on the
// demo service, the cursor on the key the console signs with.
func operatorOnItsOwnKey(t *testing.T) (*servertest.Demo, *harness, *Users, api.APIKey) {
	t.Helper()
	d := servertest.StartDemo(t)
	c := d.Client("operator")
	h := memberConsole(t, c)
	h.root.common.OwnPublicKey = c.Stamper().(interface{ PublicKeyHex() string }).PublicKeyHex()
	u := h.openUser("operator")
	for range u.open.APIKeys {
		if u.open.APIKeys[u.cursor].HasPublicKey("", h.root.common.OwnPublicKey) {
			break
		}
		h.key("j")
	}
	own := u.open.APIKeys[u.cursor]
	if !own.HasPublicKey("", h.root.common.OwnPublicKey) {
		t.Fatalf("no own key under the cursor; own %q", h.root.common.OwnPublicKey)
	}
	return d, h, u, own
}
