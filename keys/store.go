package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/vigil-console/vigil/internal/userfile"
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
type Store struct {
	Dir string

	// openFile, when set, stands in for os.OpenFile wherever the store
	// writes, so that a test can fail a write as a full disk does.
	openFile func(name string, flag int, perm fs.FileMode) (file, error)
	// fallbackDirs, when set, replace where Save keeps a key it could not
	// write into Dir (default: os.TempDir(), then Dir's parent).
	fallbackDirs []string
	// beforeProbe, when set, runs between Load reading a placeholder and
	// probing its lock, so that a test can finish a save there.
	beforeProbe func()
}

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

// ErrNoConfigHome is ConfigHome's error when neither XDG_CONFIG_HOME nor
// HOME is an absolute path.
var ErrNoConfigHome = errors.New("neither HOME nor XDG_CONFIG_HOME is set to an absolute path")

// ConfigHome is $XDG_CONFIG_HOME, or $HOME/.config. A relative
// XDG_CONFIG_HOME is ignored, as the XDG spec says. Without either it is an
// error rather than a path relative to the working directory, where a key
// written would not be found from anywhere else.
func ConfigHome(getenv func(string) string) (string, error) {
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return x, nil
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config"), nil
	}
	return "", ErrNoConfigHome
}

// DefaultDir is $XDG_CONFIG_HOME/vigil/keys, or $HOME/.config/vigil/keys.
func DefaultDir(getenv func(string) string) (string, error) {
	home, err := ConfigHome(getenv)
	if err != nil {
		return "", fmt.Errorf("no default keys directory: %w; set HOME, or give the directory with --dir DIR or keys_dir in the profile", err)
	}
	return filepath.Join(home, "vigil", "keys"), nil
}

// maxKeyFileLen bounds what Load reads from a key file.
const maxKeyFileLen = 1024

// MaxNameLen is the longest key name, in characters (bytes: names are ASCII).
const MaxNameLen = 64

// ValidateName checks a name for a new key (generate, import, a login's
// --name): CheckName, and not what looks like a private key (looksSecret),
// which it refuses without quoting. Only new names are so checked: an
// existing key loads and lists under any name CheckName takes.
func ValidateName(name string) error {
	if looksSecret(name) {
		return secretNameError(name)
	}
	return CheckName(name)
}

// CheckName checks that name can be a key's file name: 1 to 64 letters,
// digits, '-', '_' or '.', not starting with '.'. It names an existing key
// (a profile's key, keys show, stamp); its errors quote only a short name.
func CheckName(name string) error {
	if name == "" {
		return errors.New("key name is empty")
	}
	if err := checkNameChars(name); err != nil && looksSecret(name) {
		// A private key in standard base64 ('+', '/', '='), or one too long
		// for a name: not quoted, and the user is told it may be exposed,
		// as a key in the URL-safe alphabet is when no key has its name.
		return secretNameError(name)
	}
	return checkNameChars(name)
}

// checkNameChars is CheckName's check of name's length and characters.
func checkNameChars(name string) error {
	if len(name) > MaxNameLen {
		return fmt.Errorf("key name %s is longer than %d characters", quoteName(name), MaxNameLen)
	}
	if name[0] == '.' {
		return fmt.Errorf("key name %s starts with '.'; use letters, digits, '-', '_' or '.'", quoteName(name))
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("key name %s contains %q; use only letters, digits, '-', '_' or '.'", quoteName(name), r)
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
// overwrites: an existing key of that name is an *ExistsError naming its file.
// With an *IncompleteError it returns the key too: it is saved and usable.
func (s Store) Generate(name, scheme string) (*Key, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	k, err := Generate(scheme)
	if err != nil {
		return nil, err
	}
	if err := s.save(name, k); err != nil {
		return savedAnyway(k, err)
	}
	return k, nil
}

// Import stores an existing private key (hex, a leading 0x allowed) of
// scheme as name, never overwriting. With an *IncompleteError it returns the key too.
func (s Store) Import(name, scheme, hexKey string) (*Key, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	// 0x-prefixed is how wallets and block explorers print a key; dropped
	// whatever the length, so a wrong length is said as one.
	hexKey = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(hexKey), "\uFEFF"))
	if strings.HasPrefix(hexKey, "0x") || strings.HasPrefix(hexKey, "0X") {
		hexKey = hexKey[2:]
	}
	k, err := ParsePrivateHex(scheme, hexKey)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	if err := s.save(name, k); err != nil {
		return savedAnyway(k, err)
	}
	return k, nil
}

