package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/cli.md's examples of stamping with an ssh-agent key must be commands
// vigil takes: one that is refused as a usage error teaches a wrong command.
// Without an agent they fail for that reason, never for their flags.
func TestDocsStampAgentExamplesAreAccepted(t *testing.T) {
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	body := filepath.Join(dir, "req.json")
	if err := os.WriteFile(body, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	replacer := strings.NewReplacer(
		"ssh-agent:SHA256:…", "ssh-agent:SHA256:Xn3PC6cbgRA0u9dIPxHpAuQyrfuyQoA8tAqaLP3o1tQ",
		"KEYS_DIR", dir,
		"req.json", body,
	)
	found := 0
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "vigil stamp --key ssh-agent:") {
			continue
		}
		found++
		args := strings.Fields(replacer.Replace(line))[1:]
		code, out, errOut := runVigil(t, map[string]string{"HOME": dir}, "", args...)
		if code == exitUsage {
			t.Errorf("docs/cli.md's example %q is refused as a usage error:\n%s%s", line, out, errOut)
		}
	}
	if found == 0 {
		t.Fatal("no 'vigil stamp --key ssh-agent:' example in docs/cli.md")
	}
}
