package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/ui/theme"
)

const consoleUsage = `Usage: vigil [--profile NAME] [--config FILE] [--read-only] [--log-file FILE]

Opens the console on a profile of the config file
(--config, else $VIGIL_CONFIG, else $XDG_CONFIG_HOME/vigil/config.toml). Keys: ? shows them all.

Examples:
  vigil                              the default profile
  vigil --profile prod --read-only   look, never vote
  vigil demo                         a local demo organization, no setup

Flags:
`

// noConfigHelp is what a first run without any config says.
const noConfigHelp = `no config file at %s.

To try vigil with nothing to set up, run a local demo organization:
  vigil demo

To connect to your organization:
  1. vigil keys generate NAME     (then register the printed public key as an API key of your user)
  2. write %s with a profile, e.g.
       [profiles.prod]
       base_url = "https://api.example.com"
       organization_id = "..."
       key = "NAME"
  3. vigil --profile prod         (--config FILE reads a config kept elsewhere)`

func cmdConsole(ctx context.Context, c proc, args []string) error {
	fset := newFlagSet("console", consoleUsage)
	profile := fset.String("profile", "", "profile to use (default $VIGIL_PROFILE, else default_profile)")
	config := fset.String("config", "", "config file (default $VIGIL_CONFIG, then $XDG_CONFIG_HOME/vigil/config.toml)")
	readOnly := fset.Bool("read-only", false, "disable every submit (votes included)")
	logFile := fset.String("log-file", "", "append logs to FILE (default: no logs)")
	if err := parseFlagsOnly(c, fset, args); err != nil {
		return err
	}
	if err := needTerminal(c); err != nil {
		return err
	}
	p, err := loadProfile(c, *config, *profile)
	if err != nil {
		return err
	}
	logger, closeLog, err := openLog(*logFile)
	if err != nil {
		return err
	}
	defer closeLog()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	feed, err := consoleWebhookFeed(ctx, p, logger)
	if err != nil {
		return err
	}
	root, err := consoleModelWith(p, *readOnly, c.getenv, logger, consoleWebhooks{feed: feed}, demoSide{})
	if err != nil {
		return err
	}
	return runProgram(ctx, c, root, logger)
}

// consoleModel builds the console for a profile: its stamper, client, read-only
// wrapper and theme.
func consoleModel(p Profile, readOnly bool, getenv func(string) string, logger *slog.Logger) (*screens.Root, error) {
	return consoleModelWith(p, readOnly, getenv, logger, consoleWebhooks{}, demoSide{})
}

// consoleWebhooks is what the Webhooks screen shows: the deliveries of the
// console's listener, or (feed nil) why it has none ("" = the default advice).
type consoleWebhooks struct {
	feed    *screens.WebhookFeed
	noneWhy string
}

// demoSide is what a console opened by 'vigil demo' says that a profile's
// console does not; the zero value for a profile's.
type demoSide struct {
	// cliNote says how long the CLI commands the console suggests work ("" =
	// always; a demo's temporary config is removed at exit).
	cliNote string
	// unreachable is what to do when the service refuses connections ("":
	// check the profile's base_url): a demo that joined another's service
	// has lost it when that demo ended, and its profile is not the user's.
	unreachable string
}

