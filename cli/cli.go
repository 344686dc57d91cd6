// Package cli is vigil's command line: one file per verb group (console, demo,
// serve, keys, stamp, proof, request, activity, policy, mfa, feature, user, apikey
// and the remaining operations), the shared flag and output helpers, and the
// profile loading that the CLI and the console share. The vigil command's main
// calls Main.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// version is set at build time with
// -ldflags "-X github.com/vigil-console/vigil/cli.version=…".
var version = "dev"

// proc carries the process's standard streams and environment, so commands can be
// tested without touching the real ones.
type proc struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// stopping says what the second stop signal does (nil: nothing).
	stopping *stopping
}

// Exit statuses, the same for every command (docs/cli.md, "Exit status").
const (
	exitOK      = 0
	exitFailure = 1 // refused, not sent, any other error; an activity that FAILED (or, for wait, was REJECTED)
	exitUsage   = 2 // a mistake in how the command was called; for wait, --timeout passed first
	// exitWaitFailed: activity wait ended without learning how the activity
	// ended (a refusal, a bad reply, an interrupt), so that 1 means only
	// FAILED or REJECTED to a script that waits; also a wait --json that
	// saw the end but could print nothing.
	exitWaitFailed = 3
	// exitOutcomeUnknown: a request was sent and no reply said whether the
	// service recorded it. Running the command again is not safe, as it is
	// after 1 (a new request, hence a second activity if the first was
	// recorded): look first.
	exitOutcomeUnknown = 4
)

// usageError marks a mistake in how a command was called (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// Main runs vigil with args (without the program name) on the process's real
// streams and environment, and returns the exit status (exitOK …
// exitOutcomeUnknown). SIGINT, SIGTERM and SIGHUP cancel the running command.
func Main(args []string) int {
	ctx, stop := cancelOnStopSignal(context.Background())
	defer stop()
	// serve, demo and the console clean up as they stop (the store closed,
	// the demo's temporary directory removed, the terminal put back): a
	// second signal cuts their shutdown short rather than skipping it.
	cleans := len(args) == 0 || args[0] == "serve" || args[0] == "demo" || args[0] == "console" || strings.HasPrefix(args[0], "-")
	stopping, stopWatching := watchSecondStopSignal(cleans)
	defer stopWatching()
	// Left to its default, SIGPIPE kills vigil on a write to a closed
	// standard output, after a submit too, and nothing names the activity
	// recorded. Notified (never read), it turns such a write into EPIPE:
	// a submit says on standard error what it recorded (recordedNotPrinted),
	// anything else ends quietly with the status the signal gives (exitCode).
	// Notify, not Ignore: an ignored signal stays ignored in the programs
	// vigil starts.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	defer signal.Reset(syscall.SIGPIPE)
	return run(ctx, proc{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, stopping: stopping}, args)
}

// stopSignals ask vigil to stop. SIGHUP is among them because closing the
// terminal sends it: left to its default it kills the process, skipping
// the cleanup a command does when its context ends (the demo's webhook
// restore, a service's graceful shutdown).
func stopSignals() []os.Signal {
	return []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
}

// cancelOnStopSignal returns a context that ends on the first stopSignals.
func cancelOnStopSignal(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, stopSignals()...)
}

// run dispatches to a subcommand and maps its error to an exit status.
func run(ctx context.Context, c proc, args []string) int {
	secrets := secretArgs(args)
	name := ""
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	var err error
	switch name {
	case "", "console":
		err = cmdConsole(ctx, c, args)
	case "demo":
		err = cmdDemo(ctx, c, args)
	case "serve":
		err = cmdServe(ctx, c, args)
	case "keys":
		err = cmdKeys(ctx, c, args)
	case "stamp":
		err = cmdStamp(ctx, c, args)
	case "proof":
		err = cmdProof(ctx, c, args)
	case "request":
		err = cmdRequest(ctx, c, args)
	case "activity":
		err = cmdActivity(ctx, c, args)
	case "policy":
		err = cmdPolicy(ctx, c, args)
	case "mfa":
		err = cmdMfa(ctx, c, args)
	case "feature":
		err = cmdFeature(ctx, c, args)
	case "login":
		err = cmdLogin(ctx, c, args)
	case "authproxy":
		err = cmdAuthProxy(ctx, c, args)
	case "webhook":
		err = cmdWebhook(ctx, c, args)
	case "user":
		err = cmdUser(ctx, c, args)
	case "apikey":
		err = cmdAPIKey(ctx, c, args)
	case "invitation", "tag", "contract", "wallet-account", "oauth2-credential", "tvc-deployment", "session", "onramp":
		err = cmdOperation(ctx, c, name, args)
	case "version", "--version", "-version":
		err = cmdVersion(c, args)
	case "help", "-h", "--help", "-help":
		err = showHelp(c.stdout, topUsage)
	default:
		if len(name) > 0 && name[0] == '-' {
			// Flags before any subcommand belong to the console.
			all := append([]string{name}, args...)
			err = flagsBeforeVerb(all, cmdConsole(ctx, c, all))
		} else {
			err = usagef("unknown command %s; run 'vigil help' for the list", shownArg(name, "a command"))
		}
	}
	return exitCodeHiding(c.stderr, err, secrets)
}

