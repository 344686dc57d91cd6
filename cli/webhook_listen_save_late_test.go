package cli

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// webhook listen --save DIR makes DIR only once the rest has checked out:
// a run refused on its config, its profile or its address leaves nothing.
func TestWebhookListenFailingLeavesNoSaveDir(t *testing.T) {
	e := newVerbEnv(t)
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	taken := held.Addr().String()
	for name, args := range map[string][]string{
		"missing config":  {"--addr", "127.0.0.1:0", "--config", filepath.Join(t.TempDir(), "none.toml")},
		"unknown profile": {"--addr", "127.0.0.1:0", "--profile", "nobody"},
		"address in use":  {"--addr", taken},
	} {
		dir := filepath.Join(t.TempDir(), "deliveries")
		all := append([]string{"webhook", "listen", "--save", dir}, args...)
		code, _, errOut := e.run("", all...)
		if code == 0 {
			t.Errorf("%s: webhook listen succeeded", name)
		}
		if name == "address in use" && !strings.Contains(errOut, taken) {
			t.Errorf("%s: want an error about %s, got %s", name, taken, errOut)
		}
		if _, err := os.Lstat(dir); err == nil {
			t.Errorf("%s: webhook listen failed (%s) but made --save %s", name, errOut, dir)
		}
	}
}