// consoleModelWith is consoleModel with the console's webhook listener, and
// what a demo's console says (demo).
func consoleModelWith(p Profile, readOnly bool, getenv func(string) string, logger *slog.Logger, hooks consoleWebhooks, demo demoSide) (*screens.Root, error) {
	if _, ok := theme.AccentColor(p.Color); p.Color != "" && !ok {
		return nil, fmt.Errorf("profile %q: color %q is not a colour: use a name (red, green, yellow, blue, magenta, cyan, orange, purple, pink), an ANSI number 0-255 or #rrggbb", p.Name, p.Color)
	}
	proofs, err := profileProofSettings(p)
	if err != nil {
		return nil, err
	}
	// --read-only stamps as a read-only profile does: no body of an activity.
	p.ReadOnly = p.ReadOnly || readOnly
	stamper, err := profileStamper(p, getenv)
	if err != nil {
		return nil, err
	}
	// Exact strings: the screens escape every server string when they render it
	// (ui.Clean), the same way wherever it shows, including inside intent JSON;
	// escaping at decode too would show a zero-width space as \\u200b there.
	opts := []api.Option{api.WithUserAgent("vigil/" + version), api.WithExactStrings(), listReplyBound(p)}
	hasProxy := p.AuthProxyURL != "" && p.AuthProxyConfigID != ""
	if hasProxy {
		opts = append(opts, api.WithAuthProxy(p.AuthProxyURL, p.AuthProxyConfigID))
	}
	if demo.unreachable != "" {
		opts = append(opts, api.WithUnreachableAdvice(demo.unreachable))
	}
	client, err := api.NewClient(p.BaseURL, p.OrganizationID, stamper, opts...)
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", p.Name, err)
	}
	// The Organization screen shows the login kit when there is an auth proxy.
	var loginKit screens.LoginKitSource
	if hasProxy {
		loginKit = client.WalletKitConfig
	}
	// Read-only mode has no submitter at all: the console holds nothing that can
	// submit, whatever a screen tries.
	var submitter screens.Submitter = client
	if readOnly || p.ReadOnly {
		submitter = nil
	}
	logger.Info("console start", "profile", p.Name, "base_url", p.BaseURL,
		"organization", p.OrganizationID, "read_only", readOnly || p.ReadOnly)
	filters, err := savedFilters(p)
	if err != nil {
		return nil, fmt.Errorf("profile %q: filters: %w", p.Name, err)
	}
	root := screens.NewRoot(screens.Options{
		Reader:              client,
		Clock:               client, // times are judged by the service's clock
		Submitter:           submitter,
		Profile:             p.Name,
		Theme:               theme.Options{Dark: true, NoColor: colourless(getenv), Accent: p.Color},
		Refresh:             p.Refresh.Duration,
		Logger:              logger,
		Proofs:              proofs,
		Mouse:               p.MouseOn(),
		Notify:              p.Notify,
		SavedFilters:        filters,
		KeyKind:             stamperKindLabel(stamper),
		LoginKit:            loginKit,
		Webhooks:            hooks.feed,
		NoWebhooksHint:      hooks.noneWhy,
		AuthProxyURL:        p.AuthProxyURL,
		TLSFetcherPublicKey: p.TLSFetcherPublicKey,
		PublicKey:           stamperPublicKey(stamper),
		Scheme:              stamperScheme(stamper),
		ConfigPath:          p.ConfigPath,
		CLIProfileNote:      demo.cliNote,
	})
	if err := root.Rebind(p.Keys); err != nil {
		return nil, fmt.Errorf("profile %q: keys: %w", p.Name, err)
	}
	return root, nil
}

// colourless reports whether the console must draw without colour: NO_COLOR
// with any value, or a terminal that shows none (TERM=dumb, or a terminfo
// monochrome entry, xterm-mono, vt100-m), where a selection drawn as a
// background colour would not show at all.
func colourless(getenv func(string) string) bool {
	t := getenv("TERM")
	return getenv("NO_COLOR") != "" || t == "dumb" || strings.HasSuffix(t, "-mono") || strings.HasSuffix(t, "-m")
}

// runProgram runs the console until the user quits or ctx ends.
func runProgram(ctx context.Context, c proc, root *screens.Root, logger *slog.Logger) error {
	// Without Bubble Tea's signal handler: ctx already ends on SIGINT, SIGTERM
	// and SIGHUP (cancelOnStopSignal). Both handlers taking one SIGTERM left
	// Bubble Tea's blocked for good on a message nobody read once ctx had ended
	// the program, and Run waiting for it: the process hung, the demo's
	// temporary directory stayed behind.
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}
	if root.ThemeOptions().NoColor {
		// Without colour, the selected row, the active tab and the focused
		// button are told apart by reverse video and bold alone: keep them
		// even where Bubble Tea would strip every style (TERM=dumb).
		opts = append(opts, tea.WithColorProfile(colorprofile.ASCII))
	}
	if c.stdin != os.Stdin {
		opts = append(opts, tea.WithInput(c.stdin))
	}
	if c.stdout != os.Stdout {
		// Not the terminal (tests, pipes): nobody reports a size, so assume 80×24.
		opts = append(opts, tea.WithOutput(c.stdout), tea.WithWindowSize(80, 24))
	}
	// Bubble Tea puts the terminal back as the program ends; should that
	// hang past a second stop signal, its modes (raw input) are put back
	// before the process exits.
	if c.stdin == os.Stdin && term.IsTerminal(os.Stdin.Fd()) {
		if state, err := term.GetState(os.Stdin.Fd()); err == nil {
			defer c.stopping.lastResort(func() { term.Restore(os.Stdin.Fd(), state) })()
		}
	}
	start := time.Now()
	_, err := tea.NewProgram(root, opts...).Run()
	logger.Info("console stop", "after", time.Since(start).Round(time.Millisecond).String())
	// Quit (ctrl+c, or q confirmed) with a submit in flight: its outcome is
	// unknown, so say which it was and how to learn it, once the screen is
	// back to the terminal's.
	for _, s := range root.InFlight() {
		fmt.Fprintf(c.stderr, "vigil: the console quit while %s was in flight; its outcome is unknown: check with '%s'\n", s.What, s.Check)
		logger.Warn("quit with a submit in flight", "what", s.What)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted by a signal: a normal way to leave
	}
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	return nil
}
