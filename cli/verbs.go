package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// Shared plumbing of the verbs that talk to the service (request, activity,
// policy, mfa, feature, user, apikey and the single-operation verbs): one
// dispatcher for verb groups, one way from a profile to a client, one confirm
// prompt and one secret prompt.

// subcommand is one verb of a group, e.g. "list" of "vigil activity".
type subcommand struct {
	name string
	run  func(ctx context.Context, c proc, args []string) error
}

// runGroup dispatches "vigil GROUP VERB args…"; usage lists the verbs.
func runGroup(ctx context.Context, c proc, group, usage string, verbs []subcommand, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usage)
		return usagef("%s needs a subcommand; run 'vigil %s -h'", group, group)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		return showHelp(c.stdout, usage)
	}
	names := make([]string, 0, len(verbs))
	for _, v := range verbs {
		if v.name == args[0] {
			return v.run(ctx, c, args[1:])
		}
		names = append(names, v.name)
	}
	return usagef("unknown %s subcommand %s; use %s", group, shownArg(args[0], "a subcommand"), strings.Join(names, ", "))
}

// connFlags are the flags of every verb that uses a profile.
type connFlags struct {
	profile   string
	config    string
	json      bool
	appProofs bool
}

// register adds --profile and --config, and --json when the verb prints records.
func (f *connFlags) register(fs *flag.FlagSet, withJSON bool) {
	fs.StringVar(&f.profile, "profile", "", "config profile `NAME` (default $VIGIL_PROFILE, then default_profile)")
	fs.StringVar(&f.config, "config", "", "config `FILE` (default $VIGIL_CONFIG, then $XDG_CONFIG_HOME/vigil/config.toml)")
	if withJSON {
		fs.BoolVar(&f.json, "json", false, "print the service's reply as JSON, values exactly as sent")
	}
}

// newSubmitFlags is the flag set of a submit verb: --profile, --config, --json
// and --app-proofs.
func newSubmitFlags(name, usage string) (*flag.FlagSet, *connFlags) {
	fs := newFlagSet(name, usage)
	conn := &connFlags{}
	conn.register(fs, true)
	fs.BoolVar(&conn.appProofs, "app-proofs", false, "ask the service for app proofs of the activity ('vigil activity proofs ID' lists them)")
	return fs, conn
}

// submitOptions are the options the flags ask for.
func (f *connFlags) submitOptions() []api.SubmitOption {
	if f.appProofs {
		return []api.SubmitOption{api.WithAppProofs()}
	}
	return nil
}

// client builds the profile's client, stamping with the profile's key, with
// opts added to its options.
func (f *connFlags) client(c proc, opts ...api.Option) (*api.Client, Profile, error) {
	return profileClient(c, f.config, f.profile, opts...)
}

// submitClient is client for verbs that submit: a read-only profile has no
// submits at all.
func (f *connFlags) submitClient(c proc) (*api.Client, Profile, error) {
	client, p, err := f.client(c)
	if err == nil && p.ReadOnly {
		return nil, p, fmt.Errorf("profile %q is read-only (read_only = true): it cannot submit; use a profile that may", p.Name)
	}
	return client, p, err
}

// profileClient is the one way from a profile to a client: the config from
// configPath, else $VIGIL_CONFIG, else the default path; the profile by name,
// else $VIGIL_PROFILE, else default_profile; its key as the stamper. opts
// are added to the client's options.
func profileClient(c proc, configPath, profileName string, opts ...api.Option) (*api.Client, Profile, error) {
	p, err := loadProfile(c, configPath, profileName)
	if err != nil {
		return nil, p, err
	}
	stamper, err := profileStamper(p, c.getenv)
	if err != nil {
		return nil, p, err
	}
	client, err := api.NewClient(p.BaseURL, p.OrganizationID, stamper,
		append([]api.Option{api.WithUserAgent("vigil/" + version), listReplyBound(p), api.WithRetryNotice(retryNotice(c.stderr))}, opts...)...)
	if err != nil {
		return nil, p, fmt.Errorf("profile %q: %w", p.Name, err)
	}
	return client, p, nil
}

