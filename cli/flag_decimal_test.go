package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A number flag typed zero-padded, in hex, binary or with an underscore is
// refused with exit 2, naming the flag, before anything is sent: Go's own
// integer flags read 010 as 8, 0x3 as 3 and 1_0 as 10, and mfa create --order
// 010 submitted a signed MFA policy of order 8.
func TestNumberFlagsTakeOnlyPlainDecimal(t *testing.T) {
	e := newVerbEnv(t)
	mfaActivities := func() int { return e.countActivities(t, api.TypeCreateMfaPolicy) }
	before := mfaActivities()
	bad := []string{"010", "00", "0x3", "0b11", "0o7", "1_0", "+1", "-1", " 1", "99999999999999999999"}
	for _, v := range bad {
		code, out, errOut := e.run("", "mfa", "create", "--user", e.userID("alice"), "--name", "padded",
			"--condition", "true", "--step", "passkey", "--order", v)
		wantExit(t, "mfa create --order "+v, code, 2, out, errOut)
		if !strings.Contains(errOut, "-order") || !strings.Contains(errOut, "decimal digits") {
			t.Errorf("--order %q: the refusal names neither the flag nor what to write: %q", v, errOut)
		}
		code, out, errOut = e.run("", "activity", "list", "--limit", v)
		wantExit(t, "activity list --limit "+v, code, 2, out, errOut)
		if !strings.Contains(errOut, "-limit") || !strings.Contains(errOut, "decimal digits") {
			t.Errorf("--limit %q: the refusal names neither the flag nor what to write: %q", v, errOut)
		}
	}
	if after := mfaActivities(); after != before {
		t.Fatalf("a refused --order was sent: %d create_mfa_policy activities before, %d after", before, after)
	}

	a := e.submitAndApprove("", "mfa", "create", "--user", e.userID("alice"), "--name", "ten",
		"--condition", "true", "--step", "passkey", "--order", "10")
	if got := a.Intent.CreateMfaPolicyIntent.Order; got != 10 {
		t.Errorf("--order 10 was sent as order %d", got)
	}
	code, out, errOut := e.run("", "activity", "list", "--limit", "1", "--json")
	wantExit(t, "activity list --limit 1", code, 0, out, errOut)
	var page struct {
		Activities []json.RawMessage `json:"activities"`
	}
	if err := json.Unmarshal([]byte(out), &page); err != nil || len(page.Activities) != 1 {
		t.Errorf("--limit 1 listed %d activities (%v):\n%s", len(page.Activities), err, out)
	}

	// --expiration's bare seconds are read the same way.
	code, out, errOut = e.run("a.b.c\n", "login", "oauth", "--provider-token", "-", "--name", "k", "--expiration", "0900")
	wantExit(t, "login oauth --expiration 0900", code, 2, out, errOut)
	if !strings.Contains(errOut, "leading zero") {
		t.Errorf("--expiration 0900: %q, want the leading zero named", errOut)
	}
}

// Every number flag of the CLI goes through decimalVar: a flag declared with
// the flag package's own integer types would take 010 as octal again.
func TestNoCLIFlagUsesGoIntegerParsing(t *testing.T) {
	goInts := regexp.MustCompile(`\.(Int|Int64|Uint|Uint64)(Var)?\(`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if goInts.MatchString(line) && strings.Contains(line, "fs.") {
				t.Errorf("%s:%d declares an integer flag the flag package parses (010 is octal there); use decimalVar: %s", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}
