package screens

import (
	"strings"
	"testing"
)

// i on a key the quorum deleted meanwhile fails, and the error shows under
// it. The refresh that then drops the key moves the cursor to another key:
// the error, about the key gone, must not show under that one.
func TestGetAPIKeyErrorDoesNotOutliveAReload(t *testing.T) {
	d, h, u, pending := onPendingKeyDeletion(t)
	keyID := pending.Intent.DeleteAPIKeysIntent.APIKeyIDs[0]
	if _, err := d.Client("carol").ApproveActivity(t.Context(), pending.Fingerprint); err != nil {
		t.Fatal(err)
	}
	h.key("i")
	failed := u.keyErr
	if failed == "" || !strings.Contains(h.plainFrame(), firstLine(failed)) {
		t.Fatalf("set-up: get_api_key of the deleted key did not fail on screen (error %q):\n%s", failed, h.plainFrame())
	}
	h.key("r")
	if len(u.open.APIKeys) == 0 || u.open.APIKeys[u.cursor].APIKeyID == keyID {
		t.Fatalf("set-up: the refresh did not move the cursor off the deleted key")
	}
	if f := h.plainFrame(); strings.Contains(f, firstLine(failed)) {
		t.Errorf("the get_api_key error about the deleted key %s shows under %s after the refresh:\n%s",
			keyID, u.open.APIKeys[u.cursor].APIKeyName, f)
	}
}

// firstLine is s up to its first line break (a long error wraps on screen).
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line[:min(len(line), 40)]
}