// retryNotice says on stderr, one line per retry, that a query failed and is
// asked again, so that a slow or rate-limited service is not waited out in
// silence (docs/cli.md, "Retries and time limits").
func retryNotice(stderr io.Writer) func(api.RetryNotice) {
	return func(n api.RetryNotice) {
		why := n.Err.Error()
		var apiErr *api.Error
		if errors.As(n.Err, &apiErr) {
			why = apiErr.Unadvised() // its advice ("try again later") is what the retry does
		}
		why = strings.TrimPrefix(why, n.Operation+": ")
		fmt.Fprintf(stderr, "vigil: %s: %s; retrying in %s (attempt %d of %d)\n",
			n.Operation, api.Sanitize(why), n.Wait.Round(100*time.Millisecond), n.Next, n.Max)
	}
}

// listReplyBound is the profile's bound of unpaged list replies
// (max_list_reply_mib), named in the error of a list over it.
func listReplyBound(p Profile) api.Option {
	n := int64(api.DefaultMaxListReplyBytes)
	if p.MaxListReplyMiB != nil {
		n = *p.MaxListReplyMiB << 20
	}
	return api.WithMaxListReplyBytes(n, p.ListReplySetting())
}

// oneArg returns the single positional argument a verb takes, or a usage error
// naming what it is; one that looks like a private key is refused before
// anything is sent.
func oneArg(cmd, what string, pos []string) (string, error) {
	arg, err := oneFreeArg(cmd, what, pos)
	if err != nil {
		return "", err
	}
	if keys.HasSecretToken(arg) {
		// Ids are UUIDs or names: a key pasted as one would be sent, and
		// logged by the service and every proxy on the way.
		return "", usagef("%s takes the %s, and nothing was sent: the value given is %s", cmd, what, keys.SecretArg(arg, "the "+what))
	}
	return arg, nil
}

// oneFreeArg is oneArg for an id of any form the service or a provider
// chose (SPEC.md: a string): long hex may be such an id, so it is sent.
func oneFreeArg(cmd, what string, pos []string) (string, error) {
	switch {
	case len(pos) == 0:
		return "", usagef("%s takes one argument, the %s, and none was given; run 'vigil %s -h'", cmd, what, cmd)
	case len(pos) > 1:
		return "", usagef("%s takes one argument, the %s, and %d were given (%s); give only the %s (flags may go before or after it); run 'vigil %s -h'",
			cmd, what, len(pos), givenArgs(pos, what), what, cmd)
	case strings.TrimSpace(pos[0]) == "":
		return "", usagef("%s takes one argument, the %s, and the one given is blank (%q); run 'vigil %s -h'", cmd, what, pos[0], cmd)
	}
	return pos[0], nil
}

// givenArgs lists arguments for a usage error, each as shownArg shows it,
// the first three only.
func givenArgs(pos []string, what string) string {
	const most = 3
	var shown []string
	for _, arg := range pos[:min(len(pos), most)] {
		shown = append(shown, shownArg(arg, "the "+what))
	}
	list := strings.Join(shown, ", ")
	if len(pos) > most {
		list += fmt.Sprintf(" and %d more", len(pos)-most)
	}
	return list
}

// stdinTerminal returns standard input's descriptor when it is a terminal.
func stdinTerminal(c proc) (uintptr, bool) {
	f, ok := c.stdin.(*os.File)
	if !ok || f == nil {
		return 0, false
	}
	return f.Fd(), term.IsTerminal(f.Fd())
}

// signedFor names what a signed body carries that no parameter shows: the
// organization it is for and the profile whose key stamps it, for a prompt
// to show with the parameters.
func signedFor(client *api.Client, prof Profile) string {
	return fmt.Sprintf("organization %s, with profile %s (key %s)",
		api.SanitizeID(client.OrganizationID()), api.Quote(prof.Name), api.Quote(prof.Key))
}

// envelopeDetails are a submit prompt's last lines: whether the body asks
// for app proofs (--app-proofs, a parameter of the body too) and signedFor.
func envelopeDetails(client *api.Client, prof Profile, conn *connFlags) string {
	lines := ""
	if conn.appProofs {
		lines += "app proofs: the service is asked to generate them (--app-proofs)\n"
	}
	return lines + "for: " + signedFor(client, prof)
}

// givenIDShown is an id given to a deleting verb as its prompt shows it:
// escaped (api.SanitizeID), and quoted when it holds a comma, a space or a
// quote, so that one id "A, B" never reads as the two ids A and B of a list
// joined with ", " (givenIDsShown), nor as an id followed by other words.
func givenIDShown(id string) string {
	if s := api.SanitizeID(id); s != id || !strings.ContainsAny(id, ", \"") {
		return s
	}
	return api.Quote(id)
}

