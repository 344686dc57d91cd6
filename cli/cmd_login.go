package cli

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"

	"github.com/vigil-console/vigil/ui"
)

const loginUsage = `Usage: vigil login oauth-nonce --target-key FILE
       vigil login oauth --provider-token FILE|- [--target-key FILE] [--name NAME] [--expiration D]

Signs in with an OIDC token from a login provider and saves the API key the
service issues into the key store. The token must carry the nonce of the
sign-in's target key: oauth-nonce makes the key and prints its nonce.
`

func cmdLogin(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "login", loginUsage, []subcommand{{"oauth", loginOAuth}, {"oauth-nonce", loginOAuthNonce}}, args)
}

const loginOAuthUsage = `Usage: vigil login oauth --provider-token FILE|- [--target-key FILE] [--name NAME]
                        [--expiration D] [--profile NAME] [--config FILE]

Exchanges an OIDC token (an id_token from a provider the organization trusts)
for a new API key of the user linked to it, and saves that key in the profile's
keys directory as NAME (0600), with its expiry:

  1. the target key, a P-256 key pair, is read from --target-key (made by
     'vigil login oauth-nonce', which printed its nonce); without it a fresh
     one is made, its nonce printed on standard error, and the token read
     from standard input after that (--provider-token -). The token's nonce
     claim must be that nonce: the service exchanges a token only with the
     target key it was issued for, and only once;
  2. the oauth activity is submitted, stamped with the profile's key, with the
     target's public key; the auth proxy has no oauth endpoint (SPEC.md gives it
     only wallet_kit_config), so it goes to the profile's base_url;
  3. the returned credential bundle is opened with the target's private key
     (HPKE), and the API key's private key inside it is saved;
  4. a whoami stamped with the new key checks that the service accepts it.

The token is read from FILE, or standard input with -; it is never printed or
logged, nor is the bundle or a private key. The --target-key file is deleted
once the new key is saved. The key lives --expiration (whole
seconds: 3600, or a duration such as 1h; the service's default is 15 minutes);
once it has passed, stamping with it is refused and says to log in again. Use the key in a profile with
key = "NAME".

Examples:
  vigil login oauth-nonce --target-key carol.target      # prints the nonce
  vigil login oauth --target-key carol.target --provider-token id_token.jwt --name carol-oauth
  vigil login oauth --provider-token - --expiration 1h  # prints a nonce, then reads the token

Flags:
`

// defaultOAuthKeyLifetime is the service's lifetime of an oauth API key when
// expirationSeconds is absent (SPEC.md, Limits).
const defaultOAuthKeyLifetime = 15 * time.Minute

// maxProviderToken bounds an OIDC token read from a file or standard input.
const maxProviderToken = 16 << 10

