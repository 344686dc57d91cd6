package cli

import (
	"bytes"
	"strings"
	"testing"
)

// user get, user list and apikey get read the names exact and escape them
// once, as docs/cli.md promises: a user or key name holding a real newline is
// shown quoted ("al\nice") and never like the one holding a backslash and an
// n typed as text ("al\\nice").
func TestUserAndKeyNamesTellRealControlsFromTypedEscapes(t *testing.T) {
	e := newVerbEnv(t)
	alice := e.userID("alice")
	key := e.onlyKeyOf("alice")
	keyName := func() string {
		t.Helper()
		code, out, errOut := e.run("", "apikey", "get", "--json", key)
		wantExit(t, "apikey get --json", code, 0, out, errOut)
		i := strings.Index(out, `"apiKeyName": "`)
		if i < 0 {
			t.Fatalf("apikey get --json has no apiKeyName:\n%s", out)
		}
		rest := out[i+len(`"apiKeyName": "`):]
		return rest[:strings.IndexByte(rest, '"')]
	}()
	via := func(name string) *verbEnv {
		return e.via(func(op string, request, reply []byte) []byte {
			reply = bytes.ReplaceAll(reply, []byte(`"userName":"alice"`), []byte(`"userName":"`+name+`"`))
			return bytes.ReplaceAll(reply, []byte(`"apiKeyName":"`+keyName+`"`), []byte(`"apiKeyName":"`+name+`"`))
		})
	}
	type shown struct{ name, row, keyRow, keyGet string }
	lines := func(env *verbEnv) shown {
		t.Helper()
		var s shown
		code, out, errOut := env.run("", "user", "get", alice)
		wantExit(t, "user get", code, 0, out, errOut)
		wantOnlyEscaped(t, "user get", out)
		s.name, s.keyRow = lineOf(t, out, "name:"), lineOf(t, out, "api key")
		code, out, errOut = env.run("", "user", "list")
		wantExit(t, "user list", code, 0, out, errOut)
		wantOnlyEscaped(t, "user list", out)
		s.row = lineOf(t, out, alice)
		code, out, errOut = env.run("", "apikey", "get", key)
		wantExit(t, "apikey get", code, 0, out, errOut)
		wantOnlyEscaped(t, "apikey get", out)
		s.keyGet = lineOf(t, out, "name:")
		return s
	}
	real := lines(via(`al\nice`))   // a real newline in the names
	typed := lines(via(`al\\nice`)) // backslash, n typed as text
	for _, c := range []struct{ what, real, typed string }{
		{"user get name", real.name, typed.name},
		{"user list row", real.row, typed.row},
		{"user get key row", real.keyRow, typed.keyRow},
		{"apikey get name", real.keyGet, typed.keyGet},
	} {
		if c.real == c.typed || !strings.Contains(c.real, `"al\nice"`) || !strings.Contains(c.typed, `"al\\nice"`) {
			t.Errorf("%s: want \"al\\nice\" for a real newline and \"al\\\\nice\" for a typed one:\n%s\n%s", c.what, c.real, c.typed)
		}
	}
}
