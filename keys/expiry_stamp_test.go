package keys

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// docs/keys.md: once a key's expiry has passed, vigil refuses to stamp with it
// and says to log in again. A key loaded before the expiry (by the console,
// activity wait or webhook listen, which run for hours) must be refused after
// it too, not only a key loaded afterwards. stampAt stands for Stamp at a
// later moment, so the test does not wait for the clock.
func TestLoadedKeyStopsStampingAtItsExpiry(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("brief")
	if err != nil {
		t.Fatal(err)
	}
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Now().Add(time.Hour).Truncate(time.Second)
	if err := r.Save(k, expires); err != nil {
		t.Fatal(err)
	}
	loaded, err := s.Load("brief")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := loaded.Stamp([]byte(`{}`)); err != nil {
		t.Fatalf("before its expiry: %v", err)
	}
	_, _, err = loaded.stampAt([]byte(`{}`), expires.Add(time.Second))
	if !errors.Is(err, ErrKeyExpired) {
		t.Fatalf("a key loaded before its expiry stamps after it: %v", err)
	}
	for _, want := range []string{`"brief"`, "log in again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}
	// A key without a recorded expiry stamps whenever.
	if _, _, err := k.stampAt([]byte(`{}`), expires.Add(time.Hour)); err != nil {
		t.Errorf("a key without an expiry: %v", err)
	}
}
