package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

const stampUsage = `Usage:
  vigil stamp --key NAME|ssh-agent:SHA256:… [--dir DIR | --profile NAME] (--body JSON | --body-file F | < body)
  vigil stamp --verify STAMP (--body JSON | --body-file F | < body)

The first form prints the X-Stamp header value for exactly the body's bytes
(nothing is added or removed: a trailing newline in a file is signed too).
The second checks a stamp against a body and says why it fails: use it when
the service refuses your integration's stamps.

Flags:
  --key NAME        the stored key to stamp with, or ssh-agent:SHA256:… for a
                    key of the ssh-agent at SSH_AUTH_SOCK (vigil keys list --agent)
  --dir DIR         keys directory (default: the active profile's keys_dir,
                    else $XDG_CONFIG_HOME/vigil/keys), as for 'vigil keys'
  --profile NAME    take keys_dir from this profile (refused for a read-only
                    profile: a stamp can submit whatever path it is sent to)
  --config FILE     the config file of that profile
  --body JSON       the request body, as given
  --body-file F     read the body from F ("-" is standard input); not empty
  --verify STAMP    verify STAMP instead of making one

Examples:
  vigil stamp --key ops --body '{"organizationId":"..."}'
  vigil stamp --key ssh-agent:SHA256:Xn3PC6cbgRA0u9dIPxHpAuQyrfuyQoA8tAqaLP3o1tQ --body-file req.json
  curl -H "X-Stamp: $(vigil stamp --key ops --body-file req.json)" --data-binary @req.json ...
  vigil stamp --verify "$STAMP" --body-file req.json
`

// maxStampBody bounds the body read; the service refuses bodies over 1 MiB.
const maxStampBody = 16 << 20

// cmdStamp runs 'vigil stamp'.
func cmdStamp(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("stamp", stampUsage)
	keyName := fs.String("key", "", "the key `NAME` to stamp with")
	dirFlags := addKeysDirFlags(fs)
	body := fs.String("body", "", "the request body `JSON`")
	bodyFile := fs.String("body-file", "", "read the body from `F` (- for standard input)")
	verify := fs.String("verify", "", "the `STAMP` to verify")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if len(pos) != 0 {
		return usagef("stamp takes no arguments, got %s; pass the body with --body or --body-file (see vigil stamp -h)", strayArgs(pos))
	}
	if set["key"] == set["verify"] {
		return usagef("stamp needs exactly one of --key NAME (to make a stamp) or --verify STAMP (to check one)")
	}
	if set["body"] && set["body-file"] {
		return usagef("stamp takes the body from --body or --body-file, not both")
	}
	dirFlag := "" // the flag given that chooses the keys directory
	for _, name := range []string{"dir", "profile", "config"} {
		if set[name] && dirFlag == "" {
			dirFlag = "--" + name
		}
	}
	if set["verify"] && dirFlag != "" {
		return usagef("%s is for --key; --verify uses the public key inside the stamp", dirFlag)
	}

	var data []byte
	from := "--body"
	switch {
	case set["body"]:
		data = []byte(*body)
	default:
		path := "-" // without --body-file, the body is standard input
		if set["body-file"] {
			path = *bodyFile
		}
		data, from, err = readInput(ctx, c, path, "the body", maxStampBody)
		if errors.Is(err, errNoInput) {
			return usagef("stamp: no body: pass --body JSON or --body-file F")
		}
		if err != nil {
			return fmt.Errorf("stamp: body: %w", err)
		}
		if len(data) > maxStampBody {
			return usagef("stamp: the body from %s is over %d bytes; the service takes far smaller bodies (at most 1 MiB): give the request's body", from, maxStampBody)
		}
		if len(data) == 0 {
			// No request has an empty body: an upstream step that wrote
			// nothing (or cron's empty standard input), refused as --body ''
			// is, rather than stamped as if it were the request.
			return usagef("stamp: the body from %s is empty, and no request has an empty body: give the request body (a JSON object) with --body JSON, --body-file F or on standard input", from)
		}
	}

	if set["verify"] {
		return stampVerify(c, *verify, data)
	}
	if err := keys.ValidateRef(*keyName); err != nil {
		return usagef("stamp: --key: %v", err)
	}
	if keys.IsAgentRef(*keyName) && dirFlag != "" {
		return usagef("stamp: %s is for stored keys; %s is a key of the ssh-agent at SSH_AUTH_SOCK", dirFlag, *keyName)
	}
	if name := dirFlags.readOnlyProfile(c); name != "" && !keys.IsAgentRef(*keyName) {
		return fmt.Errorf("stamp: profile %q is read-only (read_only = true): it makes no stamps, which could submit whatever the path; use --profile with a profile that may submit, or --dir DIR for a keys directory outside any profile", name)
	}
	k, err := stampKey(c, *keyName, dirFlags)
	if err != nil {
		return fmt.Errorf("stamp: %w", err)
	}
	_, value, err := k.Stamp(data)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(c.stdout, value); err != nil {
		return fmt.Errorf("stamp: print the stamp: %w", err)
	}
	return nil
}

