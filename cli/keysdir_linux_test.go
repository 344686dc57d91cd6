package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// tmpfs mounts a tmpfs of size bytes on a new directory: a keys directory
// that is really full or read-only. Mounting needs root (CAP_SYS_ADMIN);
// without it the test is skipped.
func tmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
		t.Skipf("cannot mount a tmpfs on %s (%v): run as root for this test", dir, err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fillUpTo fills dir's file system, then frees spare bytes (whole pages).
func fillUpTo(t *testing.T, dir string, spare int64) {
	t.Helper()
	path := filepath.Join(dir, "fill")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 4096)
	for {
		if _, err := f.Write(page); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	fi, _ := f.Stat()
	if err := f.Truncate(fi.Size()/4096*4096 - spare); err != nil {
		t.Fatal(err)
	}
}

// unwritableKeysDir is a keys directory holding copies of the named keys of
// the demo (so a profile can stamp with them) that cannot be written: a
// read-only tmpfs as root, else a directory of mode 0500.
func unwritableKeysDir(t *testing.T, e *verbEnv, keyNames ...string) string {
	t.Helper()
	var dir string
	if os.Geteuid() == 0 {
		dir = filepath.Join(tmpfs(t, 64<<10), "keys")
	} else {
		dir = filepath.Join(t.TempDir(), "keys")
	}
	copyKeys(t, e, dir, keyNames...)
	if os.Geteuid() == 0 {
		if err := syscall.Mount("", filepath.Dir(dir), "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			t.Skipf("cannot remount the tmpfs read-only: %v", err)
		}
	} else {
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
	}
	return dir
}

func copyKeys(t *testing.T, e *verbEnv, dir string, keyNames ...string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range keyNames {
		b, err := os.ReadFile(filepath.Join(e.demo.KeysDir, name+".private"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".private"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// addProfileIn appends a profile stamping with key from keysDir.
func (e *verbEnv) addProfileIn(name, key, keysDir string) {
	e.t.Helper()
	f, err := os.OpenFile(e.config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "[profiles.%s]\nbase_url = %q\norganization_id = %q\nkey = %q\nkeys_dir = %q\n", name, e.demo.URL, e.demo.Info.OrganizationID, key, keysDir)
}

// A keys directory that cannot be written is refused before anything is
// sent, naming the directory once and saying what to do; it is not a usage
// error of --name.
func TestKeysDirectoryNotWritable(t *testing.T) {
	e := newVerbEnv(t)
	dir := unwritableKeysDir(t, e, "carol")
	why := "(read-only file system)"
	if os.Geteuid() != 0 {
		why = "(permission denied)"
	}
	want := "vigil: cannot write the keys directory " + dir + " " + why + "; make it writable, or set keys_dir / --dir to a writable directory\n"
	code, out, errOut := e.run("", "keys", "generate", "--dir", dir, "x")
	wantExit(t, "keys generate", code, 1, out, errOut)
	if errOut != want {
		t.Errorf("keys generate in an unwritable directory:\n got %s\nwant %s", errOut, want)
	}

	e.addProfileIn("carol-ro", "carol", dir)
	before := oauthActivities(t, e)
	_, token := e.signInAtProvider("carol")
	code, out, errOut = e.run(token, "login", "oauth", "--profile", "carol-ro", "--provider-token", "-", "--name", "c3-oauth")
	wantExit(t, "login oauth", code, 1, out, errOut)
	// login oauth has no --dir: it says which profile's keys_dir to set.
	want = "vigil: login oauth: cannot write the keys directory " + dir + " " + why + "; make it writable, or set keys_dir in profile \"carol-ro\" to a writable directory\n"
	if errOut != want {
		t.Errorf("login oauth into an unwritable directory:\n got %s\nwant %s", errOut, want)
	}
	if after := oauthActivities(t, e); after != before {
		t.Errorf("the login was sent: %d oauth activities, then %d", before, after)
	}
}

// The audit's repro: a login into a full keys directory. The key's space is
// reserved before the service is asked for a key, so it is refused before
// anything is sent, and the service has made no key to lose.
func TestLoginOAuthIntoAFullKeysDirectorySendsNothing(t *testing.T) {
	e := newVerbEnv(t)
	dir := filepath.Join(tmpfs(t, 64<<10), "keys")
	copyKeys(t, e, dir, "carol")
	fillUpTo(t, filepath.Dir(dir), 0)
	e.addProfileIn("carol-full", "carol", dir)
	before := oauthActivities(t, e)
	_, token := e.signInAtProvider("carol")
	code, out, errOut := e.run(token, "login", "oauth", "--profile", "carol-full", "--provider-token", "-", "--name", "c2-oauth")
	wantExit(t, "login oauth", code, 1, out, errOut)
	want := "vigil: login oauth: cannot write the keys directory " + dir + " (no space left on device); free space there, or set keys_dir in profile \"carol-full\" to another directory\n"
	if errOut != want {
		t.Errorf("login oauth into a full directory:\n got %s\nwant %s", errOut, want)
	}
	if after := oauthActivities(t, e); after != before {
		t.Errorf("the login was sent: %d oauth activities, then %d", before, after)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"carol.private"}) {
		t.Errorf("the keys directory holds %v", got)
	}
}

// On a nearly full disk a generated key is saved without the files that
// describe it, and works: none is left half-written to be refused later.
func TestKeysGenerateOnANearlyFullDisk(t *testing.T) {
	dir := filepath.Join(tmpfs(t, 64<<10), "keys")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fillUpTo(t, filepath.Dir(dir), 4096) // room for the private key alone
	code, out, errOut := runCLI(t, t.TempDir(), "", "keys", "generate", "--dir", dir, "kp")
	wantExit(t, "keys generate", code, 0, out, errOut)
	want := "warning: the key kp is saved and usable; its .public and .scheme files could not be written (no space left on device)\n"
	if errOut != want {
		t.Errorf("keys generate on a nearly full disk:\n got %s\nwant %s", errOut, want)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"kp.private"}) {
		t.Errorf("the keys directory holds %v", got)
	}
	if !strings.Contains(out, "public key file:   (none") {
		t.Errorf("keys generate names a public key file it did not write:\n%s", out)
	}
	pub := regexp.MustCompile(`public key: +([0-9a-f]{66})`).FindStringSubmatch(out)
	if pub == nil {
		t.Fatalf("no public key in:\n%s", out)
	}
	code, out, errOut = runCLI(t, t.TempDir(), "", "keys", "show", "--dir", dir, "kp")
	wantExit(t, "keys show", code, 0, out, errOut)
	if !strings.Contains(out, pub[1]) {
		t.Errorf("keys show of the saved key:\n%s", out)
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
