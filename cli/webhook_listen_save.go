package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-console/vigil/internal/shellword"
	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// refusedDir is the subdirectory of --save DIR that refused deliveries go
// to, so that a forgery can never take the name of a verified delivery.
const refusedDir = "refused"

// Anyone who knows the organization id (it travels in the clear) can have a
// delivery refused after its body was read: DIR/refused keeps only the
// newest maxRefusedSaved of them, each body cut to maxRefusedBody bytes (then
// saved as .body.part), so strangers cannot fill the disk.
const (
	maxRefusedSaved = 100
	maxRefusedBody  = 64 << 10
)

// acceptedFile, in --save DIR, lists the event ids accepted within the
// replay window, one "UNIXMS EVENTID SHA256" line each, so that a restarted
// listener still knows them.
const acceptedFile = "accepted-events"

// maxAcceptedFile only keeps a damaged accepted-events file from filling
// memory: the ids of a replay window are far fewer.
const maxAcceptedFile = 1 << 30

// maxJournalLine bounds the lines the listener writes to accepted-events:
// a time in milliseconds, an event id (webhook.Verify takes at most 128
// characters) and a SHA-256 in hex, with room to spare.
const maxJournalLine = 512

// saveLockFile, in --save DIR, is locked by the listener saving there.
const saveLockFile = "listen.lock"

// lockSaveDir takes an exclusive lock on --save DIR for a listener's
// lifetime, or says who holds it; "" (no --save) locks nothing. Each
// listener trims DIR/accepted-events from what it remembers itself, so two
// on one DIR would drop each other's lines, and after a restart save a
// redelivered event again. The lock goes with the process, kill -9 included.
func lockSaveDir(dir string) (*server.DataDirLock, error) {
	if dir == "" {
		return nil, nil
	}
	lock, err := server.LockDir(dir, saveLockFile)
	var inUse *server.DirInUseError
	if errors.As(err, &inUse) {
		holder := "another process"
		if inUse.PID > 0 {
			holder = fmt.Sprintf("process %d", inUse.PID)
		}
		return nil, fmt.Errorf("webhook listen: --save %s: another listener (%s) is saving deliveries in %s; stop it first, or give this one another --save directory (two listeners on one directory would lose track of which events they accepted)",
			dir, holder, inUse.Dir)
	}
	if err != nil {
		return nil, fmt.Errorf("webhook listen: --save %s: %w", dir, err)
	}
	return lock, nil
}

// saveLocked writes the delivery as dir/NNNNNN-EVENT.body and .headers
// (0600). Files are created, never written over: a name already taken (by an
// earlier run, or anything else) moves the delivery to the next number.
func (l *listener) saveLocked(eventID, dir string, h http.Header, body []byte) (string, error) {
	return l.saveAsLocked(eventID, dir, ".body", h, body, l.syncFile)
}

// syncFile makes what was written to f durable. An accepted delivery is
// acknowledged only once its files are: the service then drops it.
func (l *listener) syncFile(f *os.File) error {
	if l.fsync != nil {
		return l.fsync(f)
	}
	return f.Sync()
}

// syncDirLocked makes the files created in dir survive a crash. A file
// system that cannot sync a directory (EINVAL) orders its entries itself.
func (l *listener) syncDirLocked(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := l.syncFile(d); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// saveRefusedLocked keeps a refused delivery (its body cut) under
// DIR/refused, dropping the oldest ones beyond maxRefusedSaved, and notes in
// rep where it went.
func (l *listener) saveRefusedLocked(rep *deliveryReport, h http.Header, body []byte) {
	if l.saveDir == "" {
		return
	}
	dir := filepath.Join(l.saveDir, refusedDir)
	ext := ".body"
	if len(body) > maxRefusedBody {
		body, ext = body[:maxRefusedBody], ".body.part"
	}
	name, err := func() (string, error) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		// Not synced: a refused delivery is kept to look at, and anyone
		// may send them.
		return l.saveAsLocked(rep.EventID, dir, ext, h, body, nil)
	}()
	if err != nil {
		rep.Reason = strings.TrimPrefix(rep.Reason+"; ", "; ") + "not saved: " + err.Error()
		return
	}
	rep.Saved = name
	l.refused = append(l.refused, name)
	for len(l.refused) > maxRefusedSaved {
		removeSaved(l.refused[0])
		l.refused = l.refused[1:]
	}
}

