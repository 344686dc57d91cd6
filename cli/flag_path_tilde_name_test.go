package cli

import (
	"io"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// A path flag written "~NAME" (no slash) was, before "~user/" was expanded,
// a file of that name in the working directory: read now as a user's home,
// --out=~backup would write into another account's home. It is refused,
// naming the flag and both ways to write it; "~" alone stays HOME, as it
// always was for flags.
func TestPathFlagTildeNameWithoutSlashIsRefused(t *testing.T) {
	me, err := user.Current()
	if err != nil || me.Username == "" || !filepath.IsAbs(me.HomeDir) {
		t.Skipf("the current user has no name or absolute home directory: %v %+v", err, me)
	}
	// flagPath itself: run through a verb, the old bug would write into
	// the real home directory.
	name := "~" + me.Username
	got, err := flagPath(proc{getenv: func(string) string { return "" }}, "keys generate", "dir", name)
	if err == nil {
		t.Errorf("--dir=%s is %q, want it refused", name, got)
	} else if msg := err.Error(); !strings.Contains(msg, "--dir") || !strings.Contains(msg, name+"/") || !strings.Contains(msg, "./"+name) {
		t.Errorf("--dir=%s: %v; want an error naming --dir, %s/ and ./%s", name, err, name, name)
	}
	if code := exitCode(io.Discard, err); err != nil && code != exitUsage {
		t.Errorf("--dir=%s: exit %d, want %d", name, code, exitUsage)
	}

	home := t.TempDir()
	c := proc{getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}}
	if got, err := flagPath(c, "keys generate", "dir", "~"); err != nil || got != home {
		t.Errorf("--dir=~ is %q (%v), want HOME %q", got, err, home)
	}
}
