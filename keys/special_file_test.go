package keys

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// A FIFO (or any file that is not a regular file) beside a key, where its
// .scheme, .public or .expires file belongs, is refused with an error naming
// it; opening it must not block Load, Info or List forever.
func TestFIFOBesideAKeyIsRefused(t *testing.T) {
	for _, ext := range []string{".scheme", ".public", ".expires"} {
		s := Store{Dir: t.TempDir()}
		if _, err := s.Generate("ops", ""); err != nil {
			t.Fatal(err)
		}
		path := s.Dir + "/ops" + ext
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Skip(err)
		}
		// A writer that never writes: without it a blocking open would wait
		// for one forever; with it, a read would. Closed at the end so no
		// goroutine of the test is left behind.
		w, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load("ops"); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: Load error %v; want it to say %s is not a regular file", ext, err, path)
		}
		if _, err := s.Info("ops"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: Info error %v; want not a regular file", ext, err)
		}
		list, err := s.List()
		if err != nil || len(list) != 1 || list[0].Problem == nil {
			t.Errorf("%s: List = %+v, %v; want the key with its problem", ext, list, err)
		}
		w.Close()
	}
}
