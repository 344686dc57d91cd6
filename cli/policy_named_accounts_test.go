package cli

import (
	"strings"
	"testing"
)

// The real service's docs spell a parsed Solana instruction's named accounts
// two ways: `policy check` accepts a condition in either spelling and warns
// that the service may accept only the other.
func TestPolicyCheckAcceptsAndWarnsOfEitherNamedAccountsSpelling(t *testing.T) {
	for spelling, other := range map[string]string{"named_account": "named_accounts", "named_accounts": "named_account"} {
		cond := "solana.tx.instructions.any(i, has(i.parsed_instruction_data) && i.parsed_instruction_data." + spelling + "['authority'] == 'A')"
		code, out, errOut := runCLI(t, t.TempDir(), "", "policy", "check", "--condition", cond)
		if code != 0 {
			t.Fatalf("policy check refused %s: exit %d, %s", spelling, code, errOut)
		}
		if !strings.Contains(out, "ok") {
			t.Errorf("%s: stdout %q does not say it compiles", spelling, out)
		}
		if !strings.Contains(errOut, "warning:") || !strings.Contains(errOut, "may accept only "+other) {
			t.Errorf("%s: stderr %q does not warn that the service may accept only %s", spelling, errOut, other)
		}
	}
}
