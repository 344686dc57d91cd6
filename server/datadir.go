package server

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/vigil-console/vigil/internal/userfile"
)

// LockFile is the file in Config.DataDir whose lock marks the directory as
// served by one process.
const LockFile = "vigil.lock"

// ErrDataDirInUse is returned by LockDataDir and Open when another process
// holds the data directory.
var ErrDataDirInUse = errors.New("data directory in use by another vigil process")

// DataDirLock is this process's exclusive hold on a data directory.
//
// One service per data directory: every process keeps caches of keys, users,
// policies and activities, emptied by its own writes only. A second process
// serving the same database would go on accepting an API key the first one
// deleted, and show votes and statuses from before the other's writes. So a
// second service is refused, and a second console joins the first's service
// (HolderURL). The operating system drops the lock when the process ends,
// kill -9 included.
type DataDirLock struct {
	dir  string
	name string // the lock file's name in dir
	f    *os.File
	kind HolderKind
}

// LockDataDir creates dir if needed and takes its lock, or returns an error
// wrapping ErrDataDirInUse that names the holding process.
func LockDataDir(dir string) (*DataDirLock, error) {
	l, err := LockDir(dir, LockFile)
	var inUse *DirInUseError
	if errors.As(err, &inUse) {
		holder := "another process"
		switch {
		case inUse.PID == os.Getpid():
			holder = "this process already"
		case inUse.PID > 0:
			holder = "process " + strconv.Itoa(inUse.PID)
		}
		return nil, fmt.Errorf("%w: %s is served by %s; stop it, or give another data directory", ErrDataDirInUse, inUse.Dir, holder)
	}
	return l, err
}

// DirInUseError is LockDir's refusal: another process holds Dir's lock.
type DirInUseError struct {
	Dir string // absolute
	PID int    // the holder's process id, as it recorded it; 0 if unknown
}

func (e *DirInUseError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("%s is locked by process %d", e.Dir, e.PID)
	}
	return e.Dir + " is locked by another process"
}

// LockDir creates dir if needed and takes an exclusive lock on its file
// name, held until Release or the process ends (kill -9 included), for a
// process that must be dir's only writer. Another holder is refused with a
// *DirInUseError.
//
// dir must be one only the user (and root) can change (checkDirExposure),
// and the lock file a regular file of the user's, never a symbolic link
// (userfile.OpenOwn): the lock is written with the pid, and a link planted
// there would have the write wipe the file it leads to, a private key say.
func LockDir(dir, name string) (*DataDirLock, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("directory %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("create directory %s: %w; %s", abs, pathErrorCause(err), dirAdvice(abs, err))
	}
	if err := checkDirExposure(abs); err != nil {
		return nil, err
	}
	path := filepath.Join(abs, name)
	f, err := userfile.OpenOwn(path, 0, 0o600)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("create the lock file %s: %w; %s", path, pathErrorCause(err), dirAdvice(abs, err))
	}
	if err != nil { // OpenOwn's refusal, naming the file and what to do
		return nil, fmt.Errorf("lock file: %w", err)
	}
	switch err := lockFile(f); {
	case errors.Is(err, errLockHeld):
		f.Close()
		pid, _, _ := readHolder(abs, name)
		return nil, &DirInUseError{Dir: abs, PID: pid}
	case err != nil:
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	l := &DataDirLock{dir: abs, name: name, f: f}
	if err := l.write(""); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// checkDirExposure refuses the directory dir when anyone but the user (and
// root) could change what it holds (userfile.DirExposure), as the keys store
// refuses its directory: they could delete or replace the files kept there
// (deliveries already acknowledged, which the service will not send again;
// the database), or plant links for vigil to write through.
func checkDirExposure(dir string) error {
	di, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("directory %s: %w", dir, pathErrorCause(err))
	}
	if !di.IsDir() {
		return fmt.Errorf("%s is %s, not a directory; give a directory", dir, userfile.Kind(di.Mode()))
	}
	if who, fix := userfile.DirExposure(dir, di); who != "" {
		return fmt.Errorf("directory %s %s, who could remove or replace the files vigil keeps there; %s", dir, who, fix)
	}
	return nil
}

// Dir is the locked directory, as an absolute path.
func (l *DataDirLock) Dir() string { return l.dir }

// HolderKind is which command holds a data directory, recorded with its URL
// so that a console joining it can say what to do when it stops answering.
type HolderKind string

const (
	// HolderUnknown: the lock file records no kind (an older vigil wrote it).
	HolderUnknown HolderKind = ""
	// HolderDemo is a 'vigil demo': it serves on a random port, so once it
	// ends, a restart serves elsewhere.
	HolderDemo HolderKind = "demo"
	// HolderServe is a 'vigil serve': restarted with the same --addr, it
	// answers on the same URL again.
	HolderServe HolderKind = "serve"
)

// Serving records the URL this process serves the directory's service on,
// and which command it is, for Holder.
func (l *DataDirLock) Serving(url string, kind HolderKind) error {
	l.kind = kind
	return l.write(url)
}

// Release drops the lock. The lock file stays: removing it could let two
// processes lock two different files of the same name.
func (l *DataDirLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing drops the lock
	l.f = nil
	return err
}

// write records the holder in the lock file: "pid URL", then, on a line of
// its own, "kind KIND". Older vigils read the first line only, so they still
// find the URL; a lock file they wrote has no kind (HolderUnknown).
func (l *DataDirLock) write(url string) error {
	line := strconv.Itoa(os.Getpid())
	if url != "" {
		line += " " + url
	}
	if l.kind != HolderUnknown {
		line += "\nkind " + string(l.kind)
	}
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("write %s: %w", l.name, err)
	}
	if _, err := l.f.WriteAt([]byte(line+"\n"), 0); err != nil {
		return fmt.Errorf("write %s: %w", l.name, err)
	}
	return nil
}

// HolderURL is the URL the process holding dir serves it on, as it recorded
// (DataDirLock.Serving); "" when it recorded none or nothing holds dir.
func HolderURL(dir string) string {
	url, _ := Holder(dir)
	return url
}

// Holder is HolderURL and which command recorded it (HolderUnknown when the
// lock file says none).
func Holder(dir string) (url string, kind HolderKind) {
	_, url, kind = readHolder(dir, LockFile)
	return url, kind
}

func readHolder(dir, name string) (pid int, url string, kind HolderKind) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return 0, "", HolderUnknown
	}
	line, rest, _ := bytes.Cut(b, []byte("\n"))
	p, u, _ := strings.Cut(string(line), " ")
	pid, _ = strconv.Atoi(p)
	second, _, _ := bytes.Cut(rest, []byte("\n"))
	if k, ok := strings.CutPrefix(string(second), "kind "); ok && (k == string(HolderDemo) || k == string(HolderServe)) {
		kind = HolderKind(k)
	}
	return pid, u, kind
}

// pathErrorCause is err without the *fs.PathError's operation and path,
// which the caller's message already names.
func pathErrorCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// dirAdvice says what to do about dir, which could not be created or
// written (err): a file in its place is not to be made writable.
func dirAdvice(dir string, err error) string {
	if errors.Is(err, syscall.ENOTDIR) {
		return dir + " is, or is inside, a file, not a directory: pass --data with a directory"
	}
	return "make " + dir + " writable by the user running vigil, or pass --data with another directory"
}
