package cli

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
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
                        [--key-name NAME] [--invalidate-existing]
                        [--expiration D] [--profile NAME] [--config FILE]
       vigil login oauth --recover ACTIVITY_ID --target-key FILE|KEY [--name NAME]

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
     target's public key; the auth proxy has no oauth endpoint (it serves
     only wallet_kit_config), so it goes to the profile's base_url;
  3. the returned credential bundle is opened with the target's private key
     (HPKE), and the API key's private key inside it is saved;
  4. a whoami stamped with the new key checks that the service accepts it.

If the reply to step 2 is lost (a gateway's 502, a dropped connection, a
reply that cannot be read), the
very same signed request is sent again: the service answers it with the
activity it recorded, whose bundle is opened as usual. If no answer comes
within a few minutes, or the activity waits for approval, the target key is
kept (the --target-key file stays; a fresh key is saved in the keys directory
as NAME-target, 0600) and the error says how to finish later with --recover:
it reads the completed oauth activity and opens its bundle with that key
(--target-key names the file, or the key kept in the keys directory), and
takes the expiry from the API key's record. The target key is deleted only
once the key is saved, or when the login certainly made no key (never sent,
refused by the service, FAILED or REJECTED). A fresh target key's NAME-target
must fit the 64-character limit of key names: --name is then at most 57. After a
login killed in flight, logging in again under its --name gives that command;
--recover removes the placeholder of NAME the killed login left.

The key is named on the service --key-name, by default --name when that is
given (so the Users screen and 'user get' tell this key from the user's
others), else the service's "Oauth - TIME". --invalidate-existing has the
service invalidate the user's other OAuth API keys as it makes this one: sign
in again with it when an OAuth key leaked.

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
  vigil login oauth --recover 0192a6c4-… --target-key carol.target --name carol-oauth
  vigil login oauth --target-key carol.target --provider-token id_token.jwt --name carol-laptop --invalidate-existing

