package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An empty body is no request: cron's empty standard input, or an upstream
// step that wrote nothing, is refused as an empty --body is (exit 2, saying the
// body is empty and where from), never stamped as if it were the request.
func TestStampRefusesAnEmptyBody(t *testing.T) {
	xdg := t.TempDir()
	if code, _, errOut := runCLI(t, xdg, "", "keys", "generate", "k"); code != 0 {
		t.Fatalf("set-up: keys generate: %s", errOut)
	}
	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		from string
	}{
		{[]string{"stamp", "--key", "k"}, "standard input"},
		{[]string{"stamp", "--key", "k", "--body-file", "-"}, "standard input"},
		{[]string{"stamp", "--key", "k", "--body-file", empty}, empty},
		{[]string{"stamp", "--verify", "x", "--body-file", empty}, empty},
	} {
		code, out, errOut := runCLI(t, xdg, "", tc.args...)
		if code != 2 || out != "" {
			t.Errorf("%q with an empty body: exit %d, stdout %q; want exit 2 and nothing printed", tc.args, code, out)
		}
		if !strings.Contains(errOut, "the body from "+tc.from+" is empty") {
			t.Errorf("%q with an empty body: stderr %q should say the body from %s is empty", tc.args, errOut, tc.from)
		}
	}
}
