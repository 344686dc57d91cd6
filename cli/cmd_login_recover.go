package cli

import (
	"context"
	"crypto/ecdh"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// recoverOAuth finishes a login that waited for approval or lost its reply:
// it reads the completed oauth activity id, opens its credential bundle with
// the target key (targetName: the --target-key file, or the key a login kept
// in the keys directory), and saves the API key as name. Nothing is
// submitted.
func recoverOAuth(ctx context.Context, c proc, conn connFlags, id, targetName, name string) error {
	if targetName == "" {
		return usagef("login oauth: --recover ACTIVITY_ID needs --target-key FILE|KEY, the target key of that login (its error named it)")
	}
	if err := keys.ValidateName(name); err != nil {
		return usagef("login oauth: --name: %v", err)
	}
	client, p, err := conn.client(c)
	if err != nil {
		return err
	}
	store, err := keysStore(c, p.KeysDir)
	if err != nil {
		return fmt.Errorf("login oauth: --recover: %w", err)
	}
	targetName = keptTargetName(store, targetName)
	target, targetFile, err := loadRecoveryTarget(store, targetName)
	if err != nil {
		return err
	}
	act, err := client.GetActivity(ctx, id)
	if err != nil {
		return fmt.Errorf("login oauth: --recover: %w", err)
	}
	if act.Type != api.TypeOauth {
		return usagef("login oauth: --recover %s: activity is %s, not an oauth login", api.SanitizeID(id), act.Type)
	}
	intent := act.Intent.OauthIntent
	if intent == nil || !strings.EqualFold(intent.TargetPublicKey, hex.EncodeToString(target.PublicKey().Bytes())) {
		return fmt.Errorf("login oauth: --recover %s: that login was not sealed to --target-key %s; find the right activity with 'vigil activity list --type oauth'", api.SanitizeID(id), targetName)
	}
	if waiting(act.Status) {
		return fmt.Errorf("login oauth: --recover %s: the activity still waits for approval (%s): the service makes the API key once it is approved, and only the target key %s opens it; keep that key, and run this again once the activity COMPLETED", api.SanitizeID(id), act.Status, targetName)
	}
	expires, known := recoveredKeyExpiry(ctx, c, client, act)
	if known && !client.ServiceNow().Before(expires) { // by the service's own record and clock
		return fmt.Errorf("login oauth: --recover %s: the API key it made expired at %s; log in again", api.SanitizeID(id), expires.UTC().Format(time.RFC3339))
	}
	slot, err := store.Reserve(name)
	var taken *keys.ExistsError
	if errors.As(err, &taken) && taken.Abandoned {
		// The login being finished here died before it saved its key: its
		// placeholder holds nothing, and no process holds it any more.
		if err := store.RemoveAbandoned(name); err != nil {
			return fmt.Errorf("login oauth: --name %s: remove the placeholder an unfinished login left (%s): %w", name, taken.Path, err)
		}
		fmt.Fprintf(c.stderr, "removed %s, the placeholder of key %s left by a login that never finished\n", shownPath(taken.Path), name)
		slot, err = store.Reserve(name)
	}
	if errors.As(err, &taken) {
		return nameTaken(store, name, p.Name, taken)
	}
	if err != nil {
		return fmt.Errorf("login oauth: %w", adviseKeysDir(err, p.Name))
	}
	defer slot.Cancel()
	// The target key stays where --target-key found it until the API key is saved.
	keep := func(cause error) error {
		return fmt.Errorf("login oauth: --recover %s: %w; the target key stays as %s", api.SanitizeID(id), cause, targetName)
	}
	// With the key saved, the target key has no use left but to open the
	// bundle every member can read: it goes, from the keys directory or
	// from its file, and the user is told.
	dropTarget := func() {
		if targetFile != "" {
			if removeTargetFile(c, targetFile) {
				fmt.Fprintf(c.stderr, "deleted the target key %s: with the key saved, it has no use left\n", shownPath(targetFile))
			}
			return
		}
		// Only a key named as a login keeps its target key: any other key
		// that opened the bundle may be one the user still signs with.
		if !strings.HasSuffix(targetName, targetSuffix) {
			fmt.Fprintf(c.stderr, "note: the target key %s stays in the keys directory: it opens the new key's credential bundle, so delete it once nothing else needs it\n", targetName)
			return
		}
		if removeKeptTarget(c, store, targetName) {
			fmt.Fprintf(c.stderr, "deleted the target key %s from the keys directory: with the key saved, it has no use left\n", targetName)
		}
	}
	return finishOAuth(ctx, c, p, store, name, slot, act, target, dropTarget, expires, max(time.Until(expires).Round(time.Second), 0), keep)
}

// recoveredKeyExpiry is when the API key made by the oauth activity act
// expires: known from the service's record of that key, else estimated from
// when the activity completed (the service makes the key on approval, not on
// submission) and the lifetime asked for. An estimate never refuses a key:
// whoami, after it is saved, says whether the service accepts it.
func recoveredKeyExpiry(ctx context.Context, c proc, client *api.Client, act *api.Activity) (expires time.Time, known bool) {
	if res := act.Result.OauthResult; act.Status == api.StatusCompleted && res != nil && res.APIKeyID != "" {
		rec, err := client.GetAPIKey(ctx, res.APIKeyID)
		if err == nil {
			if secs, perr := strconv.ParseInt(rec.ExpirationSeconds, 10, 64); perr == nil && secs > 0 {
				return rec.CreatedAt.Time().Add(time.Duration(secs) * time.Second), true
			}
		} else {
			fmt.Fprintf(c.stderr, "warning: the expiry of API key %s is estimated from its activity: %v\n", api.SanitizeID(res.APIKeyID), err)
		}
	}
	lifetime := defaultOAuthKeyLifetime
	if intent := act.Intent.OauthIntent; intent != nil {
		if secs, err := strconv.ParseInt(intent.ExpirationSeconds, 10, 64); err == nil && secs > 0 {
			lifetime = time.Duration(secs) * time.Second
		}
	}
	return act.UpdatedAt.Time().Add(lifetime), false
}

// loadRecoveryTarget reads --recover's target key: the key a login kept in
// the keys directory under that name, else the file made by 'vigil login
// oauth-nonce' (then also returned as file, to delete once the key is saved).
// A kept key that cannot be loaded gives the reason (a chmod, say): a new
// target key would not open that login's bundle.
func loadRecoveryTarget(store keys.Store, name string) (target *ecdh.PrivateKey, file string, err error) {
	if keys.CheckName(name) == nil {
		priv, _, _ := store.Paths(name)
		if _, serr := os.Lstat(priv); !errors.Is(serr, os.ErrNotExist) {
			kept, lerr := store.Load(name)
			if lerr != nil {
				return nil, "", fmt.Errorf("login oauth: --target-key %s, the target key kept in the keys directory: %w", keys.ShowName(name), lerr)
			}
			raw, err := hex.DecodeString(kept.PrivateKeyHex())
			if err == nil && kept.Scheme() == keys.SchemeP256 {
				target, err = ecdh.P256().NewPrivateKey(raw)
			}
			clear(raw)
			if target == nil || err != nil {
				return nil, "", fmt.Errorf("login oauth: --target-key %s is not the P-256 target key of a login", keys.ShowName(name))
			}
			return target, "", nil
		}
		if _, serr := os.Lstat(name); errors.Is(serr, os.ErrNotExist) {
			if keys.PathLooksSecret(name) {
				return nil, "", usagef("login oauth: --target-key takes the name of the target key the login kept (NAME-target) or the --target-key file it used; the value given is %s", keys.SecretArg(name, "a key or file name"))
			}
			return nil, "", usagef("login oauth: --target-key %s: no key %s in the keys directory (%s) and no file %s: give the key the login's error named (NAME-target) or the --target-key file it used", name, name, priv, name)
		}
	}
	if target, err = loadTargetKey(name); err != nil {
		return nil, "", err
	}
	return target, name, nil
}
