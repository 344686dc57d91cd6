package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With neither HOME nor XDG_CONFIG_HOME set (cron, a systemd unit, env -i),
// keys generate refuses and says what to set, instead of writing the key
// under the working directory, where a run from elsewhere would not find it.
func TestNoHomeRefusesInsteadOfWritingKeysIntoTheWorkingDirectory(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	var out, errOut strings.Builder
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), c, []string{"keys", "generate", "ops"})
	if code == 0 || !strings.Contains(errOut.String(), "HOME") || !strings.Contains(errOut.String(), "--dir") {
		t.Errorf("exit %d, want an error saying to set HOME or give --dir:\n%s%s", code, out.String(), errOut.String())
	}
	if _, err := os.Stat(filepath.Join(cwd, ".config")); err == nil {
		t.Errorf("keys generate wrote under the working directory %s", cwd)
	}
	// With --dir it works as before.
	dir := filepath.Join(cwd, "keys")
	if code := run(context.Background(), c, []string{"keys", "generate", "--dir", dir, "ops"}); code != 0 {
		t.Errorf("keys generate --dir without HOME: exit %d\n%s", code, errOut.String())
	}
}
