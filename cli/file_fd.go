package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ownFD reports which of this process's open file descriptors path names:
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (or a link leading
// to one of them), or a file that is our standard output or error (--out
// all.json >> all.json). Such a name must be written through the open
// descriptor: following it would find the file the shell redirected to, and
// a rename over that file would drop what it held (>>) and leave the
// descriptor writing into an unlinked copy, the report printed after lost.
func ownFD(path string) (int, bool) {
	p := path
	for range maxLinks {
		abs, err := filepath.Abs(p)
		if err != nil {
			break
		}
		if fd, ok := fdName(abs); ok {
			return fd, true
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			break
		}
		to, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(p), to)
		}
		p = to
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	for fd, f := range map[int]*os.File{1: os.Stdout, 2: os.Stderr} {
		if std, err := f.Stat(); err == nil && os.SameFile(fi, std) {
			return fd, true
		}
	}
	return 0, false
}

// fdName is the descriptor the absolute, clean name path stands for, as
// Linux and the BSDs name them.
func fdName(path string) (int, bool) {
	switch path {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	prefixes := []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"}
	for _, prefix := range prefixes {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			if n, err := strconv.Atoi(rest); err == nil && n >= 0 && strconv.Itoa(n) == rest {
				return n, true
			}
		}
	}
	return 0, false
}
