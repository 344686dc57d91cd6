package keys

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStoreGenerateLoadList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	s := Store{Dir: dir}
	made := map[string]*Key{}
	for name, scheme := range map[string]string{"alice": "", "bob": "secp256k1", "carol": SchemeEd25519} {
		k, err := s.Generate(name, scheme)
		if err != nil {
			t.Fatalf("Generate %s: %v", name, err)
		}
		made[name] = k
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("keys directory mode %v (%v), want 0700", fi.Mode().Perm(), err)
	}
	for name, k := range made {
		priv := filepath.Join(dir, name+".private")
		fi, err := os.Stat(priv)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v (%v), want 0600", priv, fi.Mode().Perm(), err)
		}
		b, _ := os.ReadFile(priv)
		if string(b) != k.PrivateKeyHex()+"\n" {
			t.Errorf("%s holds %q", priv, b)
		}
		b, _ = os.ReadFile(filepath.Join(dir, name+".public"))
		if string(b) != k.PublicKeyHex()+"\n" {
			t.Errorf("%s.public holds %q", name, b)
		}
		loaded, err := s.Load(name)
		if err != nil {
			t.Fatalf("Load %s: %v", name, err)
		}
		if loaded.Scheme() != k.Scheme() || loaded.PublicKeyHex() != k.PublicKeyHex() {
			t.Errorf("Load %s = %s %s, want %s %s", name, loaded.Scheme(), loaded.PublicKeyHex(), k.Scheme(), k.PublicKeyHex())
		}
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].Name != "alice" || list[1].Name != "bob" || list[2].Name != "carol" {
		t.Fatalf("List = %+v", list)
	}
	if list[1].Scheme != SchemeSecp256k1 || list[1].PublicKeyHex != made["bob"].PublicKeyHex() {
		t.Errorf("List bob = %+v", list[1])
	}
}

func TestStoreRefusesReadablePrivateKey(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	if _, err := s.Generate("k", ""); err != nil {
		t.Fatal(err)
	}
	priv := filepath.Join(s.Dir, "k.private")
	if err := os.Chmod(priv, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Load("k")
	if err == nil || !strings.Contains(err.Error(), "chmod 600 "+priv) {
		t.Fatalf("Load of a 0644 key: %v, want the chmod 600 fix naming %s", err, priv)
	}
	os.Chmod(priv, 0o640)
	if _, err := s.Load("k"); err == nil {
		t.Error("group-readable key loaded")
	}
	os.Chmod(priv, 0o400)
	if _, err := s.Load("k"); err != nil {
		t.Errorf("0400 key refused: %v", err)
	}
}

func TestStoreNeverOverwrites(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	first, err := s.Generate("k", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Generate("k", "ed25519")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(s.Dir, "k.")) {
		t.Fatalf("second Generate: %v, want an error naming the existing file", err)
	}
	if _, err := s.Import("k", "p256", strings.Repeat("1", 64)); err == nil {
		t.Fatal("Import over an existing key succeeded")
	}
	k, err := s.Load("k")
	if err != nil || k.PrivateKeyHex() != first.PrivateKeyHex() {
		t.Fatalf("key changed after refused overwrite: %v", err)
	}
}

func TestStoreImport(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	// RFC 8032 §7.1 test 1.
	k, err := s.Import("ed", "ed25519", " 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60\n")
	if err != nil {
		t.Fatal(err)
	}
	if k.PublicKeyHex() != "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a" {
		t.Errorf("imported public key %s", k.PublicKeyHex())
	}
	loaded, err := s.Load("ed")
	if err != nil || loaded.Scheme() != SchemeEd25519 {
		t.Fatalf("Load imported: %v", err)
	}
	if _, err := s.Import("bad", "p256", "xyz"); err == nil {
		t.Error("non-hex import accepted")
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "bad.private")); err == nil {
		t.Error("failed import left a file")
	}
}

