package cli

import (
	"strings"
	"testing"
)

// A condition whose text is printable ASCII reads a parameter by a CEL
// string literal spelling ESC as \x1b: the snake_case warning quoting the
// decoded name must not write that OSC 52 (clipboard write) to the terminal.
func TestPolicyWarningEscapesDecodedParamName(t *testing.T) {
	cond := `activity.params['X\x1b]52;c;aGVsbG8=\x07'] == 1`
	_, _, errOut := runCLI(t, t.TempDir(), "", "policy", "check", "--condition", cond)
	t.Logf("%q", errOut)
	if strings.ContainsAny(errOut, "\x1b\x07") {
		t.Fatalf("policy check wrote a raw control sequence to the terminal: %q", errOut)
	}
}

// A time expression, printable ASCII, whose Timestamp literal spells ESC as
// \x1b: the diagnostic quoting the decoded literal must show it escaped.
func TestPolicyDiagnosticEscapesDecodedLiteral(t *testing.T) {
	expr := `time.now > Timestamp('\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07')`
	_, _, errOut := runCLI(t, t.TempDir(), "", "policy", "check", "--time", expr)
	t.Logf("%q", errOut)
	if strings.ContainsAny(errOut, "\x1b\x07") {
		t.Fatalf("policy check wrote a raw control sequence to the terminal: %q", errOut)
	}
}

// mfa create checks its condition with the same printer: a parameter name
// spelt with \x1b escapes must reach standard error escaped.
func TestMfaCreateConditionWarningEscapes(t *testing.T) {
	cond := `activity.params['X\x1b[2J\x1b]0;pwned\x07'] == 1`
	_, _, errOut := runCLI(t, t.TempDir(), "", "mfa", "create", "--user", "u", "--name", "n", "--step", "passkey", "--order", "0", "--condition", cond)
	t.Logf("%q", errOut)
	if strings.ContainsAny(errOut, "\x1b\x07") {
		t.Fatalf("mfa create wrote a raw control sequence to the terminal: %q", errOut)
	}
}
