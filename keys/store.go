package keys

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Store keeps keys as files in Dir, one set per key name:
//
//	<name>.private  the private key hex and a newline, mode 0600
//	<name>.public   the public key hex and a newline
//	<name>.scheme   the wire scheme (SIGNATURE_SCHEME_TK_API_…) and a newline
//
// A key without a .scheme file is P-256, so a bare hex key file written by
// another tool loads as the service's default scheme. The directory is made
// with mode 0700.
type Store struct{ Dir string }

// KeyInfo describes a stored key without its private half.
type KeyInfo struct {
	Name         string
	Scheme       string
	PublicKeyHex string
	PrivatePath  string
	PublicPath   string
	Expires      time.Time // when the service stops accepting it; zero: no recorded expiry
	// Problem is set, by List, for a key whose files cannot be read; the
	// fields above it then hold only the name and the private key's path.
	Problem error
}

// DefaultDir is $XDG_CONFIG_HOME/vigil/keys, or $HOME/.config/vigil/keys.
func DefaultDir(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "vigil", "keys")
	}
	return filepath.Join(getenv("HOME"), ".config", "vigil", "keys")
}

// maxKeyFileLen bounds what Load reads from a key file.
const maxKeyFileLen = 1024

// ValidateName checks that name can be a key's file name: 1 to 64 letters,
// digits, '-', '_' or '.', not starting with '.'.
func ValidateName(name string) error {
	if name == "" {
		return errors.New("key name is empty")
	}
	if len(name) > 64 {
		return fmt.Errorf("key name %q is longer than 64 characters", truncate(name))
	}
	if name[0] == '.' {
		return fmt.Errorf("key name %q starts with '.'; use letters, digits, '-', '_' or '.'", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("key name %q contains %q; use only letters, digits, '-', '_' or '.'", truncate(name), r)
		}
	}
	return nil
}

// Paths returns the private, public and scheme file paths of name.
func (s Store) Paths(name string) (private, public, scheme string) {
	base := filepath.Join(s.Dir, name)
	return base + ".private", base + ".public", base + ".scheme"
}

// Generate makes a new key of scheme and stores it as name. It never
// overwrites: an existing key of that name is an error naming its file.
func (s Store) Generate(name, scheme string) (*Key, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	k, err := Generate(scheme)
	if err != nil {
		return nil, err
	}
	if err := s.save(name, k); err != nil {
		return nil, err
	}
	return k, nil
}

// Import stores an existing private key (hex) of scheme as name, never
// overwriting.
func (s Store) Import(name, scheme, hexKey string) (*Key, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	k, err := ParsePrivateHex(scheme, hexKey)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	if err := s.save(name, k); err != nil {
		return nil, err
	}
	return k, nil
}

func (s Store) save(name string, k *Key) error {
	r, err := s.Reserve(name)
	if err != nil {
		return err
	}
	return r.Save(k, time.Time{})
}

// A Reservation holds a key's name before the key exists: its .private file is
// created empty (O_EXCL, mode 0600), so that an OAuth login, whose key the
// service makes only once, knows before it submits that the key can be saved
// and that no other key takes the name meanwhile.
type Reservation struct {
	store Store
	name  string
	f     *os.File // the empty .private file; nil once saved or cancelled
}

// Reserve claims name in the store: the directory exists and is writable, and
// no file of a key by that name (.private, .public, .scheme, .expires) exists.
func (s Store) Reserve(name string) (*Reservation, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	if s.Dir == "" {
		return nil, errors.New("keys directory is not set")
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create keys directory: %w", err)
	}
	priv, pub, sch := s.Paths(name)
	for _, p := range []string{priv, pub, sch, s.expiryPath(name)} {
		if _, err := os.Lstat(p); err == nil {
			return nil, fmt.Errorf("key %q already exists (%s); choose another name or remove its files first", name, p)
		}
	}
	// O_EXCL closes the race between the check above and the write.
	f, err := os.OpenFile(priv, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("key %q already exists (%s); choose another name or remove its files first", name, priv)
		}
		return nil, fmt.Errorf("write %s: %w", priv, err)
	}
	return &Reservation{store: s, name: name, f: f}, nil
}

// Save writes k under the reserved name, and its expiry unless expires is
// zero. On failure it removes what it wrote, the reservation included —
// except a P-256 private key once written: it is kept (for an OAuth login it
// is the only copy of a key the service has made), and the error says so.
// Only P-256: a key without its .scheme file loads as P-256, so another
// scheme's key kept alone would load as a different key.
func (r *Reservation) Save(k *Key, expires time.Time) error {
	if r.f == nil {
		return fmt.Errorf("save key %q: the reservation was already used", r.name)
	}
	f := r.f
	r.f = nil
	priv, pub, sch := r.store.Paths(r.name)
	_, werr := f.WriteString(k.PrivateKeyHex() + "\n")
	if werr == nil {
		werr = f.Sync() // on disk before anything says it is saved
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(priv)
		return fmt.Errorf("save key %q: %w", r.name, werr)
	}
	werr = os.WriteFile(pub, []byte(k.PublicKeyHex()+"\n"), 0o644)
	if werr == nil {
		werr = os.WriteFile(sch, []byte(k.Scheme()+"\n"), 0o644)
	}
	if werr == nil && !expires.IsZero() {
		werr = os.WriteFile(r.store.expiryPath(r.name), []byte(expires.UTC().Format(time.RFC3339)+"\n"), 0o600)
	}
	if werr != nil && k.Scheme() == SchemeP256 {
		return fmt.Errorf("save key %q: the private key is in %s, but %w; fix that and write the key's other files, or move the private key elsewhere", r.name, priv, werr)
	}
	if werr != nil {
		for _, p := range []string{priv, pub, sch, r.store.expiryPath(r.name)} {
			os.Remove(p)
		}
		return fmt.Errorf("save key %q: %w", r.name, werr)
	}
	return nil
}

