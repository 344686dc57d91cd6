package keys

import (
	"os"
	"strings"
	"testing"
)

// A crash between the creation of a key's .public and its write leaves an
// empty file next to a synced private key: the key loads and is listed,
// its public key derived from the private key, as an empty .scheme is
// recovered.
func TestEmptyPublicLeftByACrashIsDerived(t *testing.T) {
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		s := Store{Dir: t.TempDir()}
		k, err := s.Generate("ops", scheme)
		if err != nil {
			t.Fatal(err)
		}
		want := k.PublicKeyHex()
		_, pub, sch := s.Paths("ops")
		if scheme == SchemeP256 {
			os.Remove(sch) // a P-256 key's .scheme is written after its .public
		}
		if err := os.WriteFile(pub, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load("ops")
		if err != nil {
			t.Fatalf("%s: a key whose .public was left empty by a crash is refused: %v", scheme, err)
		}
		if got.PublicKeyHex() != want {
			t.Fatalf("%s: loaded public key %s, want %s", scheme, got.PublicKeyHex(), want)
		}
		info, err := s.Info("ops")
		if err != nil {
			t.Fatalf("%s: Info: %v", scheme, err)
		}
		if info.PublicKeyHex != want || info.Scheme != scheme {
			t.Fatalf("%s: Info gives %s %s, want %s %s", scheme, info.Scheme, info.PublicKeyHex, scheme, want)
		}
	}
}

// A damaged .expires is never to be removed, which would make a key that
// expires one that never does here: the error says to write the expiry
// back, and calls an empty file what a crash leaves.
func TestDamagedExpiryAdviceKeepsTheExpiry(t *testing.T) {
	for _, content := range []string{"", "\n", "soon\n"} {
		s := Store{Dir: t.TempDir()}
		if _, err := s.Generate("brief", SchemeP256); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.expiryPath("brief"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load("brief")
		if err == nil {
			t.Fatalf("%q: a key whose expiry cannot be read loads", content)
		}
		msg := err.Error()
		if strings.Contains(msg, "or remove it") || !strings.Contains(msg, "write the key's expiry into it") || !strings.Contains(msg, "do not remove the file") {
			t.Errorf("%q: %s; want advice to write the expiry back, not to remove the file", content, msg)
		}
		if empty := strings.TrimSpace(content) == ""; empty != strings.Contains(msg, "is empty (damaged, perhaps by a crash") {
			t.Errorf("%q: %s; an empty file is crash damage, and only an empty one", content, msg)
		}
	}
}
