package cli

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/profile"

	"github.com/vigil-console/vigil/ui"
)

const keysUsage = `Usage: vigil keys <command> [flags]

Manage the keys that stamp your requests (the X-Stamp header).

Commands:
  generate [--scheme p256|secp256k1|ed25519] [--dir DIR] NAME   make a new key
  list     [--dir DIR] [--agent]                                list stored keys (--agent: the ssh-agent's)
  show     [--dir DIR] NAME|ssh-agent:SHA256:…                  public key, scheme, credential type, files
  import   --scheme S [--file F] [--dir DIR] NAME               store an existing private key (hex; stdin without --file)

Keys live in DIR: --dir, else the keys_dir of the active profile (chosen as for
the other verbs: --profile, --config, VIGIL_PROFILE, VIGIL_CONFIG,
default_profile), else $XDG_CONFIG_HOME/vigil/keys (or ~/.config/vigil/keys),
as NAME.private (mode 0600), NAME.public and NAME.scheme, and NAME.expires for a
key from 'vigil login oauth'. A key held by the
ssh-agent at SSH_AUTH_SOCK (a hardware token or Secure Enclave behind it
included) is named ssh-agent:SHA256:… wherever a key name is taken
(docs/keys.md).

Examples:
  vigil keys generate ops
  vigil keys list --agent
  vigil keys generate --scheme ed25519 ci-bot
  vigil keys show ops
  vigil keys import --scheme secp256k1 --file old.hex legacy
`

// cmdKeys runs 'vigil keys …'.
func cmdKeys(ctx context.Context, c proc, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, keysUsage)
		return usagef("keys needs a command: generate, list, show or import")
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "generate":
		return keysGenerate(c, args)
	case "list":
		return keysList(c, args)
	case "show":
		return keysShow(c, args)
	case "import":
		return keysImport(ctx, c, args)
	case "-h", "-help", "--help", "help":
		return showHelp(c.stdout, keysUsage)
	}
	return usagef("unknown keys command %s; use generate, list, show or import (vigil keys -h)", shownArg(sub, "a command"))
}

// keysDirFlags choose the keys directory of the keys verbs: --dir, else the
// active profile's keys_dir (the directory its key is read from), else
// keys.DefaultDir.
type keysDirFlags struct{ dir, profile, config string }

func addKeysDirFlags(fs *flag.FlagSet) *keysDirFlags {
	f := &keysDirFlags{}
	fs.StringVar(&f.dir, "dir", "", "keys `DIR` (default: the active profile's keys_dir, else $XDG_CONFIG_HOME/vigil/keys)")
	fs.StringVar(&f.profile, "profile", "", "use the keys_dir of config profile `NAME` (default $VIGIL_PROFILE, then default_profile)")
	fs.StringVar(&f.config, "config", "", "config `FILE` of that profile (default $VIGIL_CONFIG, then $XDG_CONFIG_HOME/vigil/config.toml)")
	return f
}

// store resolves the directory. A profile chosen on purpose (--profile,
// --config, VIGIL_PROFILE, VIGIL_CONFIG) that cannot be read is an error; a
// default config that is missing, or names no single profile, is not: the
// keys verbs work without any config. A default config that exists but
// cannot be read is an error too: its profile may set keys_dir, and a key
// put in the default directory meanwhile would not be found once it is fixed.
func (f *keysDirFlags) store(c proc, verb string) (keys.Store, error) {
	if f.dir != "" {
		if f.profile != "" || f.config != "" {
			return keys.Store{}, usagef("%s: --dir names the directory; --profile and --config choose it from a profile: give one or the other", verb)
		}
		if keys.PathLooksSecret(f.dir) {
			// Made or listed, the directory would print the key in its name.
			return keys.Store{}, usagef("%s: --dir takes a keys directory, and nothing was read or made: the value given is %s; give a directory such as ~/.config/vigil/keys", verb, keys.SecretArg(f.dir, "a directory name"))
		}
		dir, err := flagPath(c, verb, "dir", f.dir)
		if err != nil {
			return keys.Store{}, err
		}
		return keys.Store{Dir: dir}, nil
	}
	chosen := f.profile != "" || f.config != "" || c.getenv("VIGIL_PROFILE") != "" || c.getenv("VIGIL_CONFIG") != ""
	p, err := profile.Select(c.getenv, f.config, f.profile, profileChecks())
	// No config to read (none at the default path, or no default path
	// without HOME, which keysStore explains), or one naming no profile.
	var missing *profile.MissingError
	var unchosen *profile.NoneChosenError
	_, noPath := profile.DefaultPath(c.getenv)
	none := errors.As(err, &missing) || errors.As(err, &unchosen) || noPath != nil
	switch {
	case err == nil && p.KeysDir != "":
		return keys.Store{Dir: p.KeysDir}, nil
	case err != nil && (chosen || !none):
		return keys.Store{}, fmt.Errorf("%s: the keys directory comes from the profile, which cannot be read: %w; or give --dir DIR", verb, err)
	}
	store, err := keysStore(c, "")
	if err != nil {
		return keys.Store{}, fmt.Errorf("%s: %w", verb, err)
	}
	return store, nil
}