func loginOAuth(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("login oauth", loginOAuthUsage)
	var conn connFlags
	conn.register(fs, false)
	tokenPath := fs.String("provider-token", "", "`FILE` holding the OIDC token (- for standard input)")
	targetPath := fs.String("target-key", "", "the target key `FILE` made by 'vigil login oauth-nonce' (default: a fresh one, with --provider-token -)")
	name := fs.String("name", "oauth", "save the new key under `NAME`")
	var lifetimeFlagValue lifetimeFlag
	fs.Var(&lifetimeFlagValue, "expiration", "lifetime `D` of the new key: whole seconds (3600) or a duration (1h, 90m) (default: the service's, 15m)")
	expiration := &lifetimeFlagValue.d
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if *tokenPath == "" {
		return usagef("login oauth: --provider-token FILE is required (- reads the token from standard input)")
	}
	if err := keys.ValidateName(*name); err != nil {
		return usagef("login oauth: --name: %v", err)
	}
	if *expiration < 0 || *expiration%time.Second != 0 || (*expiration > 0 && *expiration < time.Second) {
		return usagef("login oauth: --expiration %s must be a positive whole number of seconds, e.g. 3600, 15m or 3600s", *expiration)
	}
	if *targetPath == "" && *tokenPath != "-" {
		return usagef("login oauth: --provider-token %s needs --target-key FILE: the token must carry the nonce of the sign-in's target key, so make that first with 'vigil login oauth-nonce --target-key FILE' (or use --provider-token - to get a nonce and paste the token)", *tokenPath)
	}
	client, p, err := conn.submitClient(c)
	if err != nil {
		return err
	}

	// The service makes the key once: the name is claimed, and the keys
	// directory shown writable, before the user is sent to sign in.
	store := keysStore(c, p.KeysDir)
	slot, err := store.Reserve(*name)
	var taken *keys.ExistsError
	if errors.As(err, &taken) {
		return usagef("login oauth: --name %s: %v", *name, err)
	}
	if err != nil {
		return fmt.Errorf("login oauth: %w", adviseKeysDir(err, p.Name))
	}
	defer slot.Cancel()

	var target *ecdh.PrivateKey
	if *targetPath != "" {
		if target, err = loadTargetKey(*targetPath); err != nil {
			return err
		}
	} else {
		if target, err = ecdh.P256().GenerateKey(rand.Reader); err != nil {
			return fmt.Errorf("login oauth: make the target key: %w", err)
		}
		fmt.Fprintf(c.stderr, "nonce: %s\nsign in at the provider with this nonce, then give the OIDC token here (end with Ctrl-D):\n", oauthNonce(target))
	}
	raw, from, err := readInput(c, *tokenPath, maxProviderToken)
	if err != nil {
		return usagef("login oauth: --provider-token %s: %v", from, err)
	}
	if len(raw) > maxProviderToken {
		return fmt.Errorf("login oauth: %s is over %d KiB; an OIDC token is much smaller", from, maxProviderToken>>10)
	}
	token := strings.TrimSpace(string(raw))
	if token == "" {
		return usagef("login oauth: %s is empty; it should hold the OIDC token", from)
	}
	params := api.OauthParams{OidcToken: token, TargetPublicKey: hex.EncodeToString(target.PublicKey().Bytes())}
	lifetime := defaultOAuthKeyLifetime
	if *expiration > 0 {
		lifetime = *expiration
		params.ExpirationSeconds = strconv.FormatInt(int64(*expiration/time.Second), 10)
	}
	// The expiry is counted from before the submission: never later than the service's.
	expires := time.Now().Add(lifetime)
	act, err := client.OAuth(ctx, params)
	if err != nil {
		return fmt.Errorf("login oauth: %w", err)
	}
	if act.Status != api.StatusCompleted || act.Result.OauthResult == nil {
		return fmt.Errorf("login oauth: activity %s is %s, without an oauth result; see 'vigil activity get %s'", act.ID, act.Status, act.ID)
	}
	res := act.Result.OauthResult
	priv, err := keys.DecryptCredentialBundle(res.CredentialBundle, target)
	if err != nil {
		return fmt.Errorf("login oauth: open the credential bundle of activity %s: %w", act.ID, err)
	}
	key, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(priv))
	clear(priv)
	if err != nil {
		return fmt.Errorf("login oauth: the credential bundle of activity %s: %w", act.ID, err)
	}
	if err := slot.Save(key, expires); err != nil {
		var incomplete *keys.IncompleteError
		if !errors.As(err, &incomplete) {
			return notSavedError(adviseKeysDir(err, p.Name), res.APIKeyID, p.Name, expires)
		}
		fmt.Fprintf(c.stderr, "warning: %v\n", err) // the key works: go on
	}
	// The target key opens the bundle, which every member can read in the
	// activity's result: with the key saved, it has no use left.
	if *targetPath != "" {
		if err := os.Remove(*targetPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(c.stderr, "warning: delete the target key %s yourself (%v): it opens the new key's credential bundle\n", *targetPath, err)
		}
	}
	check, err := api.NewClient(p.BaseURL, p.OrganizationID, key, api.WithUserAgent("vigil/"+version))
	if err != nil {
		return err
	}
	who, err := check.Whoami(ctx)
	if err != nil {
		privPath, _, _ := store.Paths(*name)
		return fmt.Errorf("login oauth: saved the key as %s, but the service does not accept it: %w", privPath, err)
	}
	privPath, _, _ := store.Paths(*name)
	return fields(c.stdout,
		"signed in as", api.Sanitize(who.Username)+" ("+api.SanitizeID(who.UserID)+")",
		"organization", api.SanitizeID(who.OrganizationID),
		"api key", api.SanitizeID(res.APIKeyID),
		"saved as", *name+" ("+privPath+")",
		"expires", expires.UTC().Format(time.RFC3339)+" (in "+ui.HumanDuration(lifetime)+")",
		"use it", fmt.Sprintf(`key = %q in a profile of organization %s`, *name, api.SanitizeID(who.OrganizationID)),
	)
}

// adviseKeysDir makes a keys directory error name what login oauth reads the
// directory from, the profile's keys_dir: it has no --dir to set.
func adviseKeysDir(err error, profileName string) error {
	var dirErr *keys.DirError
	if errors.As(err, &dirErr) {
		dirErr.Setting = fmt.Sprintf("keys_dir in profile %q", profileName)
	}
	return err
}

// notSavedError says what became of the API key the service made, whose
// private key could not be saved in the keys directory: where the key is
// instead and how to put it in place, or that the API key cannot be used.
// Either way, how to delete it.
func notSavedError(err error, apiKeyID, profileName string, expires time.Time) error {
	id := api.SanitizeID(apiKeyID)
	del := "vigil apikey delete " + id
	if profileName != "" {
		del = "vigil apikey delete --profile " + profileName + " " + id
	}
	made := fmt.Sprintf("the service created API key %s (it expires at %s)", id, expires.UTC().Format(time.RFC3339))
	var ns *keys.NotSavedError
	if errors.As(err, &ns) && ns.Copy != "" {
		return fmt.Errorf("login oauth: %s, but %w; or, if you do not want that API key, delete it with '%s'", made, err, del)
	}
	return fmt.Errorf("login oauth: %s, but %w; that API key cannot be used: delete it with '%s'", made, err, del)
}
