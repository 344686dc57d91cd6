package keys

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// 'vigil login oauth --name carol' holds carol.private as a placeholder for
// the whole sign-in (minutes). Meanwhile 'vigil keys list' (or 'keys show',
// or a profile with key = "carol") must say a save is running, not that
// one did not finish and the file may be removed: that would lose the key.
func TestLiveReservationIsNotCalledUnfinishedAndRemovable(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("carol")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Cancel()
	infos, err := s.List()
	if err != nil || len(infos) != 1 || infos[0].Problem == nil {
		t.Fatalf("List: %v %+v", err, infos)
	}
	msg := infos[0].Problem.Error()
	if strings.Contains(msg, "did not finish") || strings.Contains(msg, "remove it") || !strings.Contains(msg, "saving it now") {
		t.Errorf("keys list, while a save of carol is running in another process, says:\n  %s", msg)
	}
	if _, err := s.Load("carol"); err != nil && (strings.Contains(err.Error(), "did not finish") || strings.Contains(err.Error(), "remove it")) {
		t.Errorf("Load, while a save of carol is running: %v", err)
	}
}

// A placeholder removed while its save runs must not make Save report a
// key saved that nothing can load: the key is kept elsewhere, as when it
// cannot be written.
func TestSaveIntoRemovedPlaceholderReportsSuccess(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("carol")
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("carol")
	if err := os.Remove(priv); err != nil { // as the message advises
		t.Fatal(err)
	}
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	s.fallbackDirs = []string{t.TempDir()}
	r.store = s
	saveErr := r.Save(k, time.Now().Add(time.Hour))
	if _, err := s.Load("carol"); err != nil && saveErr == nil {
		t.Fatalf("Save reported the key saved, but it cannot be loaded: %v", err)
	}
	// The key the service made once is kept elsewhere, and the error says where.
	var ns *NotSavedError
	if !errors.As(saveErr, &ns) || ns.Copy == "" || !strings.Contains(saveErr.Error(), ns.Copy) {
		t.Fatalf("Save into a removed placeholder: %v", saveErr)
	}
	if !holdsKey(ns.Copy, k) {
		t.Errorf("%s does not hold the key", ns.Copy)
	}
}
