package keys

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An empty .scheme is what a crash while saving can leave. With the .public
// file beside it, the scheme is the one under which the private key gives
// that public key (a 32-byte private key parses under all three); without
// it, the key is refused, naming the file and what to write into it, since
// nothing else would catch a key read on the wrong curve.
func TestEmptySchemeFileIsReadFromThePublicKeyOrRefused(t *testing.T) {
	for _, scheme := range []string{"p256", "secp256k1", "ed25519"} {
		s := Store{Dir: t.TempDir()}
		made, err := s.Generate("ci", scheme)
		if err != nil {
			t.Fatal(err)
		}
		_, pub, sch := s.Paths("ci")
		for _, content := range []string{"", "  \n", "\nSIGNATURE_SCHEME_TK_API_ED25519\n"} {
			if err := os.WriteFile(sch, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			k, err := s.Load("ci")
			if err != nil || k.PublicKeyHex() != made.PublicKeyHex() {
				t.Errorf("%s, .scheme %q, .public kept: Load = %v, %v; want the key as saved", scheme, content, k, err)
			}
			if info, err := s.Info("ci"); err != nil || info.Scheme != made.Scheme() {
				t.Errorf("%s, .scheme %q, .public kept: Info = %+v, %v; want scheme %s", scheme, content, info, err, made.Scheme())
			}
		}
		os.Remove(pub)
		if info, err := s.Info("ci"); err == nil {
			t.Errorf("%s without .public: Info reports scheme %s; want an error naming %s", scheme, info.Scheme, sch)
		} else if !strings.Contains(err.Error(), sch) || !strings.Contains(err.Error(), "ed25519") {
			t.Errorf("%s without .public: Info error %q does not name the file and what to write into it", scheme, err)
		}
		if k, err := s.Load("ci"); err == nil {
			t.Errorf("%s without .public: Load = %s key; want an error naming %s", scheme, k.Scheme(), sch)
		} else if !strings.Contains(err.Error(), sch) {
			t.Errorf("%s without .public: Load error %q does not name %s", scheme, err, sch)
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