// commandNames are the top-level commands run dispatches to.
func commandNames() []string {
	return []string{"console", "demo", "serve", "keys", "stamp", "proof", "request", "activity", "policy", "mfa",
		"feature", "login", "authproxy", "webhook", "user", "apikey", "invitation", "tag", "contract",
		"wallet-account", "oauth2-credential", "tvc-deployment", "session", "onramp", "version", "help"}
}

// flagsBeforeVerb adds to the console's usage error for "vigil --profile
// bob activity list" (the banner's "vigil --profile bob" with a verb added)
// what to type instead: flags before any command are the console's, so the
// verb's own flags and arguments were read as the console's.
func flagsBeforeVerb(args []string, err error) error {
	var ue usageError
	if !errors.As(err, &ue) {
		return err
	}
	for i, a := range args {
		if slices.Contains(commandNames(), a) {
			fixed, exposed := []string{"vigil"}, false
			words := append(append([]string{}, args[i:]...), args[:i]...)
			for j, w := range words {
				prev := ""
				if j > 0 {
					prev = words[j-1]
				}
				word, secret := commandLineWord(prev, w)
				fixed, exposed = append(fixed, word), exposed || secret
			}
			if exposed {
				return usagef("%s\nflags given before a command are the console's; give them after the command: %s\n(KEY stands for a word that looks like a private key, not shown; if it is one, treat that key as exposed: it may be in shell history)",
					ue.msg, strings.Join(fixed, " "))
			}
			return usagef("%s\nflags given before a command are the console's; give them after the command: %s",
				ue.msg, strings.Join(fixed, " "))
		}
	}
	return err
}

// exitCode prints err on stderr and returns its exit status: the one an
// *exitStatus carries, exitUsage for a usageError or an inputFileError,
// exitOutcomeUnknown for a request whose outcome is unknown, else exitFailure.
//
// Every error of a command reaches the terminal here, so the message is
// cleaned line by line: a library error wrapped as it is (an x509 or URL
// error quoting what a server sent) cannot act on the terminal. Text the
// verbs already escaped is left as it is, and intended line breaks are kept.
func exitCode(stderr io.Writer, err error) int {
	return exitCodeHiding(stderr, err, nil)
}

// exitCodeHiding is exitCode, with each of secrets (the command line's
// words that look like a private key, secretArgs) described, never quoted,
// in the message.
func exitCodeHiding(stderr io.Writer, err error, secrets []string) int {
	if err == nil || errors.Is(err, errHelpShown) {
		return exitOK
	}
	var es *exitStatus
	if errors.As(err, &es) {
		fmt.Fprintf(stderr, "vigil: %s\n", ui.CleanBlock(hideSecrets(es.msg, secrets)))
		return es.code
	}
	if stdoutClosed(err) {
		// As the default SIGPIPE would end it (vigil activity list | head):
		// quietly, with the status a shell shows for that signal.
		return exitStdoutClosed
	}
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintf(stderr, "vigil: %s\n", ui.CleanBlock(hideSecrets(u.msg, secrets)))
		return exitUsage
	}
	if errors.As(err, new(inputFileError)) {
		// Printed whole: the verb's wrapping names the flag.
		fmt.Fprintf(stderr, "vigil: %s\n", ui.CleanBlock(hideSecrets(err.Error(), secrets)))
		return exitUsage
	}
	fmt.Fprintf(stderr, "vigil: %s\n", ui.CleanBlock(hideSecrets(err.Error(), secrets)))
	if errors.Is(err, api.ErrOutcomeUnknown) {
		// Running the command again would send a new request (a new timestamp),
		// hence a second activity if the first was recorded.
		fmt.Fprintln(stderr, "vigil: look for it with 'vigil activity list --limit 10' before running the command again; a new run is a new activity")
		return exitOutcomeUnknown
	}
	return exitFailure
}