// keysStore is the store in dir, or in the default keys directory.
func keysStore(c proc, dir string) (keys.Store, error) {
	if dir == "" {
		var err error
		if dir, err = keys.DefaultDir(c.getenv); err != nil {
			return keys.Store{}, err
		}
	}
	return keys.Store{Dir: dir}, nil
}

const keysGenerateUsage = `Usage: vigil keys generate [--scheme p256|secp256k1|ed25519] [--dir DIR] NAME

Makes a new stamping key and stores it as NAME (never overwrites an existing key).
Register the printed public key as an API key of your user, then set
key = "NAME" in your profile.

Flags:
  --scheme S        p256 (default), secp256k1 or ed25519
  --dir DIR         keys directory (default: the active profile's keys_dir,
                    else $XDG_CONFIG_HOME/vigil/keys)
  --profile NAME    take keys_dir from this profile
  --config FILE     the config file of that profile

Examples:
  vigil keys generate ops
  vigil keys generate --scheme ed25519 ci-bot
`

func keysGenerate(c proc, args []string) error {
	fs := newFlagSet("keys generate", keysGenerateUsage)
	scheme := fs.String("scheme", "p256", "signature `SCHEME`: p256, secp256k1 or ed25519")
	dirFlags := addKeysDirFlags(fs)
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("keys generate takes one key name, got %d arguments (see vigil keys generate -h)", len(pos))
	}
	sc, err := keys.ParseScheme(*scheme)
	if err != nil {
		return usagef("keys generate: --scheme: %v", err)
	}
	if keys.IsAgentRef(pos[0]) {
		return usagef("keys generate: %s names an ssh-agent key; the agent's keys are made outside vigil (ssh-keygen -t ecdsa -b 256, then ssh-add), and 'vigil keys list --agent' shows them", pos[0])
	}
	if err := keys.ValidateName(pos[0]); err != nil {
		return usagef("keys generate: %v", err)
	}
	store, err := dirFlags.store(c, fs.Name())
	if err != nil {
		return err
	}
	k, err := store.Generate(pos[0], sc)
	if k == nil {
		return keyNameTaken("keys generate", store, pos[0], dirFlags.profile, err)
	}
	warnIncomplete(c, err)
	w := &errWriter{w: c.stdout}
	fmt.Fprintf(w, "Generated key %q.\n", pos[0])
	printKeyDetails(w, store, pos[0], k.Scheme(), k.PublicKeyHex(), k.CredentialType())
	fmt.Fprintf(w, "\n%s\n", keysGenerateNext(c, dirFlags, store, pos[0], k.CredentialType()))
	return savedNotPrinted("keys generate", pos[0], w.err)
}

// savedNotPrinted is the error of a key command whose key was saved but
// whose report could not be written: not done as asked, yet not to be run
// again (the name is taken now), so it says where the key's details are.
func savedNotPrinted(verb, name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: key %q was saved, but its details could not be printed (%w); 'vigil keys show %s' shows them", verb, name, err, name)
}

// warnIncomplete reports a key saved without some of the files that describe
// it (a *keys.IncompleteError): it works, so the command has succeeded.
func warnIncomplete(c proc, err error) {
	if err != nil {
		// The error names the keys directory: escaped, as every path.
		fmt.Fprintf(c.stderr, "warning: %s\n", api.Sanitize(err.Error()))
	}
}

func printKeyDetails(w io.Writer, store keys.Store, name, scheme, pub, credType string) error {
	priv, pubPath, schPath := store.Paths(name)
	return writeColumns(w, 2, [][]string{
		{"  name:", name},
		{"  public key:", pub},
		{"  scheme:", scheme},
		{"  credential type:", credType},
		{"  private key file:", shownPath(priv)},
		{"  public key file:", fileOrNone(pubPath, "the public key comes from the private key")},
		{"  scheme file:", fileOrNone(schPath, "P-256")},
	})
}

