package cli

import (
	"context"
	"strings"
	"testing"
)

// TestFlagValueErrorsSayWhatTheFlagTakes: the flag package's own reason for
// a value it cannot read is only "parse error"; the error says what the flag
// takes.
func TestFlagValueErrorsSayWhatTheFlagTakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"activity", "wait", "--timeout", "xyz", "some-id"}, "a duration such as 90s"},
		{[]string{"activity", "list", "--limit", "many"}, "a whole number"},
	} {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
		code := run(context.Background(), c, tc.args)
		if code != 2 || !strings.Contains(errOut.String(), tc.want) || !strings.Contains(errOut.String(), "-h") {
			t.Errorf("vigil %s: exit %d, %q; want exit 2 saying %q and where the help is", strings.Join(tc.args, " "), code, errOut.String(), tc.want)
		}
	}
}
