package webhook

import (
	"testing"
	"time"
)

// A ring saved while more rotated-out keys than maxRingKeys still had an
// attempt on the wire (Marshal keeps them, marked retiring) loads, with the
// active key alone: a stored ring that cannot load keeps the service from
// starting.
func TestRingSavedWithManyRetiringKeysLoads(t *testing.T) {
	r, err := NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	for range maxRingKeys {
		_, release, err := r.signHeld("org-1", "ev-1", time.Now(), []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		if _, err := r.Rotate(); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := r.Marshal() // a crash now: the stored ring is this
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadKeyRing(raw)
	if err != nil {
		t.Fatalf("the stored ring of a running service cannot be loaded: %v", err)
	}
	if loaded.ActiveKeyID() != r.ActiveKeyID() {
		t.Fatalf("the loaded ring signs with %s, the saved one with %s", loaded.ActiveKeyID(), r.ActiveKeyID())
	}
	if n := len(loaded.JWKS().Keys); n != 1 {
		t.Fatalf("the loaded ring publishes %d keys; the retiring ones, with nothing in flight after a restart, should be gone", n)
	}
}
