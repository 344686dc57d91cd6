package cli

import (
	"context"
	"strings"
	"testing"
)

// The serve --demo banner and the README connect with "vigil --profile bob";
// adding a verb to that line reads the verb's flags and arguments as the
// console's. The usage error says to give the flags after the command, and
// shows the line to type, quoted for a shell.
func TestFlagsBeforeAVerbSayWhereTheyGo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--profile", "bob", "activity", "list"}, "vigil activity list --profile bob"},
		{[]string{"--profile", "bob", "activity", "approve", "--yes", "act-1"}, "vigil activity approve --yes act-1 --profile bob"},
		{[]string{"--config", "/tmp/my dir/config.toml", "user", "list"}, "vigil user list --config '/tmp/my dir/config.toml'"},
	} {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
		code := run(context.Background(), c, tc.args)
		if code != exitUsage || !strings.Contains(errOut.String(), "give them after the command: "+tc.want) {
			t.Errorf("vigil %s: exit %d, %q; want a usage error showing %q", strings.Join(tc.args, " "), code, errOut.String(), tc.want)
		}
	}
}

// Every name flagsBeforeVerb offers is a command run knows.
func TestCommandNamesAreCommands(t *testing.T) {
	for _, name := range commandNames() {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
		run(context.Background(), c, []string{name, "-h"})
		if strings.Contains(errOut.String(), "unknown command") {
			t.Errorf("%s: %s", name, errOut.String())
		}
	}
}