// exitStdoutClosed is the status a shell gives a process killed by SIGPIPE
// (128+13), kept for a write to a standard output whose reader has gone.
const exitStdoutClosed = 141

// stdoutClosed reports whether err is a write to the process's standard
// output whose reader has gone (EPIPE), not a connection's broken pipe.
func stdoutClosed(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Op == "write" && pe.Path == os.Stdout.Name() && errors.Is(pe.Err, syscall.EPIPE)
}

// escapedError is an error whose text came (in part) from the network, shown
// escaped; errors.Is and errors.As still see the error it wraps.
type escapedError struct{ err error }

func (e escapedError) Error() string { return api.Sanitize(e.err.Error()) }
func (e escapedError) Unwrap() error { return e.err }

// errHelpShown is returned by a command that printed its help on -h.
var errHelpShown = errors.New("help shown")

// showHelp prints help text to stdout and returns errHelpShown, or a
// helpUnwritten: help cut short (a full disk, a reader gone) is not done.
func showHelp(stdout io.Writer, text string) error {
	if _, err := io.WriteString(stdout, text); err != nil {
		return helpUnwritten{err}
	}
	return errHelpShown
}

// helpUnwritten is help whose printing failed: exit 1, or 141 for a reader
// gone, as for any result (activity wait too, whose other errors say the
// wait failed).
type helpUnwritten struct{ err error }

func (e helpUnwritten) Error() string { return "print the help: " + e.err.Error() }
func (e helpUnwritten) Unwrap() error { return e.err }

const versionUsage = `Usage: vigil version

Prints vigil's version: the release it was built as, else the module version and the
VCS revision the Go toolchain recorded, and the Go version.
`

func cmdVersion(c proc, args []string) error {
	if err := parseFlagsOnly(c, newFlagSet("version", versionUsage), args); err != nil {
		return err
	}
	_, err := fmt.Fprintf(c.stdout, "vigil %s\n", versionString())
	return err
}

// versionString is the -ldflags version, else the module version and VCS revision
// the Go toolchain recorded (go install …@v1.2.3, or a build in a git checkout).
func versionString() string {
	if version != "dev" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	v := version
	if info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v + " " + info.GoVersion
}

const topUsage = `vigil — a terminal console for organizations on the activity/query service

Usage:
  vigil [console] [--profile NAME] [--config FILE] [--read-only] [--log-file FILE]
                                                        open the console (in a terminal)
  vigil demo [--as NAME] [--data DIR] [--read-only] [--log-file FILE]
                                                        the console on a local demo service
                                                        (NAME: alice, bob, carol or operator)
  vigil serve [--addr HOST:PORT] [--data DIR] [--demo]  run the local service
  vigil keys generate|list|show|import                  manage stamping keys (list --agent: the ssh-agent's)
  vigil stamp --key NAME [--body JSON | --body-file F]  print the X-Stamp for a body (or --verify one)
  vigil proof verify|fetch                              verify enclave boot proofs and app proofs
  vigil request --path P (--body JSON | --body-file F)  send a raw stamped request (or --stamp-only)
  vigil activity list|get|approve|reject|wait|evaluations|proofs
                                                        activities and votes
  vigil policy list|get|create|check|simulate           policies (simulate: a draft against an activity)
  vigil mfa list|get|create|status                      MFA policies
  vigil feature list|set                                organization features
  vigil user list|get                                   users
  vigil apikey get|delete                               API keys
  vigil invitation create, tag create, contract create, wallet-account delete,
  vigil oauth2-credential update, tvc-deployment delete, session create-read-only,
  vigil onramp status                                   the remaining operations
  vigil login oauth-nonce --target-key FILE            make a sign-in's target key; print its nonce
  vigil login oauth --provider-token FILE|-            sign in with an OIDC token; save the API key
  vigil authproxy config [--json]                       the auth proxy's login-kit configuration
  vigil webhook listen|verify|keys                      receive and verify signed webhook deliveries
  vigil version                                         print the version
  vigil help                                            this text

Every command takes -h for its flags and examples ('vigil console -h' for the console's).
`
