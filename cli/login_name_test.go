package cli

import (
	"strings"
	"testing"
)

// A 35-character --name is valid; the login keeps its target key as
// NAME-target (42), which is checked as a file name only, not as a secret:
// the login is not refused for a length it keeps to.
func TestLoginOAuthLongNameAccepted(t *testing.T) {
	name := "OpsApprover2024ProductionTreasury01"
	xdg := t.TempDir()
	code, _, errOut := runCLI(t, xdg, "tok\n", "login", "oauth", "--name", name, "--provider-token", "-")
	if strings.Contains(errOut, "is at most") || strings.Contains(errOut, "looks like a private key") {
		t.Errorf("exit %d: a valid 35-character --name is refused:\n%s", code, errOut)
	}
}
