package keys

import (
	"os"
	"testing"
	"time"
)

// closeHookFile runs after once the file is closed: a scheduling point inside
// Cancel, right after it drops the reservation's lock.
type closeHookFile struct {
	*os.File
	after func()
}

func (h *closeHookFile) Close() error {
	err := h.File.Close()
	h.after()
	return err
}

// Cancel must not delete a key another process saved under the name. Once a
// cancelled reservation's lock is dropped, another process (login oauth
// --recover) may take its placeholder for abandoned, remove it, reserve the
// name and save the API key it cannot make again; a removal by path after
// that would delete its key.
func TestCancelNeverRemovesAKeySavedAfterItsLockIsDropped(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	a, err := s.Reserve("x")
	if err != nil {
		t.Fatal(err)
	}
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("x")
	var bErr error
	a.f = &closeHookFile{File: a.f.(*os.File), after: func() {
		// Another process, as soon as the lock is free.
		if _, err := os.Lstat(priv); err == nil {
			if bErr = s.RemoveAbandoned("x"); bErr != nil {
				return
			}
		}
		b, err := s.Reserve("x")
		if err != nil {
			bErr = err
			return
		}
		bErr = b.Save(k, time.Time{})
	}}
	a.Cancel()
	if bErr != nil {
		t.Fatalf("the other process could not save its key: %v", bErr)
	}
	got, err := s.Load("x")
	if err != nil {
		t.Fatalf("a key saved (and reported saved) under the name is gone: %v", err)
	}
	if got.PublicKeyHex() != k.PublicKeyHex() {
		t.Errorf("key x is not the one saved")
	}
}
