package keys

import "fmt"

// NotFoundError is a key name with no private key file in Dir. Elsewhere,
// when the caller found a key of that name in another directory it could
// have meant, replaces the advice to make a new key: that name is taken
// there, and 'vigil keys generate NAME' in that directory would be refused.
type NotFoundError struct {
	Name, Dir, Path string
	Elsewhere       string
}

func (e *NotFoundError) Error() string {
	if looksSecret(e.Name) {
		// A private key given as a profile's key = "…": no such key, and
		// the name must not be printed.
		return fmt.Sprintf("no key in %s under the name given: %v", e.Dir, secretNameError(e.Name))
	}
	msg := fmt.Sprintf("no key %q in %s (expected %s)", e.Name, e.Dir, e.Path)
	if e.Elsewhere != "" {
		return msg + fmt.Sprintf("; a key %q is in %s: pass --dir %s, or set keys_dir in the profile to that directory", e.Name, e.Elsewhere, e.Elsewhere)
	}
	// A profile's key is normally an API key already registered: the likely
	// fix is the name or the directory, not a new key.
	return msg + fmt.Sprintf("; check the key name and the keys directory (a profile's key and keys_dir, or --dir), or whether the file was moved; a new key from 'vigil keys generate %s' must also be registered as an API key of your user before the service accepts it", e.Name)
}