// fileOrNone is path, or, for a file that does not exist, why the key does
// without it.
func fileOrNone(path, without string) string {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return "(none: " + without + ")"
	}
	return shownPath(path)
}

// displayHex shows a public key read from a file only if it is hex, so a
// corrupted file cannot put control sequences on the terminal.
func displayHex(s string) string {
	if _, err := hex.DecodeString(s); err != nil || s == "" {
		return "(not hex: the .public file is damaged)"
	}
	return s
}

const keysListUsage = `Usage: vigil keys list [--dir DIR] [--agent]

Lists the stored keys: name, scheme and public key. With --agent, lists the
keys of the ssh-agent at SSH_AUTH_SOCK instead: those that can stamp (P-256
and Ed25519) with the key reference to put in a profile and the public key to
register, then the others with the reason they cannot.

Examples:
  vigil keys list
  vigil keys list --agent
`

func keysList(c proc, args []string) error {
	fs := newFlagSet("keys list", keysListUsage)
	dirFlags := addKeysDirFlags(fs)
	fromAgent := fs.Bool("agent", false, "list the ssh-agent's keys instead (SSH_AUTH_SOCK)")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("keys list takes no arguments, got %s (see vigil keys list -h)", strayArgs(pos))
	}
	if *fromAgent {
		if *dirFlags != (keysDirFlags{}) {
			return usagef("keys list: --dir, --profile and --config are for stored keys; --agent lists the ssh-agent's")
		}
		return keysListAgent(c)
	}
	store, err := dirFlags.store(c, fs.Name())
	if err != nil {
		return err
	}
	infos, err := store.List()
	if err != nil {
		return err
	}
	if len(infos) == 0 {
		_, err := fmt.Fprintf(c.stdout, "No keys in %s; create one with 'vigil keys generate NAME'.\n", shownPath(store.Dir))
		return err
	}
	now := time.Now()
	var rows [][]string
	var damaged []string
	for _, k := range infos {
		if k.Problem != nil {
			rows = append(rows, []string{k.Name, "?", "(damaged: see below)", "-"})
			damaged = append(damaged, fmt.Sprintf("key %s: %s", k.Name, ui.Clean(k.Problem.Error())))
			continue
		}
		rows = append(rows, []string{k.Name, k.Scheme, displayHex(k.PublicKeyHex), expiryText(k.Expires, now)})
	}
	if err := table(c.stdout, []string{"NAME", "SCHEME", "PUBLIC KEY", "EXPIRES"}, rows); err != nil {
		return err
	}
	if len(damaged) > 0 {
		return fmt.Errorf("%d damaged key(s); fix or remove their files:\n  %s", len(damaged), strings.Join(damaged, "\n  "))
	}
	return nil
}

// expiryText shows a key's recorded expiry: "-" for none, else the time and
// how long is left, or that it has expired.
func expiryText(exp, now time.Time) string {
	switch {
	case exp.IsZero():
		return "-"
	case !now.Before(exp):
		return exp.UTC().Format("2006-01-02 15:04Z") + " (expired: log in again)"
	default:
		return exp.UTC().Format("2006-01-02 15:04Z") + " (in " + ui.HumanDuration(exp.Sub(now).Round(time.Second)) + ")"
	}
}

const keysShowUsage = `Usage: vigil keys show [--dir DIR] NAME|ssh-agent:SHA256:…

Shows a key's public key, scheme, credential type and files (for an agent key:
where the agent holds it). Never prints the private key.

Examples:
  vigil keys show ops
  vigil keys show ssh-agent:SHA256:Xn3PC6cbgRA0u9dIPxHpAuQyrfuyQoA8tAqaLP3o1tQ
`

func keysShow(c proc, args []string) error {
	fs := newFlagSet("keys show", keysShowUsage)
	dirFlags := addKeysDirFlags(fs)
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("keys show takes one key name, got %d arguments (see vigil keys show -h)", len(pos))
	}
	if err := keys.ValidateRef(pos[0]); err != nil {
		return usagef("keys show: %v", err)
	}
	if keys.IsAgentRef(pos[0]) {
		if *dirFlags != (keysDirFlags{}) {
			return usagef("keys show: --dir, --profile and --config are for stored keys; %s is a key of the ssh-agent", pos[0])
		}
		return keysShowAgent(c, pos[0])
	}
	store, err := dirFlags.store(c, fs.Name())
	if err != nil {
		return err
	}
	info, err := store.Info(pos[0])
	if err != nil {
		return err
	}
	w := &errWriter{w: c.stdout}
	printKeyDetails(w, store, info.Name, info.Scheme, displayHex(info.PublicKeyHex), keys.CredentialTypeOfScheme(info.Scheme))
	if !info.Expires.IsZero() {
		fmt.Fprintf(w, "expires: %s\n", expiryText(info.Expires, time.Now()))
	}
	if fi, err := os.Stat(info.PrivatePath); err == nil && fi.Mode().Perm()&0o077 != 0 {
		fmt.Fprintf(w, "\nWarning: %s is accessible by group or others (mode %04o) and will be refused; run: chmod 600 %s\n", shownPath(info.PrivatePath), fi.Mode().Perm(), shownPath(info.PrivatePath))
	}
	return w.err
}