func TestStoreBareHexFileIsP256AndPublicMustMatch(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	one := strings.Repeat("0", 63) + "1"
	if err := os.WriteFile(filepath.Join(s.Dir, "ext.private"), []byte(one+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	k, err := s.Load("ext")
	if err != nil || k.Scheme() != SchemeP256 {
		t.Fatalf("bare hex key: %v", err)
	}
	os.WriteFile(filepath.Join(s.Dir, "ext.public"), []byte("02"+strings.Repeat("ab", 32)+"\n"), 0o644)
	if _, err := s.Load("ext"); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("mismatched .public: %v", err)
	}
}

func TestStoreNames(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	for _, name := range []string{"", "../x", "a/b", ".hidden", `a\b`, "a b", strings.Repeat("x", 65)} {
		if _, err := s.Generate(name, ""); err == nil {
			t.Errorf("name %q accepted", name)
		}
		if _, err := s.Load(name); err == nil {
			t.Errorf("Load(%q) succeeded", name)
		}
	}
	// The advice fits a profile whose registered key file is not found: check
	// where it points; a new key needs registering too.
	_, err := s.Load("missing")
	for _, want := range []string{filepath.Join(s.Dir, "missing.private"), "check the key name and the keys directory", "keys_dir",
		"'vigil keys generate missing' must also be registered as an API key"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing key: %v, want it to say %q", err, want)
		}
	}
}

func TestDefaultDir(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if got, err := DefaultDir(get); got != "/home/u/.config/vigil/keys" || err != nil {
		t.Errorf("DefaultDir without XDG = %s, %v", got, err)
	}
	env["XDG_CONFIG_HOME"] = "relative" // ignored, as the XDG spec says
	if got, err := DefaultDir(get); got != "/home/u/.config/vigil/keys" || err != nil {
		t.Errorf("DefaultDir with a relative XDG = %s, %v", got, err)
	}
	env["XDG_CONFIG_HOME"] = "/x"
	if got, err := DefaultDir(get); got != "/x/vigil/keys" || err != nil {
		t.Errorf("DefaultDir with XDG = %s, %v", got, err)
	}
}

// Without HOME and XDG_CONFIG_HOME (cron, a systemd unit, env -i) there is no
// default keys directory: a relative one would put keys under whatever
// directory vigil was started in.
func TestNoDefaultDirWithoutHome(t *testing.T) {
	for _, env := range []map[string]string{{}, {"HOME": "rel"}, {"XDG_CONFIG_HOME": "rel"}} {
		got, err := DefaultDir(func(k string) string { return env[k] })
		if err == nil || !strings.Contains(err.Error(), "set HOME") || !strings.Contains(err.Error(), "--dir") {
			t.Errorf("env %v: DefaultDir = %q, %v; want an error saying to set HOME or give --dir", env, got, err)
		}
	}
}

// saveExpiring saves k as name through a reservation, as an OAuth login does.
func saveExpiring(s Store, name string, k *Key, expires time.Time) error {
	r, err := s.Reserve(name)
	if err != nil {
		return err
	}
	return r.Save(k, expires)
}

func TestSavedExpiryIsRecordedAndEnforced(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour).Truncate(time.Second)
	if err := saveExpiring(s, "live", k, later); err != nil {
		t.Fatal(err)
	}
	info, err := s.Info("live")
	if err != nil || !info.Expires.Equal(later) {
		t.Fatalf("Info: %v, expires %v, want %v", err, info.Expires, later)
	}
	if _, err := s.Load("live"); err != nil {
		t.Fatalf("a key before its expiry: %v", err)
	}
	if err := saveExpiring(s, "live", k, later); err == nil {
		t.Fatal("a reservation overwrote a key")
	}
	if err := saveExpiring(s, "gone", k, time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = s.Load("gone")
	if !errors.Is(err, ErrKeyExpired) || !strings.Contains(err.Error(), "log in again") {
		t.Fatalf("an expired key: %v", err)
	}
	if _, err := s.Info("gone"); err != nil {
		t.Fatalf("an expired key is still listed: %v", err)
	}
	plain, _ := s.Info("live")
	if _, err := s.Generate("plain", SchemeP256); err != nil {
		t.Fatal(err)
	}
	if info, _ := s.Info("plain"); !info.Expires.IsZero() || plain.Expires.IsZero() {
		t.Fatalf("expiry of a generated key: %v", info.Expires)
	}
}

