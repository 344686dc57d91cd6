package keys

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A crash can leave an empty .scheme file next to a synced private key. An
// Ed25519 key must then not load, or be listed, as a P-256 key made from its
// seed: only a missing .scheme file means P-256.
func TestEmptySchemeFileIsRefused(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Generate("ci", "ed25519"); err != nil {
		t.Fatal(err)
	}
	_, pub, sch := s.Paths("ci")
	for _, content := range []string{"", "  \n", "\nSIGNATURE_SCHEME_TK_API_ED25519\n"} {
		if err := os.WriteFile(sch, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if info, err := s.Info("ci"); err == nil {
			t.Errorf(".scheme %q: Info reports scheme %s; want an error naming %s", content, info.Scheme, sch)
		} else if !strings.Contains(err.Error(), sch) || !strings.Contains(err.Error(), "ed25519") {
			t.Errorf(".scheme %q: Info error %q does not name the file and what to write into it", content, err)
		}
		// Without the .public file nothing else catches the wrong curve.
		os.Remove(pub)
		if k, err := s.Load("ci"); err == nil {
			t.Errorf(".scheme %q: Load = %s key; want an error naming %s", content, k.Scheme(), sch)
		} else if !strings.Contains(err.Error(), sch) {
			t.Errorf(".scheme %q: Load error %q does not name %s", content, err, sch)
		}
	}
}

// syncRecorder is a real file that records whether it was synced before it
// was closed.
type syncRecorder struct {
	*os.File
	synced map[string]bool
}

func (f syncRecorder) Sync() error {
	f.synced[filepath.Base(f.Name())] = true
	return f.File.Sync()
}

// Every file a save writes reaches the disk before the save reports success:
// an unsynced .scheme can be empty after a crash, next to a synced key.
func TestEveryKeyFileIsSynced(t *testing.T) {
	for _, scheme := range []string{"p256", "ed25519", "secp256k1"} {
		s := Store{Dir: t.TempDir()}
		synced := map[string]bool{}
		s.openFile = func(name string, flag int, perm fs.FileMode) (file, error) {
			f, err := os.OpenFile(name, flag, perm)
			if err != nil {
				return nil, err
			}
			return syncRecorder{File: f, synced: synced}, nil
		}
		if _, err := s.Generate("k", scheme); err != nil {
			t.Fatal(err)
		}
		for _, n := range names(t, s.Dir) {
			if !synced[n] {
				t.Errorf("%s: %s was not synced", scheme, n)
			}
		}
	}
}