// givenIDsShown lists ids as a prompt shows them, each as givenIDShown shows it.
func givenIDsShown(ids []string) string {
	shown := make([]string, len(ids))
	for i, id := range ids {
		shown[i] = givenIDShown(id)
	}
	return strings.Join(shown, ", ")
}

// promptScreen is the size of the terminal a prompt is read on: standard
// error's, where it is written; the classic 24 lines of 80 columns when
// that is not a terminal or its size is unknown.
func promptScreen(c proc) (rows, cols int) {
	if f, ok := c.stderr.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if w, h, err := term.GetSize(f.Fd()); err == nil && w > 0 && h > 0 {
			return h, w
		}
	}
	return 24, 80
}

// screenRows is how many rows text takes on a terminal cols wide, which
// wraps each line longer than that.
func screenRows(text string, cols int) int {
	rows := 0
	for line := range strings.SplitSeq(text, "\n") {
		rows += max(1, (ansi.StringWidth(line)+cols-1)/cols)
	}
	return rows
}

// errNotConfirmed is returned when the user answers no.
var errNotConfirmed = errors.New("not confirmed; nothing was sent")

// confirm shows what is about to happen on standard error and asks for "y". With
// yes it proceeds without asking; without a terminal it refuses, so a script
// never acts on something nobody saw.
func confirm(ctx context.Context, c proc, yes bool, question, details string) error {
	if yes {
		return nil
	}
	fd, ok := stdinTerminal(c)
	if !ok {
		// question is a title ("Approve this activity"): said as "to approve …".
		return usagef("nothing was sent: to %s vigil asks you to confirm, and standard input is not a terminal; pass --yes to confirm without asking, or run it in a terminal", strings.ToLower(question[:1])+question[1:])
	}
	// A "y" typed before the question appeared (while vigil fetched what it
	// shows) must not answer it: discard it, as the console's dialogs ignore
	// keys pressed before they are drawn. Best effort: where it fails, the
	// answer is still read from the terminal.
	_ = flushInput(fd)
	answer := make(chan error, 1)
	go func() { answer <- askYes(c.stdin, c.stderr, question, details) }()
	select {
	case err := <-answer:
		return err
	case <-ctx.Done():
		fmt.Fprintln(c.stderr)
		return errNotConfirmed
	}
}

// askYes prints details and the question and reads one line; only y or yes
// proceeds.
func askYes(in io.Reader, out io.Writer, question, details string) error {
	fmt.Fprintf(out, "%s\n%s? [y/N] ", strings.TrimRight(details, "\n"), question)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		return errNotConfirmed
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return errNotConfirmed
}

// maxSecret bounds a secret read from standard input.
const maxSecret = 64 << 10

