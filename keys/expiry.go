package keys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// ErrKeyExpired is returned by Load for a key past the expiry recorded with it
// (an OAuth login's API key): the service refuses it, so vigil does too.
var ErrKeyExpired = errors.New("key expired")

// expiryPath holds a key's expiry, RFC 3339, next to its other files.
func (s Store) expiryPath(name string) string {
	priv, _, _ := s.Paths(name)
	return priv[:len(priv)-len(".private")] + ".expires"
}

// ImportExpiring saves a private key like Import and records when the service
// stops accepting it.
func (s Store) ImportExpiring(name, scheme, hexKey string, expires time.Time) (*Key, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(s.expiryPath(name)); err == nil {
		return nil, fmt.Errorf("key %q already exists (%s); choose another name or remove its files first", name, s.expiryPath(name))
	}
	k, err := s.Import(name, scheme, hexKey)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(s.expiryPath(name), []byte(expires.UTC().Format(time.RFC3339)+"\n"), 0o600); err != nil {
		priv, pub, sch := s.Paths(name)
		os.Remove(priv)
		os.Remove(pub)
		os.Remove(sch)
		return nil, fmt.Errorf("save key %q: record its expiry: %w", name, err)
	}
	return k, nil
}

// Expiry is when key name stops being accepted; zero for a key without one.
func (s Store) Expiry(name string) (time.Time, error) {
	if err := ValidateName(name); err != nil {
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
		return time.Time{}, fmt.Errorf("expiry file %s: not an RFC 3339 time; fix or remove it", s.expiryPath(name))
	}
	return t, nil
}

// checkExpiry refuses a key whose recorded expiry has passed.
func (s Store) checkExpiry(name string, now time.Time) error {
	exp, err := s.Expiry(name)
	if err != nil {
		return err
	}
	if !exp.IsZero() && !now.Before(exp) {
		return fmt.Errorf("key %q: %w at %s; log in again ('vigil login oauth --name %s …') and use the new key", name, ErrKeyExpired, exp.Format(time.RFC3339), name)
	}
	return nil
}
