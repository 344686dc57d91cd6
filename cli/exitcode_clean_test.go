package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// exitCode is where every command's error reaches the terminal: a library
// error wrapped as it is must not carry a control sequence there, while text
// the verbs escaped already and intended line breaks come out unchanged.
func TestExitCodeEscapesWhatAnErrorCarries(t *testing.T) {
	hostile := "evil\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J.example"
	escaped := api.Sanitize(hostile)
	for _, err := range []error{
		fmt.Errorf("fetch: %w", errors.New(hostile)),
		&exitStatus{exitFailure, "activity failed: " + hostile},
		usageError{msg: "bad flag: " + hostile},
	} {
		var out bytes.Buffer
		exitCode(&out, err)
		if strings.ContainsAny(out.String(), "\x1b\x07") {
			t.Errorf("%T: a raw control character reached stderr: %q", err, out.String())
		}
		if !strings.Contains(out.String(), escaped) {
			t.Errorf("%T: stderr %q does not show the text escaped (%q)", err, out.String(), escaped)
		}
	}

	already := fmt.Sprintf("2 damaged key(s); fix or remove their files:\n  key a: %s\n  key %s: gone", escaped, api.SanitizeID("b\x1bc"))
	var out bytes.Buffer
	exitCode(&out, errors.New(already))
	if want := "vigil: " + already + "\n"; out.String() != want {
		t.Errorf("already escaped text changed:\n got %q\nwant %q", out.String(), want)
	}
}
