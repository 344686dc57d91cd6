package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/vigil-console/vigil/internal/shellword"
	"github.com/vigil-console/vigil/internal/userfile"
)

// checkDir refuses a keys directory that anyone but the user (and root)
// could change (userfile.DirExposure): there another user could remove a
// key, or put a link to another of the user's keys in its place, and vigil
// would stamp with that key. A missing directory is returned as such
// (fs.ErrNotExist), for the caller to say the key is not there.
func (s Store) checkDir() error {
	di, err := os.Stat(s.Dir)
	if err != nil {
		return err
	}
	if !di.IsDir() {
		return fmt.Errorf("keys directory %s is %s, not a directory", s.Dir, userfile.Kind(di.Mode()))
	}
	if who, fix := userfile.DirExposure(s.Dir, di); who != "" {
		return fmt.Errorf("keys directory %s %s, who could remove its keys or put another key in their place; %s", s.Dir, who, fix)
	}
	return nil
}

// errOthersMayRead is readPrivate's refusal of a key file group or others
// may read: Info still describes such a key (keys show warns of it), as
// nothing but its mode is wrong.
var errOthersMayRead = errors.New("accessible by group or others")

// readPrivate reads the private key file path (in the keys directory dir),
// checking the file it read (not another found at the path a moment
// before): the user's or root's; readable by no one else; of one name only
// (hardLinkError); itself, or a symbolic link no one else could change,
// leading to no other key's file (checkLink). A missing file's error
// matches fs.ErrNotExist. Refused for its mode alone (errOthersMayRead), the
// file's content comes with the error, for checkPrivate to check it too.
func readPrivate(dir, path string) (string, error) {
	li, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("key file %s: %w", path, err)
	}
	link := li.Mode()&fs.ModeSymlink != 0
	b, fi, err := userfile.ReadInfo(path, maxKeyFileLen)
	if fi != nil && !link && !os.SameFile(li, fi) {
		return "", fmt.Errorf("key file %s was replaced while it was read; try again, and check who else writes the keys directory", path)
	}
	if err != nil {
		if link && errors.Is(err, fs.ErrNotExist) {
			// Not a missing key: its file is elsewhere, on a volume not mounted, say.
			target, _ := os.Readlink(path)
			return "", fmt.Errorf("key file %s is a symbolic link to %s, which does not exist; mount the volume it is on, or remove the link", path, target)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", fmt.Errorf("%w; a key's files are plain files of at most %d bytes: remove it, or put the right file there", err, maxKeyFileLen)
	}
	opened := path // the file read: where a copy of it is made
	if link {
		if opened, err = checkLink(dir, path, fi); err != nil {
			return "", err
		}
	}
	if who, fix := userfile.ForeignOwner(fi, path, "remove it"); who != "" {
		return "", fmt.Errorf("key file %s is owned by %s, not by you or root, who could read it or change it; %s", path, who, fix)
	}
	if n := userfile.Links(fi); n > 1 {
		// Its other names may be another key's .private: vigil would stamp
		// with that key under this key's name.
		return "", hardLinkError(path, opened, n)
	}
	// The mode last: Info describes a key refused for its mode alone, so every
	// other refusal comes first.
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return string(b), fmt.Errorf("key file %s is %w (mode %04o); run: chmod 600 %s", path, errOthersMayRead, perm, shellword.Quote(path))
	}
	return string(b), nil
}

// oneLine is the one line a key's file holds, trimmed; ok is false when it
// holds more (two keys appended, a key and then other text), which
// lineError refuses without quoting: the file may hold a secret.
func oneLine(content string) (line string, ok bool) {
	line = firstLine(content)
	return line, strings.TrimSpace(content) == line
}

// lineError refuses the file path of more than one line; holds says what
// it holds instead: "one private key".
func lineError(path, holds string) error {
	return fmt.Errorf("%s holds more than one line; a key file holds %s: keep only the line you mean", path, holds)
}

// checkPrivate is what Load checks of name's private key file (readPrivate,
// one line), for List to show a key Load refuses as such.
func (s Store) checkPrivate(name string) error {
	priv, _, _ := s.Paths(name)
	b, err := readPrivate(s.Dir, priv)
	if err != nil && !errors.Is(err, errOthersMayRead) {
		return err
	}
	if _, ok := oneLine(b); !ok {
		return lineError(priv, "one private key")
	}
	return err // nil, or the mode refusal: the only thing wrong
}

// hardLinkError refuses the key file path, whose file opened (path itself,
// or where its symbolic link leads) has n names. The copy is made where the
// file is: a link to a volume stays one, the key kept on that volume.
func hardLinkError(path, opened string, n uint64) error {
	q := shellword.Quote(opened)
	fix := fmt.Sprintf("cp -p %s %s && mv %s %s", q, shellword.Quote(opened+".copy"), shellword.Quote(opened+".copy"), q)
	if opened == path {
		return fmt.Errorf("key file %s has %d names (hard links): one may be another key's private key file, whose key vigil would use under this name; make it a file of its own: %s", path, n, fix)
	}
	return fmt.Errorf("key file %s is a symbolic link to %s, which has %d names (hard links): one may be another key's private key file, whose key vigil would use under this name; make %s a file of its own, where it is (the link stays): %s", path, opened, n, opened, fix)
}
