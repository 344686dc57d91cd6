package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A private key pasted after a command that takes no arguments ('vigil keys
// list <key>', meant for 'keys import'), after a command group or in place
// of a command ('vigil keys <key>', 'vigil <key>') is refused without being
// printed a second time; an ordinary stray argument or unknown command is
// still quoted, so the user sees what to remove or correct.
func TestStrayArgumentPrivateKeyIsNotPrinted(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	for _, c := range []struct {
		cmd          []string
		usage, stray string // the usage error, and how "extra more" is given in it
	}{
		{[]string{"keys", "list"}, "takes no arguments", `"extra" and 1 more`},
		{[]string{"version"}, "takes no arguments", `"extra" and 1 more`},
		{[]string{"stamp"}, "takes no arguments", `"extra" and 1 more`},
		{[]string{"user", "list"}, "takes no arguments", `"extra" and 1 more`},
		{[]string{"activity", "list"}, "takes no arguments", `"extra" and 1 more`},
		{[]string{"keys"}, "unknown keys command", `"extra"`},
		{[]string{"activity"}, "unknown activity subcommand", `"extra"`},
		{[]string{"proof"}, "unknown proof subcommand", `"extra"`},
		{nil, "unknown command", `"extra"`},
	} {
		name := strings.Join(append([]string{"vigil"}, c.cmd...), " ")
		code, out, errOut := runCLI(t, t.TempDir(), "", append(c.cmd, secret)...)
		if code != 2 || !strings.Contains(errOut, c.usage) {
			t.Errorf("%s <private key>: exit %d, %q; want a usage error (%s)", name, code, errOut, c.usage)
		}
		if strings.Contains(out+errOut, secret[:16]) {
			t.Errorf("%s <private key>: the key is printed back:\n%s%s", name, out, errOut)
		}
		if !strings.Contains(errOut, "look like a private key") {
			t.Errorf("%s <private key>: %q does not say the argument looks like a private key", name, errOut)
		}
		code, _, errOut = runCLI(t, t.TempDir(), "", append(c.cmd, "extra", "more")...)
		if code != 2 || !strings.Contains(errOut, c.stray) {
			t.Errorf("%s extra more: exit %d, %q; want %s in it", name, code, errOut, c.stray)
		}
	}
}
