package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// A delivery saved by 'listen --save' verifies again after the service has
// rotated its key out of the published set, with the key saved beside it,
// saying so; without that file the error says how to check it; and a file
// holding another key under the same id verifies nothing.
func TestSavedDeliveryVerifiesAfterItsKeyIsRotatedOut(t *testing.T) {
	e := newVerbEnv(t)
	saveDir := t.TempDir()
	url, out := startListener(t, e, saveDir)
	first := hookAndTag(t, e, url)
	var saved deliveryReport
	waitReports(t, out, "a saved delivery of the first activity", 20*time.Second, func(rs []deliveryReport) bool {
		for _, r := range rs {
			if r.ActivityID == first && r.Verified && r.Saved != "" {
				saved = r
				return true
			}
		}
		return false
	})
	if _, err := e.demo.Server.RotateWebhookKey(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The old key leaves the set once nothing signed with it is in flight.
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, o, errOut := e.run("", "webhook", "keys", "--json")
		wantExit(t, "webhook keys --json", code, 0, o, errOut)
		if !strings.Contains(o, `"`+saved.KeyID+`"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("key %s is still published after the rotation: %s", saved.KeyID, o)
		}
		time.Sleep(100 * time.Millisecond)
	}

	verify := func(base string) (int, string, string) {
		return e.run("", "webhook", "verify", "--max-age", "720h", "--body", base+".body", "--headers", base+".headers")
	}
	code, o, errOut := verify(saved.Saved)
	wantExit(t, "verify a saved delivery after its key was rotated out", code, 0, o, errOut)
	if !strings.HasPrefix(o, "verified event="+saved.EventID) || !strings.Contains(errOut, "no longer published") || !strings.Contains(errOut, saved.Saved+savedKeyExt) {
		t.Errorf("verify printed %q, %q; want verified, saying the saved key %s was used", o, errOut, saved.Saved+savedKeyExt)
	}

	// Another key under the same id, beside a copy: not verified.
	other, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	set := other.JWKS()
	set.Keys[0].Kid = saved.KeyID
	forgedKey, _ := json.Marshal(set)
	copyDir := t.TempDir()
	copied := filepath.Join(copyDir, filepath.Base(saved.Saved))
	for _, ext := range []string{".body", ".headers"} {
		data, err := os.ReadFile(saved.Saved + ext)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(copied+ext, data, 0o600)
	}
	os.WriteFile(copied+savedKeyExt, forgedKey, 0o600)
	code, o, errOut = verify(copied)
	wantExit(t, "verify with another key saved beside it", code, exitFailure, o, errOut)

	// No key file: the error says where such a delivery's key would be.
	os.Remove(copied + savedKeyExt)
	code, o, errOut = verify(copied)
	wantExit(t, "verify without the saved key", code, exitFailure, o, errOut)
	if !strings.Contains(errOut, savedKeyExt) || !strings.Contains(errOut, "--jwks") {
		t.Errorf("the unknown-key error does not say how to check a delivery saved before a rotation: %q", errOut)
	}
}
