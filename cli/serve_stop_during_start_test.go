package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A stop signal that arrives while `vigil serve` is still starting (seeding
// or re-reading the demo, upgrading the schema) stops it as documented:
// exit 0, a note that it stopped, and no "listening" line.
func TestServeStopSignalDuringStartExitsZero(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"demo", []string{"--demo"}},
		{"plain", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var out, errOut bytes.Buffer
			c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // SIGTERM already received while it starts
			args := append([]string{"serve", "--data", dir, "--addr", "127.0.0.1:0", "--auth-proxy-addr", "127.0.0.1:0"}, tc.args...)
			code := run(ctx, c, args)
			if code != 0 {
				t.Fatalf("serve %v stopped by a signal during start: exit %d, want 0; stderr: %s", tc.args, code, errOut.String())
			}
			if !strings.Contains(errOut.String(), "stopped before serving") {
				t.Errorf("stderr does not say it stopped before serving: %s", errOut.String())
			}
			if strings.Contains(errOut.String(), "listening") || strings.Contains(out.String(), "local service on") {
				t.Errorf("announced a service it never served; stdout: %s stderr: %s", out.String(), errOut.String())
			}
		})
	}
}
