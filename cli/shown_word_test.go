package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server"
)

// The demo's connect lines must work pasted into a shell for a data
// directory whose name holds a space: the shell must give --config the
// whole path, not the part before the space.
func TestDemoHelpCommandsKeepAPathWithASpaceWhole(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	dir := filepath.Join(t.TempDir(), "sp ace")
	var out bytes.Buffer
	printDemoHelp(proc{stdout: &out}, dir, &server.DemoInfo{Members: []server.DemoMember{{Name: "alice", Root: true}}})
	var line string
	for l := range strings.Lines(out.String()) {
		if strings.Contains(l, "--config") {
			line, _, _ = strings.Cut(strings.TrimSpace(l), "#")
		}
	}
	if line == "" {
		t.Fatalf("no connect line printed:\n%s", out.String())
	}
	got, err := exec.Command(sh, "-c", "set -- "+line+`; printf %s "$3"`).Output()
	if want := filepath.Join(dir, "config.toml"); err != nil || string(got) != want {
		t.Errorf("pasted %q gives --config %q, want %q (%v)", line, got, want, err)
	}
}