func (l *listener) saveAsLocked(eventID, dir, ext string, h http.Header, body []byte, sync func(*os.File) error) (string, error) {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, eventID)
	if len(safe) > 100 {
		safe = safe[:100]
	}
	var hb strings.Builder
	for _, k := range signedHeaders {
		for _, v := range h.Values(k) {
			fmt.Fprintf(&hb, "%s: %s\n", k, strings.NewReplacer("\r", "", "\n", "").Replace(v))
		}
	}
	const maxTaken = 1000 // names in a row found taken before giving up
	for range maxTaken {
		base := filepath.Join(dir, fmt.Sprintf("%06d-%s", l.nextFile, safe))
		l.nextFile++
		err := createExclusive(base+ext, body, sync)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		err = createExclusive(base+".headers", []byte(hb.String()), sync)
		if errors.Is(err, fs.ErrExist) {
			os.Remove(base + ext) // ours, just written: the pair moves on
			continue
		}
		if err != nil {
			os.Remove(base + ext)
			return "", err
		}
		return base, nil
	}
	return "", fmt.Errorf("%d names in a row in %s are taken; save to an empty directory", maxTaken, dir)
}

// checkRefusedDir refuses DIR/refused when it is there but is not a
// directory of its own: the listener removes the oldest deliveries kept
// there, and through a symbolic link it would remove files elsewhere named
// as saved deliveries are.
func checkRefusedDir(dir string) error {
	li, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case li.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: the listener keeps refused deliveries there and removes the oldest, which it would do wherever the link leads; remove the link (rm %s) and start again",
			dir, shellword.Quote(dir))
	case !li.IsDir():
		return fmt.Errorf("%s is %s, not a directory: the listener keeps refused deliveries there; move it away and start again", dir, userfile.Kind(li.Mode()))
	}
	return nil
}

// removeSaved removes the files of a delivery saved as base.
func removeSaved(base string) {
	for _, ext := range []string{".body", ".body.part", ".headers", savedKeyExt} {
		os.Remove(base + ext)
	}
}

// savedBases lists the deliveries saved in dir (NNNNNN-EVENT), lowest
// number first; none when dir does not exist.
func savedBases(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	type saved struct {
		n    int
		base string
	}
	var found []saved
	seen := map[string]bool{}
	for _, e := range entries {
		base, _, _ := strings.Cut(e.Name(), ".")
		n, ok := savedNumber(base)
		if !ok || seen[base] {
			continue
		}
		seen[base] = true
		found = append(found, saved{n, filepath.Join(dir, base)})
	}
	sort.Slice(found, func(i, j int) bool { return found[i].n < found[j].n })
	bases := make([]string, len(found))
	for i, s := range found {
		bases[i] = s.base
	}
	return bases, nil
}

