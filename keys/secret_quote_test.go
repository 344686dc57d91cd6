package keys

import (
	"os"
	"strings"
	"testing"
)

// A .public file that holds a private key (a cp of the wrong file, a
// restore that swapped them) is never printed by Load's or Info's (so keys
// list's and keys show's) error, which would put the secret in the terminal,
// scrollback and logs: its own private key is named as such, with what to do;
// another key's (which looks like any other hex) is described, not quoted.
func TestPublicFileHoldingThePrivateKeyIsNotPrinted(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	k, err := s.Generate("ops", SchemeEd25519)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Generate(SchemeEd25519)
	if err != nil {
		t.Fatal(err)
	}
	priv, pub, _ := s.Paths("ops")
	b, err := os.ReadFile(priv)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		content, secret, want string
	}{
		{string(b), k.PrivateKeyHex(), pub + " holds the private key, not the public key; remove it"}, // cp ops.private ops.public
		{strings.ToUpper(k.PrivateKeyHex()) + "\n", k.PrivateKeyHex(), pub + " holds the private key, not the public key; remove it"},
		{other.PrivateKeyHex() + "\n", other.PrivateKeyHex(), pub + " does not match its private key (it holds 64 hex digits, not shown"},
	} {
		if err := os.WriteFile(pub, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, lerr := s.Load("ops")
		_, ierr := s.Info("ops")
		list, _ := s.List()
		var perr error
		if len(list) == 1 {
			perr = list[0].Problem
		}
		for what, e := range map[string]error{"Load": lerr, "Info": ierr, "List": perr} {
			if e == nil {
				t.Errorf("%s: no error", what)
				continue
			}
			if strings.Contains(strings.ToLower(e.Error()), strings.ToLower(c.secret)) {
				t.Errorf("%s's error prints a private key: %v", what, e)
			}
			if !strings.Contains(e.Error(), c.want) {
				t.Errorf("%s: %v; want it to say %q", what, e, c.want)
			}
		}
	}
}

// The same through a .scheme file holding a private key (64 hex digits,
// under the 80 characters other messages quote): not printed. A short typo
// is quoted, so its owner sees what to fix.
func TestSchemeFileHoldingThePrivateKeyIsNotPrinted(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	k, err := s.Generate("ops", SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	priv, _, sch := s.Paths("ops")
	b, _ := os.ReadFile(priv)
	for _, c := range []struct{ content, secret, want string }{
		{string(b), k.PrivateKeyHex(), sch + " holds the private key, not the key's scheme"},
		{other.PrivateKeyHex() + "\n", other.PrivateKeyHex(), "it holds 64 hex digits, not shown"},
		{"ed2559\n", "", `"ed2559"; write the key's scheme into it`},
	} {
		os.Remove(sch)
		if err := os.WriteFile(sch, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, lerr := s.Load("ops")
		_, ierr := s.Info("ops")
		for what, e := range map[string]error{"Load": lerr, "Info": ierr} {
			if e == nil {
				t.Errorf("%s: no error", what)
				continue
			}
			if c.secret != "" && strings.Contains(e.Error(), c.secret) {
				t.Errorf("%s's error prints a private key: %v", what, e)
			}
			if !strings.Contains(e.Error(), c.want) {
				t.Errorf("%s: %v; want it to say %q", what, e, c.want)
			}
		}
	}
}
