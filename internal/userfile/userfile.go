// Package userfile reads files whose paths a user gives (the config, its
// trusted roots, request bodies, proofs). A plain open(2) of a named pipe
// without a writer blocks forever, and the CLI catches Ctrl-C to end its
// work cleanly, so such a path would hang vigil beyond Ctrl-C: files are
// opened without blocking, and their kind is checked before any read.
package userfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"syscall"
)

// Read reads the regular file at path, refusing anything else (a named
// pipe, a device, a directory) and a file over limit bytes. A missing file's
// error matches fs.ErrNotExist.
func Read(path string, limit int64) ([]byte, error) {
	data, _, err := ReadInfo(path, limit)
	return data, err
}

// ReadInfo is Read, also returning what the opened file is, so the caller
// can check its owner and mode without racing a rename.
func ReadInfo(path string, limit int64) ([]byte, fs.FileInfo, error) {
	return read(path, limit, false)
}

// OpenInput opens an input given on the command line, which may be a
// regular file or a pipe (`--file <(jq …)`); the caller bounds its read. The
// open does not block, and a pipe nobody writes to reads as empty instead of
// hanging.
func OpenInput(path string) (*os.File, error) {
	f, _, err := open(path, true)
	return f, err
}

func open(path string, pipeOK bool) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	mode := fi.Mode()
	if !mode.IsRegular() && !(pipeOK && mode&fs.ModeNamedPipe != 0) {
		f.Close()
		return nil, nil, fmt.Errorf("%s is %s, not a regular file", path, Kind(mode))
	}
	return f, fi, nil
}

func read(path string, limit int64, pipeOK bool) ([]byte, fs.FileInfo, error) {
	f, fi, err := open(path, pipeOK)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, fi, fmt.Errorf("%s is larger than %d bytes (%d)", path, limit, fi.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fi, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fi, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return b, fi, nil
}

// Kind names what a file that is not a regular file is, for messages.
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// WritableByOthers reports whether group or others may write the file (on
// Unix; Windows has no such bits): fine for an input, not for a file that
// decides what vigil trusts.
func WritableByOthers(fi fs.FileInfo) bool {
	return runtime.GOOS != "windows" && fi.Mode().Perm()&0o022 != 0
}