// save stores k as name. A key whose private key cannot be written is not
// kept anywhere: Generate makes another, Import's caller has it.
func (s Store) save(name string, k *Key) error {
	r, err := s.Reserve(name)
	if err != nil {
		return err
	}
	return r.save(k, time.Time{}, false)
}

// savedAnyway returns k with an *IncompleteError, whose key is saved and
// usable, and nil with any other error.
func savedAnyway(k *Key, err error) (*Key, error) {
	var inc *IncompleteError
	if errors.As(err, &inc) {
		return k, err
	}
	return nil, err
}

// Load reads the key stored as name. A private key file that group or others
// may read is refused, as ssh does; so is a .public file that does not match
// the private key.
func (s Store) Load(name string) (*Key, error) {
	return s.load(name, true)
}

// load is Load; without refuseExpired it returns an expired key too (whose
// Stamp refuses), for Info to describe.
func (s Store) load(name string, refuseExpired bool) (*Key, error) {
	return s.loadOnce(name, refuseExpired, true)
}

// loadOnce is load; with retry, a placeholder that changed while it was
// probed (a save finished into it just then) is read once more.
func (s Store) loadOnce(name string, refuseExpired, retry bool) (*Key, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	privPath, pubPath, _ := s.Paths(name)
	if err := s.checkDir(); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &NotFoundError{Name: name, Dir: s.Dir, Path: privPath}
		}
		return nil, fmt.Errorf("load key %s: %w", ShowName(name), err)
	}
	expires, err := s.Expiry(name)
	if err != nil {
		return nil, err
	}
	if refuseExpired {
		if err := expiredAt(name, expires, time.Now(), s.RemoveCommand(name)); err != nil {
			return nil, err
		}
	}
	privHex, err := readPrivate(s.Dir, privPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &NotFoundError{Name: name, Dir: s.Dir, Path: privPath}
		}
		return nil, fmt.Errorf("load key %s: %w", ShowName(name), err)
	}
	if strings.HasPrefix(privHex, reservedMark) {
		if s.beforeProbe != nil {
			s.beforeProbe()
		}
		state := probePlaceholder(privPath)
		if state == placeholderChanged && retry {
			return s.loadOnce(name, refuseExpired, false)
		}
		return nil, notSaved(name, privPath, state)
	}
	privLine, ok := oneLine(privHex)
	if !ok {
		return nil, fmt.Errorf("load key %s: %w", ShowName(name), lineError(privPath, "one private key"))
	}
	scheme, err := s.scheme(name)
	if err != nil {
		return nil, err
	}
	k, err := ParsePrivateHex(scheme, privLine)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", privPath, err)
	}
	if pubHex, err := readPublic(pubPath); err == nil {
		got, ok := oneLine(pubHex)
		if !ok {
			return nil, fmt.Errorf("load key %s: %w", ShowName(name), lineError(pubPath, "one public key; remove or fix it"))
		}
		if got = strings.ToLower(got); got != k.PublicKeyHex() {
			return nil, publicMismatch(name, pubPath, got, k, "remove or fix the .public file")
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	// A long-running process (the console, activity wait, webhook listen)
	// must stop stamping once the key expires, as a new one would.
	k.name, k.expires = name, expires
	return k, nil
}

// readPublic reads a key's .public file. An empty one is what a crash
// between its creation and its write leaves (the private key is synced
// before it is made), not another key's: it reads as missing, so the public
// key is derived from the private key, as an empty .scheme is recovered.
func readPublic(pubPath string) (string, error) {
	b, err := readSmall(pubPath)
	if err == nil && strings.TrimSpace(b) == "" {
		return "", fmt.Errorf("%s is empty: %w", pubPath, fs.ErrNotExist)
	}
	return b, err
}

// scheme reads <name>.scheme; a missing file means P-256. An empty one does
// not: it is what a crash while saving can leave (of a P-256 key, whose
// .scheme is written last, or of any key saved by an older vigil), and
// reading an Ed25519 or secp256k1 key as P-256 would stamp with a different
// key. The scheme is then the one under which the private key gives the
// public key its .public file holds, when there is exactly one.
func (s Store) scheme(name string) (string, error) {
	_, _, schPath := s.Paths(name)
	b, err := readSmall(schPath)
	if errors.Is(err, fs.ErrNotExist) {
		return SchemeP256, nil
	}
	if err != nil {
		return "", err
	}
	// An empty first line is damage (schemeOfPublic), whatever follows.
	line, ok := oneLine(b)
	if line == "" {
		return s.schemeOfPublic(name)
	}
	if !ok {
		return "", lineError(schPath, "one scheme (p256, secp256k1 or ed25519)")
	}
	sc, err := ParseScheme(line)
	if err != nil {
		// ParseScheme quotes what it is given: this file's content may be a
		// secret (filetext.go).
		privPath, _, _ := s.Paths(name)
		priv, _ := readSmall(privPath)
		return "", schemeFileError(schPath, line, firstLine(priv))
	}
	return sc, nil
}

// notSaved is the error for a key whose .private file holds only the space a
// save reserved (Reserve) and never filled; state is what probing it found.
func notSaved(name, privPath string, state placeholderState) error {
	if state != placeholderAbandoned {
		// Its lock is held: a save running now (a login waiting for the
		// sign-in at the provider takes minutes), or one that changed the
		// file as it was read. Removing the placeholder would lose the key
		// that save writes into it.
		return fmt.Errorf("key %s is not saved yet: a vigil command is saving it now (%s is its placeholder; a login waits there for the sign-in at the provider); wait for that command to finish, and do not remove the file", ShowName(name), privPath)
	}
	return fmt.Errorf("key %s is not saved: %s holds only the space a save reserved for it, and that save did not finish (no vigil command holds it); if vigil said where the key is instead, move that file over it, else remove it", ShowName(name), privPath)
}

// schemeOfPublic is the scheme of a key whose .scheme file is empty: the one
// under which its private key gives the public key of its .public file.
// Without that file, or when no scheme (or more than one) gives it, the
// error says which file is wrong and what to do.
func (s Store) schemeOfPublic(name string) (string, error) {
	privPath, pubPath, schPath := s.Paths(name)
	priv, err := readSmall(privPath)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(priv, reservedMark) {
		return "", notSaved(name, privPath, probePlaceholder(privPath))
	}
	privLine, ok := oneLine(priv)
	if !ok {
		return "", lineError(privPath, "one private key")
	}
	const write = "write the key's scheme into it: p256, secp256k1 or ed25519 (the one whose public key the service has registered for it)"
	pub, err := readPublic(pubPath)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("scheme file %s is empty (damaged, perhaps by a crash while it was written), and no .public file (or only an empty one) tells which scheme the key is; %s", schPath, write)
	}
	if err != nil {
		return "", err
	}
	want, ok := oneLine(pub)
	if !ok {
		return "", lineError(pubPath, "one public key; remove or fix it")
	}
	want = strings.ToLower(want)
	var found []string
	parses := false
	for _, sc := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := ParsePrivateHex(sc, privLine)
		parses = parses || err == nil
		if err == nil && k.PublicKeyHex() == want {
			found = append(found, sc)
		}
	}
	if !parses {
		return "", fmt.Errorf("scheme file %s is empty, and the private key file %s is damaged too (it holds no private key of any scheme); keep %s, which says which API key this was, to find and delete that API key with the service", schPath, privPath, pubPath)
	}
	if len(found) != 1 {
		return "", fmt.Errorf("scheme file %s is empty (damaged, perhaps by a crash while it was written), and the public key in %s is not the private key's under any one scheme (it is damaged, or another key's); %s, and remove %s", schPath, pubPath, write, pubPath)
	}
	return found[0], nil
}

