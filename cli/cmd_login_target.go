package cli

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/keys"
)

const loginNonceUsage = `Usage: vigil login oauth-nonce --target-key FILE

Makes the target key of an OAuth sign-in and prints the nonce the login
provider must put in the OIDC token. The service exchanges a token only with
the target key its nonce was made from (the nonce is the lowercase hex SHA-256
of the target's public key as hex), so a token others see in the activity is
worth nothing to them. The target's private key is written to FILE (0600,
which must not exist); 'vigil login oauth --target-key FILE' uses it, and
deletes it once the new key is saved.

  nonce=$(vigil login oauth-nonce --target-key carol.target)
  # sign in at the provider with nonce=$nonce; save its id_token
  vigil login oauth --target-key carol.target --provider-token id_token.jwt --name carol-oauth

Flags:
`

// loginOAuthNonce writes a fresh target key to --target-key and prints its
// nonce, alone on standard output, for scripts.
func loginOAuthNonce(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("login oauth-nonce", loginNonceUsage)
	path := fs.String("target-key", "", "write the target's private key to `FILE` (0600; must not exist)")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if *path == "" {
		return usagef("login oauth-nonce: --target-key FILE is required: the sign-in needs the target's private key later")
	}
	if keys.PathLooksSecret(*path) {
		// Made, the file would carry the key in its name, printed below.
		return usagef("login oauth-nonce: --target-key takes the name of a new file to write the target key to, and nothing was written: the value given is %s; choose a file name such as carol.target", keys.SecretArg(*path, "a file name"))
	}
	var err error
	if *path, err = flagPath(c, "login oauth-nonce", "target-key", *path); err != nil {
		return err
	}
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("login oauth-nonce: make the target key: %w", err)
	}
	err = writeTargetKey(*path, target, (*os.File).Sync)
	if errors.Is(err, os.ErrExist) {
		return usagef("login oauth-nonce: --target-key %s exists; choose another file (a target key serves one sign-in)", *path)
	}
	if err != nil {
		return fmt.Errorf("login oauth-nonce: %w", err)
	}
	if _, err := fmt.Fprintln(c.stdout, oauthNonce(target)); err != nil {
		// No sign-in can have used a nonce nobody saw: the file is only in
		// the way of running the command again.
		if rerr := os.Remove(*path); rerr != nil {
			return fmt.Errorf("login oauth-nonce: the nonce could not be printed: %w; remove %s (unused) before running the command again: %v", err, *path, rerr)
		}
		return fmt.Errorf("login oauth-nonce: the nonce could not be printed: %w; nothing was kept (%s removed): run the command again", err, *path)
	}
	// Only now is there a nonce to sign in with.
	fmt.Fprintf(c.stderr, "target key written to %s (secret: it opens the new API key); sign in at the provider with this nonce, then run 'vigil login oauth --target-key %s --provider-token FILE'\n", shownPath(*path), shownWord(*path))
	return nil
}

