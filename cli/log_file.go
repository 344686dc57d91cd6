package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"

	"github.com/vigil-console/vigil/internal/logtext"
)

// openLog opens --log-file for appending (0600), or returns a logger that
// discards: logs never go to the terminal while the console runs.
func openLog(path string) (*slog.Logger, func(), error) {
	if path == "" {
		return slog.New(slog.NewTextHandler(io.Discard, nil)), func() {}, nil
	}
	f, err := openLogFile(path)
	if err != nil {
		return nil, nil, err
	}
	return logtext.NewText(f, nil), func() { f.Close() }, nil
}

// openLogFile opens path to append logs to, refusing what is no log file
// with what to give instead: a directory, a device (/dev/zero took the
// logs without a word, a terminal would draw them over the screen), and a
// named pipe nobody reads, whose open would block before the screen is
// drawn, with nothing said. A regular file, /dev/null and a pipe with a
// reader (>(logger)) are taken.
func openLogFile(path string) (*os.File, error) {
	const instead = "give a regular file (it is created if missing), or leave --log-file out"
	if fi, err := os.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return nil, usagef("--log-file %s is a directory; %s", shownPath(path), instead)
		case fi.Mode()&fs.ModeDevice != 0 && !isDevNull(fi):
			return nil, usagef("--log-file %s is a device, not a file; %s", shownPath(path), instead)
		case fi.Mode()&fs.ModeSocket != 0:
			return nil, usagef("--log-file %s is a socket, not a file; %s", shownPath(path), instead)
		}
	}
	f, err := openNoWait(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	switch {
	case errors.Is(err, errPipeNobodyReads):
		return nil, usagef("--log-file %s is a named pipe nobody reads; start its reader first, or %s", shownPath(path), instead)
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("--log-file %s: its directory does not exist; create it, or %s", shownPath(path), instead)
	case err != nil:
		return nil, fmt.Errorf("--log-file %s: %w; make it writable by the user running vigil, or give another file", shownPath(path), unwrapPath(err))
	}
	return f, nil
}

// isDevNull reports whether fi is the null device, which takes logs away
// harmlessly, as leaving --log-file out does.
func isDevNull(fi fs.FileInfo) bool {
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}

// unwrapPath drops the path from a *fs.PathError: the message names the
// file already, escaped.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