// List describes every key in the directory (those with a .private file),
// sorted by name. A missing directory is an empty list; one others could
// change is an error, as Load refuses every key in it. A key whose files
// cannot be read, or whose private key file Load would refuse (its mode, its
// owner, more than one line), is listed with its Problem, so one damaged key
// does not hide the others and the list shows which keys work.
func (s Store) List() ([]KeyInfo, error) {
	if err := s.checkDir(); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
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
		if !ok || CheckName(name) != nil {
			continue
		}
		info, err := s.info(name)
		if err == nil {
			err = s.checkPrivate(name)
		}
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
// falling back to the private key when the .public file is missing. Its
// public key is the one a user registers with the service, so it is read
// only from a keys directory Load would take, and only for a private key
// file Load would take but for its mode (which 'keys show' warns of): else
// another user could have put their own key pair in the key's place.
func (s Store) Info(name string) (KeyInfo, error) {
	if err := CheckName(name); err != nil {
		return KeyInfo{}, err
	}
	if err := s.checkDir(); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			privPath, _, _ := s.Paths(name)
			return KeyInfo{}, noKey(name, s.Dir, privPath)
		}
		return KeyInfo{}, fmt.Errorf("key %s: %w", ShowName(name), err)
	}
	return s.info(name)
}

// info is Info in a keys directory already checked.
func (s Store) info(name string) (KeyInfo, error) {
	privPath, pubPath, _ := s.Paths(name)
	if _, err := os.Lstat(privPath); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return KeyInfo{}, noKey(name, s.Dir, privPath)
		}
		return KeyInfo{}, err
	}
	if err := s.checkPrivate(name); err != nil && !errors.Is(err, errOthersMayRead) {
		return KeyInfo{}, fmt.Errorf("key %s: %w", ShowName(name), err)
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
	b, err := readPublic(pubPath)
	switch {
	case err == nil:
		line, ok := oneLine(b)
		if !ok {
			return KeyInfo{}, lineError(pubPath, "one public key; remove or fix it")
		}
		info.PublicKeyHex = strings.ToLower(line)
		if err := s.checkPublic(name, info.PublicKeyHex); err != nil {
			return KeyInfo{}, err
		}
	case errors.Is(err, fs.ErrNotExist):
		// An expired key is listed as expired, not as damaged.
		k, err := s.load(name, false)
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

// checkPublic refuses a .public file that is not the private key's public
// key (a copied or half-restored directory): Info's key is the one its user
// registers with the service, so it must be the one the key stamps with. A
// private key file that cannot be read here is left to Load to explain.
func (s Store) checkPublic(name, pubHex string) error {
	privPath, pubPath, _ := s.Paths(name)
	priv, err := readSmall(privPath)
	if err != nil || strings.HasPrefix(priv, reservedMark) {
		return nil
	}
	scheme, err := s.scheme(name)
	if err != nil {
		return nil
	}
	line, ok := oneLine(priv)
	if !ok {
		return nil
	}
	k, err := ParsePrivateHex(scheme, line)
	if err != nil {
		return nil
	}
	if k.PublicKeyHex() != pubHex {
		return publicMismatch(name, pubPath, pubHex, k, "do not register it: remove or fix the .public file")
	}
	return nil
}

// readSmall reads a key file: a regular file only (a FIFO at that path must
// not block the open; userfile opens without blocking), of at most
// maxKeyFileLen bytes.
func readSmall(path string) (string, error) {
	b, err := userfile.Read(path, maxKeyFileLen)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("%w; a key's files are plain files of at most %d bytes: remove it, or put the right file there", err, maxKeyFileLen)
	}
	return string(b), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}
