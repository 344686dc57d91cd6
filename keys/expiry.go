package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// ErrKeyExpired is returned by Load, and by Stamp of a key Load returned, for
// a key past the expiry recorded with it (an OAuth login's API key): the
// service refuses it, so vigil does too.
var ErrKeyExpired = errors.New("key expired")

// expiryPath holds a key's expiry, RFC 3339, next to its other files.
func (s Store) expiryPath(name string) string {
	priv, _, _ := s.Paths(name)
	return priv[:len(priv)-len(".private")] + ".expires"
}

// Expiry is when key name stops being accepted; zero for a key without one.
func (s Store) Expiry(name string) (time.Time, error) {
	if err := CheckName(name); err != nil {
		return time.Time{}, err
	}
	b, err := readSmall(s.expiryPath(name))
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339, firstLine(b))
	if err != nil {
		// Removing the file would make an expiring key one that never
		// expires here (the service still refuses it once expired): the
		// advice is to restore the expiry, never to remove it.
		what := "not an RFC 3339 time"
		if strings.TrimSpace(b) == "" {
			what = "empty (damaged, perhaps by a crash while it was written)"
		}
		return time.Time{}, fmt.Errorf("expiry file %s is %s; write the key's expiry into it as an RFC 3339 time such as 2026-05-01T12:00:00Z (the login printed it; 'vigil apikey get API_KEY_ID', with a profile that still works, prints it after expires: with a space for the T); do not remove the file: vigil would then take the key for one that never expires", s.expiryPath(name), what)
	}
	return t, nil
}

// expiredAt is the refusal of key name, whose expiry exp (zero: none) has
// passed at now; nil while it has not. The expired key still holds its
// name, so a login under that name is refused until its files go: the
// advice gives a new name, or removeCmd (Store.RemoveCommand; "" when not
// known) to run first. Its own profile cannot stamp the login.
func expiredAt(name string, exp, now time.Time, removeCmd string) error {
	if exp.IsZero() || now.Before(exp) {
		return nil
	}
	remove := fmt.Sprintf("remove its files first (%s.private, .public, .scheme and .expires in the keys directory)", name)
	if removeCmd != "" {
		remove = fmt.Sprintf("remove its files first (%s)", removeCmd)
	}
	return fmt.Errorf("key %q: %w at %s; log in again from a profile whose key still works, under a new name ('vigil login oauth --profile PROFILE --name %s …'), and use the new key; to keep the name %q, %s, then log in with --name %s", name, ErrKeyExpired, exp.Format(time.RFC3339), secondName(name), name, remove, name)
}

// secondName is the new name the advice gives for a login replacing key
// name: name-2, name cut first so that it stays within MaxNameLen (a name
// at the limit would otherwise be advised into a refusal); -3 where the cut
// name-2 is name itself.
func secondName(name string) string {
	const suffix = "-2"
	n := name[:min(len(name), MaxNameLen-len(suffix))] + suffix
	if n == name {
		return n[:len(n)-1] + "3"
	}
	return n
}
