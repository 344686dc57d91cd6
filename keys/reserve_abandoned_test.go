package keys

import (
	"errors"
	"os"
	"testing"
	"time"
)

// A placeholder is removed by RemoveAbandoned only once no reservation holds
// it: never while a save may still write the key (here, a reservation of
// this very process), and never a saved key.
func TestRemoveAbandonedTakesOnlyADeadReservationsPlaceholder(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	live, err := s.Reserve("live")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Reserve("live")
	var taken *ExistsError
	if !errors.As(err, &taken) || !taken.Placeholder || taken.Abandoned {
		t.Fatalf("a live reservation reserved again: %v (%+v); want a placeholder not abandoned", err, taken)
	}
	if err := s.RemoveAbandoned("live"); !errors.As(err, &taken) {
		t.Fatalf("RemoveAbandoned of a live reservation: %v, want it refused", err)
	}
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	if err := live.Save(k, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveAbandoned("live"); !errors.As(err, &taken) || taken.Placeholder {
		t.Fatalf("RemoveAbandoned of a saved key: %v, want it refused", err)
	}
	if _, err := s.Load("live"); err != nil {
		t.Fatalf("the saved key is gone: %v", err)
	}

	// A reservation whose process died: its file, placeholder and all,
	// with no lock on it (the lock goes with the process).
	dead, err := s.Reserve("dead")
	if err != nil {
		t.Fatal(err)
	}
	dead.f.Close() // as the process's end would
	_, err = s.Reserve("dead")
	if !errors.As(err, &taken) || !taken.Abandoned {
		t.Fatalf("a dead reservation's name: %v, want it abandoned", err)
	}
	if err := s.RemoveAbandoned("dead"); err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("dead")
	if _, err := os.Lstat(priv); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the abandoned placeholder is still there: %v", err)
	}
	if _, err := s.Reserve("dead"); err != nil {
		t.Fatalf("the name is not free again: %v", err)
	}
}
