//go:build unix

package keys

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
	"time"
)

// Another process's RemoveAbandoned (or its placeholderAbandoned probe) may
// hold the lock of a .private file in the instant between Reserve's O_EXCL
// create and Reserve's own lock. Reserve never goes on unlocked: a live
// reservation whose lock is free would later be judged abandoned by
// `login oauth --recover` of the same name, its placeholder removed, and the
// one-time OAuth key saved into it lost. Here the other process holds the lock
// throughout: Reserve refuses, clearly, and leaves nothing behind; once the
// other process is done, Reserve holds the lock, and RemoveAbandoned leaves
// the live reservation alone.
func TestReserveNeverHoldsAnUnlockedPlaceholder(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	var probe *os.File
	s.openFile = func(name string, flag int, perm fs.FileMode) (file, error) {
		f, err := os.OpenFile(name, flag, perm)
		if err == nil && flag&os.O_EXCL != 0 && probe == nil {
			probe, _ = os.Open(name)
			if err := syscall.Flock(int(probe.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Fatal(err)
			}
		}
		return f, err
	}
	_, err := s.Reserve("carol")
	var de *DirError
	if !errors.As(err, &de) {
		t.Fatalf("Reserve while another process holds the file's lock: %v, want a *DirError saying so", err)
	}
	probe.Close()
	priv, _, _ := s.Paths("carol")
	if _, err := os.Lstat(priv); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the refused reservation left %s behind: %v", priv, err)
	}

	live, err := s.Reserve("carol")
	if err != nil {
		t.Fatalf("Reserve once the other process is done: %v", err)
	}
	if err := s.RemoveAbandoned("carol"); err == nil {
		t.Errorf("RemoveAbandoned removed a live reservation's placeholder")
	}
	k, _ := Generate(SchemeP256)
	saveErr := live.Save(k, time.Time{})
	if _, err := s.Load("carol"); err != nil {
		t.Errorf("the key is lost: Save said %v, Load says %v", saveErr, err)
	}
}
