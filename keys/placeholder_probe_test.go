package keys

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A save may finish between Load reading the placeholder and probing its
// lock (Save drops the lock as it closes the key file). The probe then finds
// the lock free; were the placeholder not read again, the error would say
// the save did not finish and to remove the file, which now holds the key.
func TestLoadWhileSaveFinishesUsesTheSavedKey(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("carol")
	if err != nil {
		t.Fatal(err)
	}
	k, err := Generate(SchemeEd25519)
	if err != nil {
		t.Fatal(err)
	}
	saved := false
	s.beforeProbe = func() {
		if !saved {
			saved = true
			if err := r.Save(k, time.Now().Add(time.Hour)); err != nil {
				t.Errorf("Save: %v", err)
			}
		}
	}
	got, err := s.Load("carol")
	if !saved {
		t.Fatal("Load did not read the placeholder before the save")
	}
	if err != nil {
		if strings.Contains(err.Error(), "remove it") || strings.Contains(err.Error(), "did not finish") {
			t.Fatalf("Load, as the save of carol finished, advises removing the saved key: %v", err)
		}
		t.Fatalf("Load, as the save of carol finished: %v", err)
	}
	if got.PublicKeyHex() != k.PublicKeyHex() || got.Scheme() != k.Scheme() {
		t.Errorf("Load gave key %s (%s), want the one saved, %s (%s)", got.PublicKeyHex(), got.Scheme(), k.PublicKeyHex(), k.Scheme())
	}
}

// A reservation cancelled between the read and the probe leaves no key:
// Load says so, and never advises removing a file.
func TestLoadWhileReservationIsCancelledSaysNoKey(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("carol")
	if err != nil {
		t.Fatal(err)
	}
	s.beforeProbe = r.Cancel
	_, err = s.Load("carol")
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Load, as the reservation of carol was cancelled: %v, want no such key", err)
	}
}

// A placeholder still there and unlocked after the re-read was left by a
// save that died: that one, and only that one, is to be removed.
func TestLoadOfAbandonedPlaceholderAdvisesRemoval(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("carol")
	if err != nil {
		t.Fatal(err)
	}
	r.f.Close() // as the death of its process would
	_, err = s.Load("carol")
	if err == nil || !strings.Contains(err.Error(), "did not finish") || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("Load of an abandoned placeholder: %v, want it called unfinished and removable", err)
	}
}
