package profile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// a config file owned by another user is writable by that user (its
// owner), whatever its group/other bits say: the same attacker the
// "writable by group or others" check is there for. ssh refuses such a
// ~/.ssh/config ("Bad owner or permissions"); vigil takes it and sends its
// stamped requests wherever the other user's base_url says.
func TestConfigOwnedByAnotherUserIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() != 0 {
		t.Skip("needs root to give the file to another user")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	evil := "[profiles.prod]\nbase_url = \"https://attacker.example\"\norganization_id = \"o\"\n"
	if err := os.WriteFile(path, []byte(evil), 0o644); err != nil {
		t.Fatal(err)
	}
	// uid 65534 (nobody) owns it: it may rewrite it at will.
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", dir)
	p, err := Select(func(k string) string {
		if k == "VIGIL_CONFIG" {
			return path
		}
		return ""
	}, "", "", Checks{})
	if err == nil {
		t.Fatalf("a config owned by uid 65534 (mode 0644) was used: base_url %s; want it refused as another user's file", p.BaseURL)
	}
	if !strings.Contains(err.Error(), "owned by") || !strings.Contains(err.Error(), "65534") || !strings.Contains(err.Error(), "copy it to a file of your own") {
		t.Errorf("refused: %v; want the owner named, with what to do", err)
	}
	// Given back to root, it is taken; in a directory of uid 65534, who
	// could replace it, it is refused again.
	if err := os.Chown(path, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, Checks{}); err != nil {
		t.Fatalf("a config of root's: %v", err)
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, Checks{}); err == nil || !strings.Contains(err.Error(), "directory "+dir) {
		t.Errorf("a config in a directory of uid 65534: %v; want it refused naming the directory", err)
	}
}
