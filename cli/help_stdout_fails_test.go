package cli

import (
	"strings"
	"testing"
)

// Help that could not be written (a full disk) is a result that was not
// printed: exit 1 with the write's error, as for any verb's output, never 0
// as if it had been shown. activity wait's help too, whose other failures
// exit 3 ("how the activity ends is not known").
func TestHelpThatCannotBeWrittenExitsFailure(t *testing.T) {
	for _, args := range [][]string{
		{"help"},
		{"-h"},
		{"activity", "-h"},
		{"activity", "list", "-h"},
		{"activity", "wait", "-h"},
		{"keys", "help"},
		{"keys", "generate", "-h"},
		{"proof", "--help"},
		{"tag", "create", "-h"},
		{"version", "-h"},
	} {
		code, errOut := runWithFullStdout(nil, args...)
		if code != 1 {
			t.Errorf("vigil %s with standard output full: exit %d, want 1; stderr %q", strings.Join(args, " "), code, errOut)
		}
		if !strings.Contains(errOut, "print the help: ") || !strings.Contains(errOut, "no space left on device") {
			t.Errorf("vigil %s with standard output full: stderr %q should say the help could not be printed, and why", strings.Join(args, " "), errOut)
		}
	}
}