Flags:
`

// defaultOAuthKeyLifetime is the service's lifetime of an oauth API key when
// expirationSeconds is absent (SPEC.md, Limits).
const defaultOAuthKeyLifetime = 15 * time.Minute

// maxProviderToken bounds an OIDC token read from a file or standard input.
const maxProviderToken = 16 << 10

// resubmitWindow is how long after the first attempt login oauth sends a
// request whose reply was lost again: within the service's five-minute
// timestamp window, with a margin for clocks.
const resubmitWindow = 4 * time.Minute

func loginOAuth(ctx context.Context, c proc, args []string) error {
	return oauthLogin(ctx, c, args, resubmitWindow)
}

// oauthLogin is login oauth, resending a request whose reply was lost for at
// most window (tests shorten it).
func oauthLogin(ctx context.Context, c proc, args []string, window time.Duration) error {
	fs := newFlagSet("login oauth", loginOAuthUsage)
	var conn connFlags
	conn.register(fs, false)
	tokenPath := fs.String("provider-token", "", "`FILE` holding the OIDC token (- for standard input)")
	targetPath := fs.String("target-key", "", "the target key `FILE` made by 'vigil login oauth-nonce' (default: a fresh one, with --provider-token -); with --recover, that file or the KEY a login kept in the keys directory")
	name := fs.String("name", "oauth", "save the new key under `NAME`")
	var lifetimeFlagValue lifetimeFlag
	fs.Var(&lifetimeFlagValue, "expiration", "lifetime `D` of the new key: whole seconds (3600) or a duration (1h, 90m) (default: the service's, 15m)")
	expiration := &lifetimeFlagValue.d
	recoverID := fs.String("recover", "", "finish a login that waited for approval or lost its reply: open the bundle of the oauth activity `ID` (needs --target-key)")
	keyName := fs.String("key-name", "", "the new API key's `NAME` on the service, as the Users screen and 'user get' show it (default: --name when given, else the service's \"Oauth - TIME\")")
	invalidate := fs.Bool("invalidate-existing", false, "invalidate the user's other OAuth API keys (a leaked one, say) as this login makes its key")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	var err error
	if *targetPath, err = flagPath(c, "login oauth", "target-key", *targetPath); err != nil {
		return err
	}
	if *tokenPath, err = flagPath(c, "login oauth", "provider-token", *tokenPath); err != nil {
		return err
	}
	if *recoverID != "" {
		if *tokenPath != "" || *expiration != 0 || *keyName != "" || *invalidate {
			return usagef("login oauth: --recover sends nothing: --provider-token, --expiration, --key-name and --invalidate-existing are for a new login")
		}
		return recoverOAuth(ctx, c, conn, *recoverID, *targetPath, *name)
	}
	if *tokenPath == "" {
		return usagef("login oauth: --provider-token FILE is required (- reads the token from standard input)")
	}
	if err := keys.ValidateName(*name); err != nil {
		return usagef("login oauth: --name: %v", err)
	}
	if *targetPath == "" && keys.CheckName(targetName(*name)) != nil {
		return usagef("login oauth: --name %s is %d characters: without --target-key the fresh target key is kept as NAME%s, and a key name is at most %d characters, so --name is at most %d here; choose a shorter --name, or make the target key with 'vigil login oauth-nonce --target-key FILE' and pass --target-key FILE",
			*name, len(*name), targetName(""), keys.MaxNameLen, keys.MaxNameLen-len(targetName("")))
	}
	serviceKeyName := *keyName
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "name" && serviceKeyName == "" {
			serviceKeyName = *name
		}
	})
	// Checked before the user is sent to sign in, not after: the token is
	// good only once. The placeholders stand for what is read later;
	// --expiration was checked as it was parsed (lifetimeFlag).
	probe := api.OauthParams{OidcToken: "-", TargetPublicKey: "-", APIKeyName: serviceKeyName}
	if err := api.SecretInFreeText(&probe); err != nil {
		return usagef("login oauth: --key-name: %v", err)
	}
	if err := probe.Validate(); err != nil {
		return usagef("login oauth: --key-name %q: %v", serviceKeyName, err)
	}
	if *targetPath == "" && *tokenPath != "-" {
		return usagef("login oauth: --provider-token %s needs --target-key FILE: the token must carry the nonce of the sign-in's target key, so make that first with 'vigil login oauth-nonce --target-key FILE' (or use --provider-token - to get a nonce and paste the token)", keys.ShowPath(*tokenPath))
	}
	client, p, err := conn.submitClient(c)
	if err != nil {
		return err
	}

	// The service makes the key once: the name is claimed, and the keys
	// directory shown writable, before the user is sent to sign in.
	store, err := keysStore(c, p.KeysDir)
	if err != nil {
		return fmt.Errorf("login oauth: %w", err)
	}
	if *targetPath != "" && inKeysDir(store, *targetPath) {
		return usagef("login oauth: --target-key %s is a file of the keys directory (%s): login oauth deletes its target key once used, so it takes only a file made by 'vigil login oauth-nonce --target-key FILE', kept outside the keys directory; to finish a login whose target key was kept there, use --recover ACTIVITY_ID --target-key NAME", keys.ShowPath(*targetPath), store.Dir)
	}
	slot, err := store.Reserve(*name)
	var taken *keys.ExistsError
	if errors.As(err, &taken) {
		return nameTaken(store, *name, p.Name, taken)
	}
	if err != nil {
		return fmt.Errorf("login oauth: %w", adviseKeysDir(err, p.Name))
	}
	defer slot.Cancel()
	// A fresh target key is the only key that opens the reply of a login
	// that does not end at once: its name is claimed before anything is
	// sent, so that it cannot be taken (by an earlier login's) when needed.
	var targetSlot *keys.Reservation
	if *targetPath == "" {
		if targetSlot, err = reserveTarget(store, *name, p.Name); err != nil {
			return err
		}
		defer targetSlot.Cancel()
	}

	var target *ecdh.PrivateKey
	if *targetPath != "" {
		if target, err = loadTargetKey(*targetPath); err != nil {
			return err
		}
	} else {
		if target, err = ecdh.P256().GenerateKey(rand.Reader); err != nil {
			return fmt.Errorf("login oauth: make the target key: %w", err)
		}
		fmt.Fprintf(c.stderr, "nonce: %s\nsign in at the provider with this nonce, then give the OIDC token here\n", oauthNonce(target))
	}
	raw, from, err := readProviderToken(ctx, c, *tokenPath)
	if ctx.Err() != nil {
		// Ctrl-C at the prompt: the deferred Cancels give the names back.
		return fmt.Errorf("login oauth: %w", err)
	}
	if err != nil {
		return inputErrorf(err, "login oauth: --provider-token %s", from)
	}
	if len(raw) > maxProviderToken {
		return usagef("login oauth: --provider-token: %s is over %d KiB; an OIDC token is much smaller: give the token the provider issued", from, maxProviderToken>>10)
	}
	token := strings.TrimSpace(string(raw))
	if token == "" {
		return usagef("login oauth: %s is empty; it should hold the OIDC token", from)
	}
	params := api.OauthParams{OidcToken: token, TargetPublicKey: hex.EncodeToString(target.PublicKey().Bytes()), APIKeyName: serviceKeyName}
	if *invalidate {
		params.InvalidateExisting = invalidate
		fmt.Fprintln(c.stderr, "vigil: the user's other OAuth API keys are invalidated once this login completes")
	}
	lifetime := defaultOAuthKeyLifetime
	if *expiration > 0 {
		lifetime = *expiration
		params.ExpirationSeconds = strconv.FormatInt(int64(*expiration/time.Second), 10)
	}
	// From the moment the request is sent the service may make an API key
	// that only target opens, so a fresh target is on disk (synced) before
	// that: a login killed in flight, or whose terminal closed, leaves it
	// for --recover.
	if targetSlot != nil {
		if err := saveFreshTarget(store, *name, p.Name, targetSlot, target); err != nil {
			return err
		}
	}
	// The expiry is counted from before the submission: never later than the service's.
	sentAt := time.Now()
	expires := sentAt.Add(lifetime)
	act, err := client.OAuth(ctx, params)
	var unknown *api.OutcomeUnknownError
	if errors.As(err, &unknown) {
		act, err = resubmit(ctx, c, client, unknown, sentAt.Add(window))
		if errors.Is(err, api.ErrOutcomeUnknown) {
			return keepTarget(store, *name, p.Name, *targetPath, "", err)
		}
	}
	dropFresh := func() {
		if targetSlot != nil {
			removeKeptTarget(c, store, targetName(*name))
		}
	}
	if err != nil && api.NotRecorded(err) {
		dropFresh() // refused, or never sent: the service made no key
		return fmt.Errorf("login oauth: %w", err)
	}
	if err != nil {
		// Any other failure (a reply that could not be read, say) may follow
		// a recorded login, and so an API key that only target opens.
		return keepTarget(store, *name, p.Name, *targetPath, "", err)
	}
	if waiting(act.Status) {
		// The bundle comes once the activity completes: only this target
		// key opens it.
		return keepTarget(store, *name, p.Name, *targetPath, act.ID,
			fmt.Errorf("activity %s waits for approval (%s)", api.SanitizeID(act.ID), act.Status))
	}
	// The activity ran: the service may have made an API key that only target
	// opens. Until that key is saved, a failure keeps target (as a wait does).
	keep := func(cause error) error {
		return keepTarget(store, *name, p.Name, *targetPath, act.ID, cause)
	}
	if madeNoKey(act.Status) {
		dropFresh()
	}
	dropTarget := func() {
		removeTargetFile(c, *targetPath)
		dropFresh()
	}
	return finishOAuth(ctx, c, p, store, *name, slot, act, target, dropTarget, expires, lifetime, keep)
}

// readProviderToken reads the OIDC token from path, or standard input for
// "-": typed or pasted on a terminal, it is read with echo off (it is a
// secret, kept out of scrollback and terminal logs, as keys import keeps a
// key). Either way Ctrl-C (ctx) stops the wait at once.
func readProviderToken(ctx context.Context, c proc, path string) (raw []byte, from string, err error) {
	if fd, ok := stdinTerminal(c); ok && path == "-" {
		raw, err = readHidden(ctx, c, fd, "OIDC token (paste it, then Enter)")
		return raw, "the terminal", err
	}
	return readInput(ctx, c, path, "the OIDC token", maxProviderToken)
}

// madeNoKey reports an activity status after which an oauth login certainly
// made no API key: it failed, or was rejected. Any other status may yet
// make one.
func madeNoKey(status string) bool {
	return status == api.StatusFailed || status == api.StatusRejected
}

// waiting reports an activity status from which it may still complete.
func waiting(status string) bool {
	return status == api.StatusConsensusNeeded || status == api.StatusCreated || status == api.StatusPending
}

// resubmit sends the request of a submit whose reply was lost again, byte
// for byte, until an answer comes or until passes: the service answers the
// same body with the activity it recorded (DESIGN.md §4), or records it now if
// the first attempt never arrived. The error wraps api.ErrOutcomeUnknown while
// no answer came.
func resubmit(ctx context.Context, c proc, client *api.Client, sent *api.OutcomeUnknownError, until time.Time) (*api.Activity, error) {
	pause := time.Second
	last := sent
	for attempt := 2; ; attempt++ {
		fmt.Fprintf(c.stderr, "login oauth: no answer came (%v); sending the same request again (attempt %d)\n", last.Err, attempt)
		act, rerr := client.Resubmit(ctx, sent)
		var again *api.OutcomeUnknownError
		var answered *api.Error
		switch {
		case rerr == nil:
			return act, nil
		case errors.As(rerr, &answered) && !errors.As(rerr, &again):
			// The service answered, and refused: what became of the first
			// attempt is as unknown as before.
			return nil, fmt.Errorf("%w; sending it again was refused: %w", sent, rerr)
		}
		if !errors.As(rerr, &last) { // not sent at all (no connection): still unknown
			last = &api.OutcomeUnknownError{Operation: sent.Operation, Err: rerr}
		}
		if ctx.Err() != nil || time.Now().Add(pause).After(until) {
			return nil, fmt.Errorf("%w; sent again %d time(s) without an answer", last, attempt-1)
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
		pause = min(2*pause, 30*time.Second)
	}
}

// targetName is the name a login under --name name keeps its fresh target
// key as.
func targetName(name string) string { return name + targetSuffix }

// targetSuffix ends the name of every target key a login keeps.
const targetSuffix = "-target"

// reserveTarget claims the name of a fresh target key before a login sends
// anything. A name still held by an earlier login's target key is refused:
// that key may be the only one that opens an API key being approved.
func reserveTarget(store keys.Store, name, profileName string) (*keys.Reservation, error) {
	kept := targetName(name)
	slot, err := store.Reserve(kept)
	var taken *keys.ExistsError
	if errors.As(err, &taken) && taken.Placeholder {
		// A login killed (SIGKILL, a crash) after reserving the name and
		// before saving its key: it saves the key before it sends, so
		// nothing was sent and there is nothing to recover.
		return nil, usagef("login oauth: --name %s: %s holds no key, only the placeholder a login writes before it sends: another 'vigil login oauth --name %s' is running now, or an earlier one died (killed, or crashed) before it saved its target key and so before it sent anything, and then there is nothing to recover with --recover; if no such login is running, remove it ('%s') and log in again, or log in under another --name",
			name, taken.Path, name, taken.RemoveCommand())
	}
	if errors.As(err, &taken) {
		profileFlag := ""
		if profileName != "" {
			profileFlag = " --profile " + profileName
		}
		return nil, usagef("login oauth: --name %s: an earlier login kept its target key as %s (%s); it may be the only key that opens an API key being approved: finish that login with 'vigil login oauth%s --recover ACTIVITY_ID --target-key %s --name %s' (find the activity with 'vigil activity list%s --type oauth --limit 5'), or log in under another --name; remove %s only once no login needs it",
			name, kept, taken.Path, profileFlag, kept, name, profileFlag, taken.Path)
	}
	if err != nil {
		return nil, fmt.Errorf("login oauth: %w", adviseKeysDir(err, profileName))
	}
	return slot, nil
}

// saveFreshTarget saves a fresh target key in slot, the reservation of
// NAME-target, before the login is sent. Nothing has been sent when it
// fails, so whatever it wrote is removed: that key opens nothing yet.
func saveFreshTarget(store keys.Store, name, profileName string, slot *keys.Reservation, target *ecdh.PrivateKey) error {
	key, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(target.Bytes()))
	if err == nil {
		err = slot.Save(key, time.Time{})
	}
	var incomplete *keys.IncompleteError
	if err == nil || errors.As(err, &incomplete) {
		return nil // the private key is on disk; Load does without the rest
	}
	var ns *keys.NotSavedError
	if errors.As(err, &ns) && ns.Copy != "" {
		os.Remove(ns.Copy)
	}
	removeKeyFiles(store, targetName(name))
	return fmt.Errorf("login oauth: nothing was sent: the target key could not be kept as %s (%w), and without it an API key the service makes could not be opened if the login were cut off; free space in the keys directory or fix its permissions, then log in again", targetName(name), adviseKeysDir(err, profileName))
}

// removeKeyFiles removes every file of the stored key name, the private
// key's first. It reports the first failure.
func removeKeyFiles(store keys.Store, name string) error {
	priv, pub, sch := store.Paths(name)
	var first error
	for _, path := range []string{priv, pub, sch} {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// removeKeptTarget removes the fresh target key a login saved as kept, once
// the API key it opens is saved. It reports whether the key is gone; if not,
// a warning says to delete it.
func removeKeptTarget(c proc, store keys.Store, kept string) bool {
	if err := removeKeyFiles(store, kept); err != nil {
		fmt.Fprintf(c.stderr, "warning: delete the target key %s yourself (%v): it opens the new key's credential bundle\n", kept, api.Sanitize(err.Error()))
		return false
	}
	return true
}

// removeTargetFile removes a --target-key file (none: "") once the API key
// it opens is saved. It reports whether a file was removed; if one could not
// be, a warning says to delete it.
func removeTargetFile(c proc, targetFile string) bool {
	if targetFile == "" {
		return false
	}
	err := os.Remove(targetFile)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(c.stderr, "warning: delete the target key %s yourself (%v): it opens the new key's credential bundle\n", shownPath(targetFile), api.Sanitize(err.Error()))
	}
	return err == nil
}

// keepTarget says how to finish a login that has not ended (its reply was
// lost, or the activity waits for approval) with its target key, the only
// key that opens the credential bundle the service may make. A --target-key
// file (targetFile) holds it; a fresh key was saved as NAME-target before
// the login was sent. activityID, when known, is the login's activity.
func keepTarget(store keys.Store, name, profileName, targetFile, activityID string, cause error) error {
	profileFlag := ""
	if profileName != "" {
		profileFlag = " --profile " + profileName
	}
	finish := func(kept string) string {
		if activityID != "" {
			return fmt.Sprintf("once activity %s COMPLETED, finish with 'vigil login oauth%s --recover %s --target-key %s --name %s'",
				api.SanitizeID(activityID), profileFlag, api.SanitizeID(activityID), kept, name)
		}
		return fmt.Sprintf("find the activity with 'vigil activity list%s --type oauth --limit 5'; if it COMPLETED, finish with 'vigil login oauth%s --recover ACTIVITY_ID --target-key %s --name %s'; if there is none, nothing was made: run the login again",
			profileFlag, profileFlag, kept, name)
	}
	if targetFile != "" {
		return fmt.Errorf("login oauth: %w; the target key stays in %s: %s", cause, targetFile, finish(targetFile))
	}
	kept := targetName(name)
	privPath, _, _ := store.Paths(kept)
	return fmt.Errorf("login oauth: %w; the key that opens the service's reply is kept as %s (%s, 0600): %s", cause, kept, privPath, finish(kept))
}

// finishOAuth opens the credential bundle of the completed oauth activity act
// with target, saves the API key in slot (reserved as name), then drops the
// target key (dropTarget: it has no use left), checks that the service accepts the
// key and says what was done. A COMPLETED activity may have made an API key
// that only target opens: when its bundle cannot be opened, the error is
// keep's, which keeps target and says how to finish later.
func finishOAuth(ctx context.Context, c proc, p Profile, store keys.Store, name string, slot *keys.Reservation, act *api.Activity, target *ecdh.PrivateKey, dropTarget func(), expires time.Time, lifetime time.Duration, keep func(cause error) error) error {
	switch {
	case madeNoKey(act.Status):
		return fmt.Errorf("login oauth: activity %s is %s, so it made no API key; see 'vigil activity get %s'", act.ID, act.Status, act.ID)
	case waiting(act.Status):
		return keep(fmt.Errorf("activity %s still waits for approval (%s): the service makes the API key once it is approved, and only the target key opens it; keep the target key and run this again once the activity COMPLETED", act.ID, act.Status))
	case act.Status != api.StatusCompleted:
		return keep(fmt.Errorf("activity %s is %s, which vigil does not know: it may yet make an API key that only the target key opens; see 'vigil activity get %s'", act.ID, api.Sanitize(act.Status), act.ID))
	}
	res := act.Result.OauthResult
	if res == nil {
		return keep(fmt.Errorf("activity %s COMPLETED, but its result is not an oauth result vigil can read; see it with 'vigil activity get %s --json'", act.ID, act.ID))
	}
	priv, err := keys.DecryptCredentialBundle(res.CredentialBundle, target)
	if err != nil {
		return keep(fmt.Errorf("open the credential bundle of activity %s: %w", act.ID, err))
	}
	key, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(priv))
	clear(priv)
	if err != nil {
		return keep(fmt.Errorf("the credential bundle of activity %s: %w", act.ID, err))
	}
	if err := slot.Save(key, expires); err != nil {
		var incomplete *keys.IncompleteError
		if !errors.As(err, &incomplete) {
			return notSavedError(adviseKeysDir(err, p.Name), res.APIKeyID, p.Name, expires)
		}
		fmt.Fprintf(c.stderr, "warning: %s\n", api.Sanitize(err.Error())) // the key works: go on
	}
	// The target key opens the bundle, which every member can read in the
	// activity's result: with the key saved, it has no use left.
	dropTarget()
	check, err := api.NewClient(p.BaseURL, p.OrganizationID, key, api.WithUserAgent("vigil/"+version))
	if err != nil {
		return err
	}
	privPath, _, _ := store.Paths(name)
	who, err := check.Whoami(ctx)
	if err != nil {
		return fmt.Errorf("login oauth: saved the key as %s, but the service does not accept it: %w", privPath, err)
	}
	return fields(c.stdout,
		"signed in as", api.NameWithID(who.Username, who.UserID),
		"organization", api.SanitizeID(who.OrganizationID),
		"api key", api.SanitizeID(res.APIKeyID),
		"saved as", name+" ("+privPath+")",
		"expires", expires.UTC().Format(time.RFC3339)+" (in "+ui.HumanDuration(lifetime)+")",
		"use it", fmt.Sprintf(`key = %q in a profile of organization %s`, name, api.SanitizeID(who.OrganizationID)),
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