const keysImportUsage = `Usage: vigil keys import --scheme p256|secp256k1|ed25519 [--file F] [--dir DIR] NAME

Stores an existing private key as NAME (never overwrites). The key is hex (a
leading 0x is dropped): a 32-byte scalar for p256 and secp256k1, a 32-byte seed
for ed25519; PEM is refused with the openssl command that prints the hex, a
public key as not the private key, 63 digits as a leading 0 dropped (add it once
sure of the key). A leading byte-order mark (Notepad) is dropped. It is read
from --file F, or from standard input without --file (so it stays out of your
shell history); on a terminal it is asked for on standard error and not echoed.

Examples:
  vigil keys import --scheme p256 --file ops.hex ops
  pass show vigil/ops | vigil keys import --scheme ed25519 ops
`

// maxImportLen bounds an imported key file.
const maxImportLen = 4096

func keysImport(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("keys import", keysImportUsage)
	scheme := fs.String("scheme", "", "the key's signature `SCHEME`: p256, secp256k1 or ed25519 (required)")
	file := fs.String("file", "", "read the private key (hex) from `FILE` (default: standard input)")
	dirFlags := addKeysDirFlags(fs)
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("keys import takes one key name, got %d arguments (see vigil keys import -h)", len(pos))
	}
	if *scheme == "" {
		return usagef("keys import needs --scheme p256, secp256k1 or ed25519: the hex alone does not say which curve it is for")
	}
	sc, err := keys.ParseScheme(*scheme)
	if err != nil {
		return usagef("keys import: --scheme: %v", err)
	}
	if keys.IsAgentRef(pos[0]) {
		return usagef("keys import: %s names an ssh-agent key; load keys into the agent with ssh-add", pos[0])
	}
	if err := keys.ValidateName(pos[0]); err != nil {
		return usagef("keys import: %v", err)
	}
	var b []byte
	var from, srcPath string
	if fd, ok := stdinTerminal(c); ok && (*file == "" || *file == "-") {
		// Typed or pasted: prompt, and keep it off the screen (and out of
		// scrollback and terminal logs), as oauth2-credential update does.
		from = "the terminal"
		b, err = readHidden(ctx, c, fd, "private key (hex) of "+pos[0])
	} else {
		path := *file
		if path == "" {
			path = "-" // without --file, the key is standard input
		}
		if path, err = flagPath(c, "keys import", "file", path); err != nil {
			return err
		}
		b, from, err = readInput(ctx, c, path, "the private key", maxImportLen)
		srcPath = path
	}
	if errors.Is(err, errNoInput) {
		return usagef("keys import: no --file and no standard input")
	}
	if err != nil {
		return fmt.Errorf("keys import: %w", err)
	}
	if len(b) > maxImportLen {
		return usagef("keys import: %s is larger than a key (over %d bytes); give the file holding the private key as 64 hex digits", from, maxImportLen)
	}
	hexKey := strings.TrimSpace(string(b))
	if hexKey == "" {
		return fmt.Errorf("keys import: no key in %s; give the hex private key with --file F or on standard input", from)
	}
	store, err := dirFlags.store(c, fs.Name())
	if err != nil {
		return err
	}
	k, err := store.Import(pos[0], sc, hexKey)
	if k == nil {
		return fmt.Errorf("%w (key read from %s)", keyNameTaken("keys import", store, pos[0], dirFlags.profile, err), from)
	}
	warnIncomplete(c, err)
	warnExposedFile(c, srcPath)
	w := &errWriter{w: c.stdout}
	fmt.Fprintf(w, "Imported key %q.\n", pos[0])
	printKeyDetails(w, store, pos[0], k.Scheme(), k.PublicKeyHex(), k.CredentialType())
	return savedNotPrinted("keys import", pos[0], w.err)
}