// stampKey opens the key stamp names: an agent key, or a stored key from the
// directory the keys verbs use, so a key 'vigil keys generate' just made in
// the same environment is found.
func stampKey(c proc, ref string, dirFlags *keysDirFlags) (keys.Stamper, error) {
	if keys.IsAgentRef(ref) {
		return openStamper(c.getenv, ref, "")
	}
	store, err := dirFlags.store(c, "stamp")
	if err != nil {
		return nil, err
	}
	k, err := openStamper(c.getenv, ref, store.Dir)
	if err != nil {
		// Where 'vigil keys generate' would put it without these flags.
		var others []string
		if s, serr := (&keysDirFlags{}).store(c, "stamp"); serr == nil {
			others = append(others, s.Dir)
		}
		return nil, keyElsewhere(err, append(others, defaultKeysDir(c.getenv))...)
	}
	return k, nil
}

// stampVerify checks stamp over body, printing the stamp's claims and the
// verdict; a failing stamp is an error with the precise reason (exit 1).
func stampVerify(c proc, stamp string, body []byte) error {
	// Accept a pasted header line ("X-Stamp: eyJ…") as well as the value.
	stamp = strings.TrimSpace(stamp)
	if len(stamp) > len(keys.HeaderStamp)+1 && strings.EqualFold(stamp[:len(keys.HeaderStamp)+1], keys.HeaderStamp+":") {
		stamp = strings.TrimSpace(stamp[len(keys.HeaderStamp)+1:])
	}
	if strings.HasPrefix(stamp, "{") {
		return errors.New("this looks like an X-Stamp-WebAuthn value (plain JSON); --verify checks X-Stamp values, which are base64url. A WebAuthn stamp can only be checked against the authenticator's registered public key")
	}
	w := &errWriter{w: c.stdout} // the verdict is checked once, at the end
	claims, decodeErr := keys.DecodeStamp(stamp)
	if decodeErr == nil {
		fmt.Fprintf(w, "public key: %s\n", claimText(claims.PublicKey, true))
		fmt.Fprintf(w, "scheme:     %s\n", claimText(claims.Scheme, false))
	}
	fmt.Fprintf(w, "body:       %d bytes\n", len(body))
	st, err := keys.Verify(stamp, body)
	if err != nil {
		fmt.Fprintln(w, "verdict:    INVALID")
		reason := err
		if errors.Is(err, keys.ErrBadSignature) {
			hint := "the body must be byte-for-byte what was signed (key order, spaces, escaping)"
			if bytes.HasSuffix(body, []byte("\n")) {
				hint += "; this body ends with a newline, which is signed too: was it in the signed body?"
			}
			reason = fmt.Errorf("%w\n  hint: %s", err, hint)
		}
		return fmt.Errorf("stamp is not valid: %w", reason)
	}
	fmt.Fprintf(w, "verdict:    valid (%s, credential type %s)\n", st.Scheme, keys.CredentialTypeOfScheme(st.Scheme))
	if st.HighS {
		fmt.Fprintln(w, "note:       the signature has a high S: accepted (WebCrypto and the official Go SDK do not normalise S), but malleable; vigil's keys sign low S")
	}
	fmt.Fprintln(w, "note:       the service also requires this public key to be registered to a user of the organization")
	if w.err != nil {
		return fmt.Errorf("stamp: print the verdict: %w", w.err)
	}
	return nil
}

// claimText shows an unverified field of a stamp: verbatim when it is plain
// (hex, or scheme-like text), otherwise quoted with api.Quote, which escapes
// everything that could act on the terminal or hide (Go's %q leaves some
// invisible characters, such as variation selectors, as they are).
func claimText(s string, wantHex bool) string {
	if wantHex {
		if _, err := hex.DecodeString(s); err == nil && len(s) <= 200 {
			return s
		}
		return api.Quote(truncateClaim(s)) + " (not hex)"
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return api.Quote(truncateClaim(s))
		}
	}
	return s
}

func truncateClaim(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
