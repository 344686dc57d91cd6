package cli

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The error of an expired login key says how to log in again, and both
// ways it gives work as written: a new name from a profile whose key still
// works, or, to keep the name, the rm it prints, then the login under the
// same name (refused while the expired key's files hold it).
func TestExpiredKeyAdviceWorksAsGiven(t *testing.T) {
	e := newVerbEnv(t)
	target, token := e.signInAtProvider("carol")
	code, out, errOut := e.run(token, "login", "oauth", "--profile", "carol", "--target-key", target, "--provider-token", "-", "--name", "brief")
	wantExit(t, "login", code, 0, out, errOut)
	saved := regexp.MustCompile(`\((/\S+)\.private\)`).FindStringSubmatch(out)
	if saved == nil {
		t.Fatalf("login printed no saved key path:\n%s", out)
	}
	// Expired by its own record, as the clock would make it.
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	if err := os.WriteFile(saved[1]+".expires", []byte(past+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.addProfile("brief", "brief")
	code, out, errOut = e.run("", "request", "--profile", "brief", "--path", "/public/v1/query/whoami",
		"--body", fmt.Sprintf(`{"organizationId":%q}`, e.demo.Info.OrganizationID))
	wantExit(t, "request with the expired key", code, 1, out, errOut)

	newName := regexp.MustCompile(`'vigil login oauth --profile PROFILE --name (\S+) …'`).FindStringSubmatch(errOut)
	rm := regexp.MustCompile(`remove its files first \(rm ([^)]+)\)`).FindStringSubmatch(errOut)
	if newName == nil || rm == nil {
		t.Fatalf("the expired-key error gives no new name or no rm command: %s", errOut)
	}
	target, token = e.signInAtProvider("carol")
	code, out, errOut = e.run(token, "login", "oauth", "--profile", "carol", "--target-key", target, "--provider-token", "-", "--name", newName[1])
	wantExit(t, "login under the new name the error gives", code, 0, out, errOut)

	for _, path := range strings.Fields(rm[1]) {
		if err := os.Remove(path); err != nil {
			t.Fatalf("the rm the error gives names %s: %v", path, err)
		}
	}
	target, token = e.signInAtProvider("carol")
	code, out, errOut = e.run(token, "login", "oauth", "--profile", "carol", "--target-key", target, "--provider-token", "-", "--name", "brief")
	wantExit(t, "login under the old name once its files are removed", code, 0, out, errOut)
}
