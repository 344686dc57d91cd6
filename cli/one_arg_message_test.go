package cli

import (
	"strings"
	"testing"
)

// A verb taking one argument says how many were given, and which, and does
// not claim flags must go before it: they may follow it too.
func TestOneArgumentVerbSaysWhatWasGiven(t *testing.T) {
	e := newVerbEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"onramp", "status", "A", "B"}, `onramp status takes one argument, the transaction id, and 2 were given ("A", "B"); give only the transaction id (flags may go before or after it)`},
		{[]string{"onramp", "status", "A", "--refresh", "B", "C", "D"}, `and 4 were given ("A", "B", "C" and 1 more)`},
		{[]string{"onramp", "status"}, "onramp status takes one argument, the transaction id, and none was given"},
		{[]string{"tvc-deployment", "delete", "--yes", " "}, `tvc-deployment delete takes one argument, the deployment id, and the one given is blank (" ")`},
	} {
		code, out, errOut := e.run("", tc.args...)
		wantExit(t, strings.Join(tc.args, " "), code, exitUsage, out, errOut)
		if !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "flags go before it") {
			t.Errorf("%q: stderr %q, want %q and no \"flags go before it\"", tc.args, errOut, tc.want)
		}
	}
}
