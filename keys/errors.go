package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-console/vigil/internal/shellword"
)

// ExistsError is a name already taken: a file of a key by that name exists.
type ExistsError struct {
	Name string
	Path string // the file found
	// Placeholder: Path is a .private file holding only the placeholder
	// of a reservation, no key: a save running now, or one whose process
	// died before it wrote the key.
	Placeholder bool
	// Abandoned: a Placeholder whose reserving process is gone (killed, or
	// crashed) before it wrote the key; Store.RemoveAbandoned removes it.
	Abandoned bool
}

func (e *ExistsError) Error() string {
	if e.Placeholder {
		return fmt.Sprintf("key %q is reserved: %s holds no key, only the placeholder a save writes first (a save running now, or one that died before it wrote the key); choose another name, or once no vigil command is saving that key remove it: %s", e.Name, e.Path, e.RemoveCommand())
	}
	return fmt.Sprintf("key %q already exists (%s); choose another name or remove its files first", e.Name, e.Path)
}

// RemoveCommand is the shell command that removes the file found.
func (e *ExistsError) RemoveCommand() string { return "rm " + shellword.Quote(e.Path) }

func (e *ExistsError) Unwrap() error { return fs.ErrExist }

// RemoveCommand is the shell command that removes the files of the key name
// that exist ("" if none does).
func (s Store) RemoveCommand(name string) string {
	priv, pub, sch := s.Paths(name)
	cmd := ""
	for _, p := range []string{priv, pub, sch, s.expiryPath(name)} {
		if _, err := os.Lstat(p); err == nil {
			cmd += " " + shellword.Quote(p)
		}
	}
	if cmd == "" {
		return ""
	}
	return "rm" + cmd
}

// DirError is a keys directory that cannot be created or written: read-only,
// full, not permitted. It names the directory once and says what to do.
type DirError struct {
	Dir    string
	Create bool // the directory could not be created
	Err    error
	// Setting is what the caller reads the directory from, for the advice to
	// set it elsewhere; "" is "keys_dir / --dir" (a profile's keys_dir, or
	// the keys verbs' --dir). A caller without --dir names only what it has.
	Setting string
}

func (e *DirError) Error() string {
	verb := "write"
	if e.Create {
		verb = "create"
	}
	setting := e.Setting
	if setting == "" {
		setting = "keys_dir / --dir"
	}
	if isFull(e.Err) {
		return fmt.Sprintf("cannot %s the keys directory %s (%s); free space there, or set %s to another directory", verb, e.Dir, cause(e.Err), setting)
	}
	return fmt.Sprintf("cannot %s the keys directory %s (%s); make it writable, or set %s to a writable directory", verb, e.Dir, cause(e.Err), setting)
}

func (e *DirError) Unwrap() error { return e.Err }

// cause is err without the path an *fs.PathError adds: messages name the
// path once, themselves.
func cause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func isFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// remedy is what to do about err in dir, for messages that go on to say
// where a key is meanwhile.
func remedy(err error, dir string) string {
	switch {
	case isFull(err):
		return "free space in " + dir
	case errors.Is(err, syscall.EROFS), errors.Is(err, fs.ErrPermission):
		return "make " + dir + " writable"
	case errors.Is(err, errPlaceholderGone):
		return "if a file is at that path now, see what it is before you replace it"
	}
	return "fix that"
}

// NotSavedError is a key Save could not write into the store. A copy of its
// private key is in Copy (mode 0600), unless no copy could be written either.
type NotSavedError struct {
	Name   string
	Path   string // the key's .private file in the store
	Scheme string
	// Expires is the key's expiry (zero: none), which the move command
	// writes beside it: nothing else records it.
	Expires time.Time
	Copy    string // where the private key is instead; "" if nowhere
	Err     error  // why Path could not be written, and why no copy could
}

func (e *NotSavedError) Error() string {
	if e.Copy == "" {
		return fmt.Sprintf("key %q could not be saved anywhere: %v", e.Name, e.Err)
	}
	return fmt.Sprintf("key %q could not be written to %s (%s); its private key is in %s (mode 0600) instead: %s, then move it into place with '%s'",
		e.Name, e.Path, cause(e.Err), e.Copy, remedy(e.Err, filepath.Dir(e.Path)), e.moveCommand())
}

// moveCommand is the shell command that puts the copy where the key belongs
// (and, for a scheme other than P-256, its .scheme file beside it, and for a
// key that expires, its .expires file: without it vigil would go on
// stamping with the key after the service stopped accepting it).
func (e *NotSavedError) moveCommand() string {
	base := strings.TrimSuffix(e.Path, ".private")
	cmd := fmt.Sprintf("mv %s %s", shellword.Quote(e.Copy), shellword.Quote(e.Path))
	if e.Scheme != SchemeP256 {
		cmd += fmt.Sprintf(" && echo %s > %s", e.Scheme, shellword.Quote(base+".scheme"))
	}
	if !e.Expires.IsZero() {
		cmd += fmt.Sprintf(" && echo %s > %s", e.Expires.UTC().Format(time.RFC3339), shellword.Quote(base+".expires"))
	}
	return cmd
}

func (e *NotSavedError) Unwrap() error { return e.Err }

// IncompleteError is a key that is saved and loads as itself, but some of
// the files that describe it (.public, .scheme, .expires) could not be
// written; the ones begun were removed.
type IncompleteError struct {
	Name    string
	Files   []string // the extensions not written, e.g. ".public"
	Expires time.Time
	Err     error // why the first of them could not be written
}

func (e *IncompleteError) Error() string {
	noun := "file"
	if len(e.Files) > 1 {
		noun = "files"
	}
	files := strings.Join(e.Files, ", ")
	if n := len(e.Files); n > 1 {
		files = strings.Join(e.Files[:n-1], ", ") + " and " + e.Files[n-1]
	}
	msg := fmt.Sprintf("the key %s is saved and usable; its %s %s could not be written (%s)", e.Name, files, noun, cause(e.Err))
	for _, f := range e.Files {
		if f == ".expires" {
			msg += fmt.Sprintf(", so vigil will not know that it expires at %s (the service will refuse it then)", e.Expires.UTC().Format(time.RFC3339))
		}
	}
	return msg
}

func (e *IncompleteError) Unwrap() error { return e.Err }
