package cli

import (
	"strings"
	"sync/atomic"
	"testing"
)

// `vigil mfa list` reads the organization's users once: the records that
// carry every user's MFA policies also name their owners. On a large
// organization list_users is megabytes, so a second read is paid for twice.
func TestMfaListReadsTheUsersOnce(t *testing.T) {
	e := newVerbEnv(t)
	var lists atomic.Int64
	count := func(op string, _, reply []byte) []byte {
		if op == "query/list_users" {
			lists.Add(1)
		}
		return reply
	}
	counted := e.configVia(e.demo.Rewriting(count), e.config+".counted")
	code, out, errOut := e.run("", "mfa", "list", "--config", counted)
	if code != 0 || !strings.Contains(out, "Passkey for policy changes") {
		t.Fatalf("mfa list: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	if got := lists.Load(); got != 1 {
		t.Errorf("mfa list sent list_users %d times; want once", got)
	}
	if !strings.Contains(out, "alice") {
		t.Errorf("mfa list does not name the policies' owners:\n%s", out)
	}
}
