package keys

import (
	"io"
	"os"
	"strings"
)

// placeholderState is what a probe of a .private file last read as a
// placeholder finds.
type placeholderState int

const (
	placeholderHeld      placeholderState = iota // a live reservation holds its lock
	placeholderAbandoned                         // unlocked, and still a placeholder
	placeholderChanged                           // no longer the placeholder read: saved into, removed or replaced
)

// probePlaceholder says whether the placeholder read from priv a moment ago
// is still one nobody holds. A save may finish between that read and the
// probe (it drops the lock as it closes the key file): the file is read
// again under the probe's lock, so a key saved just then is never taken for
// an abandoned placeholder, whose advice is to remove it.
func probePlaceholder(priv string) placeholderState {
	f, err := os.Open(priv)
	if err != nil {
		return placeholderChanged // removed, or no longer ours to read
	}
	defer f.Close() // drops the probe's lock
	locked, err := tryLock(f)
	if err != nil || !locked {
		return placeholderHeld
	}
	b, err := io.ReadAll(io.LimitReader(f, maxKeyFileLen))
	if err != nil || !strings.HasPrefix(string(b), reservedMark) || !stillAt(f, priv) {
		return placeholderChanged
	}
	return placeholderAbandoned
}