// Cancel gives the name back (removes the empty .private file); after Save it
// does nothing.
func (r *Reservation) Cancel() {
	if r.f == nil {
		return
	}
	priv, _, _ := r.store.Paths(r.name)
	r.f.Close()
	os.Remove(priv)
	r.f = nil
}

// Load reads the key stored as name. A private key file that group or others
// may read is refused, as ssh does; so is a .public file that does not match
// the private key.
func (s Store) Load(name string) (*Key, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	if err := s.checkExpiry(name, time.Now()); err != nil {
		return nil, err
	}
	privPath, pubPath, _ := s.Paths(name)
	fi, err := os.Stat(privPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no key %q in %s (expected %s); create it with 'vigil keys generate %s'", name, s.Dir, privPath, name)
		}
		return nil, fmt.Errorf("load key %q: %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("key file %s is not a regular file", privPath)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("key file %s is accessible by group or others (mode %04o); run: chmod 600 %s", privPath, perm, privPath)
	}
	privHex, err := readSmall(privPath)
	if err != nil {
		return nil, err
	}
	scheme, err := s.scheme(name)
	if err != nil {
		return nil, err
	}
	k, err := ParsePrivateHex(scheme, firstLine(privHex))
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", privPath, err)
	}
	if pubHex, err := readSmall(pubPath); err == nil {
		if got := strings.ToLower(firstLine(pubHex)); got != k.PublicKeyHex() {
			return nil, fmt.Errorf("key %q: %s does not match its private key (it says %q, the private key's is %s); remove or fix the .public file", name, pubPath, truncate(got), k.PublicKeyHex())
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return k, nil
}

// scheme reads <name>.scheme; a missing file means P-256.
func (s Store) scheme(name string) (string, error) {
	_, _, schPath := s.Paths(name)
	b, err := readSmall(schPath)
	if errors.Is(err, fs.ErrNotExist) {
		return SchemeP256, nil
	}
	if err != nil {
		return "", err
	}
	sc, err := ParseScheme(firstLine(b))
	if err != nil {
		return "", fmt.Errorf("scheme file %s: %w", schPath, err)
	}
	return sc, nil
}

// List describes every key in the directory (those with a .private file),
// sorted by name. A missing directory is an empty list. It reads only the
// .public, .scheme and .expires files; a key whose files cannot be read is
// listed with its Problem, so one damaged key does not hide the others.
func (s Store) List() ([]KeyInfo, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	var out []KeyInfo
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".private")
		if !ok || ValidateName(name) != nil {
			continue
		}
		info, err := s.Info(name)
		if err != nil {
			priv, _, _ := s.Paths(name)
			info = KeyInfo{Name: name, PrivatePath: priv, Problem: err}
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Info describes the key stored as name from its .public and .scheme files,
// falling back to the private key when the .public file is missing.
func (s Store) Info(name string) (KeyInfo, error) {
	if err := ValidateName(name); err != nil {
		return KeyInfo{}, err
	}
	privPath, pubPath, _ := s.Paths(name)
	if _, err := os.Stat(privPath); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return KeyInfo{}, fmt.Errorf("no key %q in %s (expected %s)", name, s.Dir, privPath)
		}
		return KeyInfo{}, err
	}
	scheme, err := s.scheme(name)
	if err != nil {
		return KeyInfo{}, err
	}
	expires, err := s.Expiry(name)
	if err != nil {
		return KeyInfo{}, err
	}
	info := KeyInfo{Name: name, Scheme: scheme, PrivatePath: privPath, PublicPath: pubPath, Expires: expires}
	b, err := readSmall(pubPath)
	switch {
	case err == nil:
		info.PublicKeyHex = strings.ToLower(firstLine(b))
	case errors.Is(err, fs.ErrNotExist):
		k, err := s.Load(name)
		if err != nil {
			return KeyInfo{}, err
		}
		info.PublicKeyHex = k.PublicKeyHex()
		info.PublicPath = ""
	default:
		return KeyInfo{}, err
	}
	return info, nil
}

func readSmall(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFileLen+1))
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > maxKeyFileLen {
		return "", fmt.Errorf("%s is larger than a key file can be (%d bytes)", path, maxKeyFileLen)
	}
	return string(b), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