// readSecret reads a secret: typed at a prompt with echo off on a terminal,
// else standard input up to its end (one trailing newline is dropped). It is
// never an argument, so it stays out of shell history and process listings.
func readSecret(ctx context.Context, c proc, prompt string) ([]byte, error) {
	if fd, ok := stdinTerminal(c); ok {
		return readHidden(ctx, c, fd, prompt)
	}
	if c.stdin == nil {
		return nil, usagef("%s: standard input is empty; pipe the secret in or run on a terminal", prompt)
	}
	b, err := readStopping(ctx, c, c.stdin, "standard input", prompt, maxSecret)
	if err != nil {
		return nil, err
	}
	if len(b) > maxSecret {
		return nil, usagef("%s on standard input is over %d KiB; is that the right input? Pipe in only the secret", prompt, maxSecret>>10)
	}
	b = []byte(strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"))
	if len(b) == 0 {
		return nil, usagef("%s: standard input is empty; pipe the secret in or run on a terminal", prompt)
	}
	return b, nil
}

// queryVerb is a verb that reads: flags, at most one argument, the profile's
// client, then either the service's reply as sent (--json) or a display for
// people. Every read verb is one of these, so they behave alike.
type queryVerb struct {
	name  string // "policy get"
	usage string
	arg   string // what the one argument is ("policy id"); "" when it takes none
	// freeForm: the argument is an id another party chose in any form (an
	// on-ramp provider's transaction id), which may be long hex: it is not
	// refused as a pasted key (oneFreeArg).
	freeForm bool
	flags    func(fs *flag.FlagSet)
	check    func(given map[string]bool) error // checks the flags' values (given: the flags set) before any profile is loaded
	raw      func(ctx context.Context, client *api.Client, arg string) (json.RawMessage, error)
	show     func(ctx context.Context, c proc, client *api.Client, arg string) error
	// exact gives show a client that keeps strings as sent
	// (api.WithExactStrings), for a display that checks signed bytes; show
	// must then escape everything it prints itself.
	exact bool
}

func (v queryVerb) run(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet(v.name, v.usage)
	var conn connFlags
	conn.register(fs, true)
	if v.flags != nil {
		v.flags(fs)
	}
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	arg, what := "", v.name
	if v.arg != "" {
		take := oneArg
		if v.freeForm {
			take = oneFreeArg
		}
		if arg, err = take(v.name, v.arg, pos); err != nil {
			return err
		}
		what += " " + api.SanitizeID(arg)
	} else if len(pos) > 0 {
		return usagef("%s takes no arguments (got %s); run 'vigil %s -h'", v.name, strayArgs(pos), v.name)
	}
	if v.check != nil {
		if err := v.check(visited(fs)); err != nil {
			return err
		}
	}
	var opts []api.Option
	if v.exact {
		opts = append(opts, api.WithExactStrings())
	}
	client, _, err := conn.client(c, opts...)
	if err != nil {
		return err
	}
	if conn.json {
		raw, err := v.raw(ctx, client, arg)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return writeJSON(c.stdout, raw)
	}
	if err := v.show(ctx, c, client, arg); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// readHidden reads a line on the terminal with echo off. Ctrl-C (ctx) and
// Ctrl-\ give up at once and put the terminal back as it was; Ctrl-Z stops
// vigil as it stops any program, and on 'fg' the input is hidden again and
// the prompt repeated (hiddenReadSignals). readHidden alone changes the
// terminal: the reader only reads.
func readHidden(ctx context.Context, c proc, fd uintptr, prompt string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		// Stopped before the prompt: the terminal stays as it is.
		return nil, fmt.Errorf("read %s: %w; nothing was sent", prompt, err)
	}
	state, err := term.GetState(fd)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", prompt, err)
	}
	// Put back even if a second stop signal ends vigil at once, before the
	// read can return.
	defer c.stopping.lastResort(func() { term.Restore(fd, state) })()
	// Hidden before the prompt says so; put back as it was however the read
	// ends.
	if err := echoOff(fd); err != nil {
		return nil, fmt.Errorf("read %s: turn the terminal's echo off: %w", prompt, err)
	}
	defer term.Restore(fd, state)
	sigs := make(chan os.Signal, 1)
	if handled := hiddenReadSignals(); len(handled) > 0 { // none: Notify would take every signal
		signal.Notify(sigs, handled...)
		defer signal.Stop(sigs)
	}
	fmt.Fprintf(c.stderr, "%s (input hidden): ", prompt)
	type result struct {
		b   []byte
		err error
	}
	got := make(chan result, 1)
	go func() {
		b, err := readTypedLine(fd)
		got <- result{b, err}
	}()
	for {
		select {
		case r := <-got:
			fmt.Fprintln(c.stderr)
			if r.err != nil {
				return nil, fmt.Errorf("read %s: %w", prompt, r.err)
			}
			return r.b, nil
		case <-ctx.Done():
			term.Restore(fd, state)
			fmt.Fprintln(c.stderr)
			return nil, fmt.Errorf("read %s: %w; nothing was sent", prompt, ctx.Err())
		case sig := <-sigs:
			if isQuitSignal(sig) {
				term.Restore(fd, state)
				fmt.Fprintln(c.stderr)
				return nil, fmt.Errorf("read %s: stopped by Ctrl-\\ (SIGQUIT); nothing was sent", prompt)
			}
			// Continued after a stop: the shell turned echo back on.
			if err := echoOff(fd); err != nil {
				return nil, fmt.Errorf("read %s: turn the terminal's echo off again after a stop: %w", prompt, err)
			}
			fmt.Fprintf(c.stderr, "%s (input hidden): ", prompt)
		}
	}
}