// savedNumber is the NNNNNN of a saved delivery's file name.
func savedNumber(name string) (int, bool) {
	digits, _, ok := strings.Cut(name, "-")
	if !ok || len(digits) < 6 || len(digits) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// loadAcceptedLocked reads DIR/accepted-events into seen, keeping the ids
// still within the replay window, and writes the file back with only those.
func (l *listener) loadAcceptedLocked(now time.Time) error {
	path := filepath.Join(l.saveDir, acceptedFile)
	data, err := readAccepted(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	// Line by line, with no limit on a line's length that would stop the
	// reading (a bufio.Scanner stops at its first line over 64 KiB, and the
	// file written back would have lost every id after it); a line longer
	// than any the listener writes is damage and skipped before it is split,
	// so that a damaged file costs no more memory than its size.
	for line := range bytes.Lines(data) {
		if len(line) > maxJournalLine {
			continue
		}
		f := strings.Fields(string(line))
		if len(f) != 3 {
			continue // a line cut by a crash
		}
		ms, err1 := strconv.ParseInt(f[0], 10, 64)
		sum, err2 := hex.DecodeString(f[2])
		if err1 != nil || err2 != nil || len(sum) != sha256.Size {
			continue
		}
		at := time.UnixMilli(ms)
		if now.Sub(at) > l.memoryWindow() {
			continue
		}
		if prev, ok := l.seen[f[1]]; !ok || at.After(prev.at) {
			l.seen[f[1]] = acceptedEvent{at: at, body: [sha256.Size]byte(sum)}
		}
	}
	return l.compactAcceptedLocked()
}

// readAccepted reads DIR/accepted-events, refusing a symbolic link or
// anything but a file of the listener's own (userfile.OpenOwn): the
// listener rewrites and appends to it. A missing file's error matches
// fs.ErrNotExist (and none is made: the first accepted event makes it).
func readAccepted(path string) ([]byte, error) {
	if _, err := os.Lstat(path); err != nil {
		return nil, err
	}
	f, err := userfile.OpenOwnKeeping(path, 0, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxAcceptedFile+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxAcceptedFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxAcceptedFile)
	}
	return data, nil
}

// compactAcceptedLocked writes DIR/accepted-events anew with the ids in seen.
func (l *listener) compactAcceptedLocked() error {
	path := filepath.Join(l.saveDir, acceptedFile)
	var b strings.Builder
	for id, e := range l.seen {
		fmt.Fprintf(&b, "%d %s %x\n", e.at.UnixMilli(), id, e.body)
	}
	// Atomic and synced: a crash leaves the old list or the new one, never
	// an empty one that would make a redelivery new again. Renamed over
	// the name: a link put there is replaced, not the file it leads to.
	if err := replaceOwnFile(path, []byte(b.String()), 0o600); err != nil {
		return err
	}
	l.journalLines = len(l.seen)
	return nil
}

// journalLocked appends an accepted event to DIR/accepted-events, which is
// written anew from seen (forgotten ids dropped) once it holds many more
// lines than seen, so that it stays bounded by the memory window. On error,
// written says whether the line may have reached the file anyway (the write
// or its sync failed): a restarted listener would then take the event as
// accepted, so its saved files must stay.
func (l *listener) journalLocked(eventID string, sum [sha256.Size]byte, now time.Time) (written bool, err error) {
	if l.saveDir == "" {
		return false, nil
	}
	if l.journalLines > 2*len(l.seen)+1024 {
		l.forgetLocked(now)
		if err := l.compactAcceptedLocked(); err != nil {
			return false, fmt.Errorf("remember the event for a restart: %w", err)
		}
	}
	f, err := userfile.OpenOwnKeeping(filepath.Join(l.saveDir, acceptedFile), os.O_APPEND, 0o600)
	if err != nil {
		return false, fmt.Errorf("remember the event for a restart: %w", err)
	}
	line := fmt.Sprintf("%d %s %x\n", now.UnixMilli(), eventID, sum)
	if endsTorn(f) {
		// An earlier append was cut (a full disk): end that line first, or
		// this one would be glued to it and skipped on load.
		line = "\n" + line
	}
	_, err = io.WriteString(f, line)
	if err == nil {
		err = l.syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return true, fmt.Errorf("remember the event for a restart: %w", err)
	}
	l.journalLines++
	return true, nil
}

// endsTorn reports whether f is not empty and does not end with a newline.
// A file it cannot read counts as torn: an extra empty line is harmless.
func endsTorn(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return true
	}
	if fi.Size() == 0 {
		return false
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return true
	}
	return last[0] != '\n'
}

// createExclusive writes data to a new file at path (0600), synced with
// sync unless it is nil; it fails with fs.ErrExist rather than write over a
// file that is there.
func createExclusive(path string, data []byte, sync func(*os.File) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil && sync != nil {
		err = sync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path) // ours, and incomplete
	}
	return err
}

// lastSavedNumber is the highest NNNNNN of the deliveries saved in dir and
// dir/refused, 0 when there are none.
func lastSavedNumber(dir string) (int, error) {
	last := 0
	for _, d := range []string{dir, filepath.Join(dir, refusedDir)} {
		entries, err := os.ReadDir(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, err
		}
		for _, e := range entries {
			if n, ok := savedNumber(e.Name()); ok && n > last {
				last = n
			}
		}
	}
	return last, nil
}

// keepLocked saves an accepted delivery in DIR, with the key that verified
// it, and journals its id, each file synced, then syncs DIR so that the new names survive a crash too:
// only then may it be acknowledged, after which the service forgets it.
func (l *listener) keepLocked(d *webhook.Delivery, h http.Header, body []byte, sum [sha256.Size]byte, now time.Time) (string, error) {
	name, err := l.saveLocked(d.EventID, l.saveDir, h, body)
	if err != nil {
		return "", err
	}
	if err := l.saveKeyLocked(name, d); err != nil {
		removeSaved(name)
		return "", err
	}
	if written, err := l.journalLocked(d.EventID, sum, now); err != nil {
		if !written {
			removeSaved(name)
			return "", err
		}
		// The line may be on disk: after a restart the redelivery would be
		// taken as already accepted, so the files stay (a duplicate at
		// worst, never a loss).
		return "", fmt.Errorf("%w (%s is kept)", err, name)
	}
	if err := l.syncDirLocked(l.saveDir); err != nil {
		// The files stay: they may be on disk. Unacknowledged, the event
		// comes again and is saved again (a duplicate, never a loss).
		return "", fmt.Errorf("%w (%s is kept)", err, name)
	}
	return name, nil
}