// A name any of whose files is left over is taken: a new key must not inherit
// an old key's expiry or public half.
func TestLeftoverFilesTakeTheName(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	for _, ext := range []string{".private", ".public", ".scheme", ".expires"} {
		path := filepath.Join(s.Dir, "old"+ext)
		if err := os.WriteFile(path, []byte("2020-01-01T00:00:00Z\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Generate("old", SchemeP256); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("generate over a leftover %s: %v", ext, err)
		}
		if _, err := s.Import("old", SchemeP256, strings.Repeat("11", 32)); err == nil {
			t.Errorf("import over a leftover %s succeeded", ext)
		}
		os.Remove(path)
	}
	if _, err := s.Generate("old", SchemeP256); err != nil {
		t.Fatalf("generate once the leftovers are gone: %v", err)
	}
	if info, err := s.Info("old"); err != nil || !info.Expires.IsZero() {
		t.Errorf("the new key: %+v, %v", info, err)
	}
}

// A reservation holds the name until it is saved or cancelled.
func TestReservationHoldsTheName(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("login")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Generate("login", SchemeP256); err == nil {
		t.Error("generate took a reserved name")
	}
	r.Cancel()
	if _, err := os.Stat(filepath.Join(s.Dir, "login.private")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cancel left the reservation: %v", err)
	}
	r, err = s.Reserve("login")
	if err != nil {
		t.Fatal(err)
	}
	k, _ := Generate(SchemeP256)
	if err := r.Save(k, time.Time{}); err != nil {
		t.Fatal(err)
	}
	r.Cancel() // after Save: nothing
	got, err := s.Load("login")
	if err != nil || got.PublicKeyHex() != k.PublicKeyHex() {
		t.Fatalf("load the saved key: %v", err)
	}
	if err := r.Save(k, time.Time{}); err == nil {
		t.Error("a reservation saved twice")
	}
}

// Once the private key is written it is kept, whatever fails after: for an
// OAuth login it is the only copy of a key the service has made. A key of any
// scheme loads as itself without its .public file.
func TestSaveKeepsThePrivateKeyWhenItsOtherFilesFail(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	for _, scheme := range []string{SchemeP256, SchemeEd25519} {
		name := "login-" + scheme[len(scheme)-5:]
		r, err := s.Reserve(name)
		if err != nil {
			t.Fatal(err)
		}
		priv, pub, _ := s.Paths(name)
		if err := os.Mkdir(pub, 0o700); err != nil { // the .public file cannot be written
			t.Fatal(err)
		}
		k, _ := Generate(scheme)
		err = r.Save(k, time.Now().Add(time.Hour))
		var inc *IncompleteError
		if !errors.As(err, &inc) || !strings.Contains(err.Error(), "the key "+name+" is saved and usable; its .public file could not be written") {
			t.Fatalf("Save of a %s key: %v", scheme, err)
		}
		b, rerr := os.ReadFile(priv)
		if rerr != nil || strings.TrimSpace(string(b)) != k.PrivateKeyHex() {
			t.Fatalf("the private key was not kept: %v", rerr)
		}
		os.Remove(pub)
		if got, err := s.Load(name); err != nil || got.Scheme() != scheme || got.PublicKeyHex() != k.PublicKeyHex() {
			t.Fatalf("the kept %s key does not load as itself: %v", scheme, err)
		}
		if info, err := s.Info(name); err != nil || info.Scheme != scheme || info.Expires.IsZero() {
			t.Errorf("Info of the kept %s key: %+v %v", scheme, info, err)
		}
	}
}

// A keys directory that cannot be made or written is named once, with what
// to do; a taken name is another error, which a caller fixes with a new name.
func TestReserveNamesAnUnwritableDirectoryOnce(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(blocker, "keys")
	_, err := Store{Dir: dir}.Generate("x", SchemeP256)
	want := "cannot create the keys directory " + dir + " (not a directory); make it writable, or set keys_dir / --dir to a writable directory"
	var dirErr *DirError
	if !errors.As(err, &dirErr) || err.Error() != want {
		t.Fatalf("Generate under a file:\n got %v\nwant %s", err, want)
	}

	s := Store{Dir: t.TempDir()}
	if _, err := s.Generate("taken", SchemeP256); err != nil {
		t.Fatal(err)
	}
	_, err = s.Reserve("taken")
	var exists *ExistsError
	if !errors.As(err, &exists) || !errors.Is(err, fs.ErrExist) || errors.As(err, &dirErr) {
		t.Errorf("Reserve of a taken name: %v, want an *ExistsError only", err)
	}
}