// writeTargetKey writes target to the new file path (0600), synced by sync
// before the nonce is printed, and so is the directory holding it: else a
// crash could leave the file empty, or lose its name, and the token the
// user then gets from the provider could never be used. A file it could not
// finish is removed. An existing path is fs.ErrExist.
func writeTargetKey(path string, target *ecdh.PrivateKey, sync func(*os.File) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, hex.EncodeToString(target.Bytes()))
	if err == nil {
		err = sync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncParent(path, sync)
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// syncParent syncs the directory holding path with sync, so that the name
// of a file just made survives a crash, as the keys store does. A file
// system that cannot sync a directory (EINVAL) has nothing to sync.
func syncParent(path string, sync func(*os.File) error) error {
	dir := filepath.Dir(path)
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := sync(d); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}

// oauthNonce is the nonce of target as login oauth sends its public key.
func oauthNonce(target *ecdh.PrivateKey) string {
	return api.OauthNonce(hex.EncodeToString(target.PublicKey().Bytes()))
}

// singleNameTarget refuses a --target-key path that is not the target
// key's only name: login oauth deletes the file once the new key is saved,
// since with the activity's credential bundle (which every member can read)
// it opens the new API key, and removing a symbolic link or one of several
// hard links would leave that file on disk under another name.
func singleNameTarget(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("login oauth: --target-key: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		to, err := filepath.EvalSymlinks(path)
		if err != nil {
			to = "the file it leads to"
		}
		return usagef("login oauth: --target-key %s is a symbolic link (to %s): login oauth deletes the target key once the new key is saved, and removing the link would leave the file on disk, where with the activity's credential bundle it opens the new key; give the file itself: --target-key %s", path, to, to)
	}
	if n := userfile.Links(fi); n > 1 {
		return usagef("login oauth: --target-key %s has %d names (hard links): login oauth deletes the target key once the new key is saved, and removing one name would leave the file on disk under the others, where with the activity's credential bundle it opens the new key; remove the other names first (find them with 'find / -samefile %s'), then run the command again", path, n, path)
	}
	return nil
}

// loadTargetKey reads a target key written by login oauth-nonce. It is a
// secret (it opens the new API key), so it is read as a key file is.
func loadTargetKey(path string) (*ecdh.PrivateKey, error) {
	raw, err := keys.ReadSecretFile(path)
	if errors.Is(err, os.ErrNotExist) && keys.PathLooksSecret(path) {
		return nil, usagef("login oauth: --target-key takes the file of a target key made by 'vigil login oauth-nonce', and no file has the name given: it is %s", keys.SecretArg(path, "a file name"))
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, usagef("login oauth: --target-key %s does not exist; make it with 'vigil login oauth-nonce --target-key %s' before signing in at the provider", path, path)
	}
	if err != nil {
		return nil, fmt.Errorf("login oauth: --target-key: %w", err) // names the file, which exists
	}
	if err := singleNameTarget(path); err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(strings.TrimSpace(raw))
	if err == nil {
		var k *ecdh.PrivateKey
		if k, err = ecdh.P256().NewPrivateKey(b); err == nil {
			return k, nil
		}
	}
	return nil, usagef("login oauth: --target-key %s is not a target key made by 'vigil login oauth-nonce' (hex of a P-256 private key)", keys.ShowPath(path))
}

// nameTaken is the refusal of --name name, taken. When it is the placeholder
// of a login that died after it kept its target key as NAME-target (and so
// may have sent), it names the --recover command that finishes that login.
func nameTaken(store keys.Store, name, profileName string, taken *keys.ExistsError) error {
	if !taken.Placeholder {
		return usagef("login oauth: --name %s: %v", name, taken)
	}
	if !taken.Abandoned {
		return usagef("login oauth: --name %s: another 'vigil login oauth --name %s' is running now (%s is its placeholder); let it finish, or log in under another --name", name, name, taken.Path)
	}
	kept := targetName(name)
	if _, err := store.Load(kept); err != nil {
		return usagef("login oauth: --name %s: %s holds no key, only the placeholder of a login that died before it saved its target key, and so before it sent anything: there is nothing to recover; remove it ('%s') and log in again, or log in under another --name",
			name, taken.Path, taken.RemoveCommand())
	}
	profileFlag := ""
	if profileName != "" {
		profileFlag = " --profile " + profileName
	}
	return usagef("login oauth: --name %s: an earlier login under this name died (killed, or crashed) after keeping its target key as %s, and it may have sent: find its activity with 'vigil activity list%s --type oauth --limit 5'; if it COMPLETED, finish it with 'vigil login oauth%s --recover ACTIVITY_ID --target-key %s --name %s' (that removes the placeholder %s); if there is none, nothing was made: remove %s and the key %s, then log in again",
		name, kept, profileFlag, profileFlag, kept, name, taken.Path, taken.Path, kept)
}
