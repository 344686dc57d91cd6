//go:build unix

package keys

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A key kept on a volume under another name (vault/prod.key, linked into
// the store as prod.private) is still prod's key whichever way a second
// link reaches it: ops.private -> prod.private and ops.private ->
// vault/prod.key are both refused, naming prod's file, or vigil would
// stamp with prod's key as ops.
func TestPrivateLinkedToAnotherKeysFileByAnyWayIsRefused(t *testing.T) {
	root := t.TempDir()
	vault := filepath.Join(root, "vault")
	if err := os.Mkdir(vault, 0o700); err != nil {
		t.Fatal(err)
	}
	s := Store{Dir: filepath.Join(root, "keys")}
	if _, err := s.Generate("ops", "p256"); err != nil {
		t.Fatal(err)
	}
	prod, err := s.Generate("prod", "p256")
	if err != nil {
		t.Fatal(err)
	}
	prodPriv, _, _ := s.Paths("prod")
	kept := filepath.Join(vault, "prod.key")
	if err := os.Rename(prodPriv, kept); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(kept, prodPriv); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"prod.private", kept} {
		priv, pub, sch := s.Paths("ops")
		for _, p := range []string{priv, pub, sch} {
			os.Remove(p)
		}
		if err := os.Symlink(target, priv); err != nil {
			t.Fatal(err)
		}
		k, err := s.Load("ops")
		if err == nil {
			t.Errorf("ops.private -> %s: Load(ops) succeeded (prod's key: %v); want it refused", target, k.PublicKeyHex() == prod.PublicKeyHex())
		} else if msg := err.Error(); !strings.Contains(msg, prodPriv) || !strings.Contains(msg, "another key's") {
			t.Errorf("ops.private -> %s: Load(ops) = %v; want it refused as another key's file, naming %s", target, err, prodPriv)
		}
		if _, err := s.Info("ops"); err == nil {
			t.Errorf("ops.private -> %s: Info (keys show) succeeded", target)
		}
		// Which of the two links is wrong, vigil cannot know: prod is
		// refused too, until one goes (as for a hard link).
		if _, err := s.Load("prod"); err == nil {
			t.Errorf("ops.private -> %s: Load(prod) succeeded while ops reaches its file too", target)
		}
		if err := os.Remove(priv); err != nil {
			t.Fatal(err)
		}
		if k, err := s.Load("prod"); err != nil || k.PublicKeyHex() != prod.PublicKeyHex() {
			t.Errorf("Load(prod), kept on the vault, once ops's link is gone = %v; want prod's key", err)
		}
	}
}

// A key linked from a volume whose file there is hard-linked (a backup
// tool's hard-link farm) is refused, and the advice, pasted into a shell,
// makes that file one of its own where it is: the link stays, the key stays
// on its volume (not copied into the keys directory), and it loads. Paths
// with spaces (macOS "Application Support") must survive the paste.
func TestHardLinkedLinkTargetAdviceKeepsTheKeyOnItsVolume(t *testing.T) {
	s, k, root := vaultKey(t, "my vault", "my vault/ops.private")
	kept := filepath.Join(root, "my vault", "ops.private")
	backup := filepath.Join(root, "my vault", "backup of ops")
	if err := os.Link(kept, backup); err != nil {
		t.Fatal(err)
	}
	runAdvice(t, s)
	priv, _, _ := s.Paths("ops")
	if li, err := os.Lstat(priv); err != nil || li.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after the advice %s is no longer the link to the volume (%v): the key was copied off it", priv, err)
	}
	got, err := s.Load("ops")
	if err != nil {
		t.Fatalf("Load after the advice: %v", err)
	}
	if got.PublicKeyHex() != k.PublicKeyHex() {
		t.Error("Load after the advice gave another key")
	}
	if b, err := os.ReadFile(backup); err != nil || !strings.Contains(string(b), k.PrivateKeyHex()) {
		t.Errorf("the backup's name lost the key (%v)", err)
	}
}

// The hard-link advice for a key file in a directory whose path has spaces
// (macOS "Application Support") works pasted into a shell: afterwards the
// key is a file of its own and loads.
func TestHardLinkAdviceWorksInAShell(t *testing.T) {
	root := t.TempDir()
	s := Store{Dir: filepath.Join(root, "Application Support", "vigil keys")}
	k, err := s.Generate("ops", "p256")
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := s.Paths("ops")
	if err := os.Link(priv, filepath.Join(root, "backup of ops")); err != nil {
		t.Fatal(err)
	}
	runAdvice(t, s)
	if got, err := s.Load("ops"); err != nil || got.PublicKeyHex() != k.PublicKeyHex() {
		t.Errorf("Load after the advice = %v; want the key", err)
	}
}

// runAdvice loads key ops of s, which must be refused with the hard-link
// advice, and runs that advice with /bin/sh.
func runAdvice(t *testing.T, s Store) {
	t.Helper()
	_, err := s.Load("ops")
	if err == nil {
		t.Fatal("Load of a hard-linked key file succeeded")
	}
	_, cmd, ok := strings.Cut(err.Error(), ": cp -p ")
	if !ok {
		t.Fatalf("Load = %v; want the cp -p advice", err)
	}
	cmd = "cp -p " + cmd
	if out, err := exec.Command("/bin/sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("the advice %q fails in a shell: %v\n%s", cmd, err, out)
	}
}
