package cli

import (
	"context"
	"strings"
	"testing"
)

// A bool flag's bad value (--demo=maybe) is worded by the flag package
// "invalid boolean value ... for -demo", without "flag"; its hint is said
// too. A value holding " for flag -NAME" does not name another flag.
func TestFlagHintsForBooleansAndTrickyValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--demo=maybe"}, "true or false"},
		{[]string{"activity", "wait", "--timeout", "x for flag -limit: y", "some-id"}, "a duration"},
	} {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
		code := run(context.Background(), c, tc.args)
		if code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("vigil %s: want %q said", strings.Join(tc.args, " "), tc.want)
		}
	}
}
