package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vigil-console/vigil/internal/logtext"
	"github.com/vigil-console/vigil/internal/shellword"
	"github.com/vigil-console/vigil/server"
)

const demoUsage = `Usage: vigil demo [--as alice|bob|carol|operator] [--data DIR] [--read-only] [--log-file FILE]

Starts the local service in this process on 127.0.0.1 (a random port), seeds a demo
organization (3 root users with a 2-of-3 quorum, an operator, policies, features,
pending activities) and opens the console as one member.

Without --data the data lives in a temporary directory removed at exit. With
--data, a second terminal running 'vigil demo --data DIR --as bob' joins the
first terminal's service as another member of the same organization, so you
can approve what the other started. The service stops when the first
terminal's demo ends; the second then says so, and how to join again.

Flags:
`

func cmdDemo(ctx context.Context, c proc, args []string) error {
	fset := newFlagSet("demo", demoUsage)
	as := fset.String("as", "alice", "member to be: alice, bob, carol or operator")
	data := fset.String("data", "", "data directory to keep (default: a temporary one, removed at exit)")
	readOnly := fset.Bool("read-only", false, "disable every submit (votes included)")
	logFile := fset.String("log-file", "", "append logs (console and service) to FILE (default: no logs)")
	if err := parseFlagsOnly(c, fset, args); err != nil {
		return err
	}
	if *data != "" {
		if err := checkDataDirFlag("demo", *data); err != nil {
			return err
		}
	}
	if err := needTerminal(c); err != nil {
		return err
	}
	logger, closeLog, err := openLog(*logFile)
	if err != nil {
		return err
	}
	defer closeLog()
	// The seeding opens the data directory first and runs any schema
	// upgrade: where the copy of the database from before it is, and what
	// it removed, is told on stderr too, before the console takes the
	// screen, and is still there once it exits.
	seedLog := slog.New(slog.NewMultiHandler(logger.Handler(), logtext.NewText(c.stderr, nil).Handler()))
	env, err := startDemo(ctx, *data, logger, seedLog)
	if err != nil {
		return err
	}
	// A second stop signal cuts the close short (requests in flight, the
	// webhook restore, deliveries); the temporary directory, private keys
	// among it, is still removed, by the close or, should it hang, last.
	if env.temp {
		defer c.stopping.lastResort(func() { os.RemoveAll(env.dir) })()
	}
	defer env.CloseContext(c.stopping.hurryCtx())
	if env.note != "" {
		// Before the console takes the screen; still there once it exits.
		fmt.Fprintf(c.stderr, "note: %s\n", env.note)
		logger.Info("demo config", "note", env.note)
	}
	if !slices.Contains(env.members, *as) {
		return usagef("demo: --as %q is not a member; choose one of %v", *as, env.members)
	}
	p, err := loadProfile(c, env.configPath, *as)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop() // before env.Close: the listener stops first
	hooks, err := env.webhooks(ctx, logger)
	if err != nil {
		return err
	}
	root, err := consoleModelWith(p, *readOnly, c.getenv, logger, hooks, env.consoleSide(*as))
	if err != nil {
		return err
	}
	return runProgram(ctx, c, root, logger)
}

// webhooks receives the demo organization's webhook deliveries for the
// Webhooks screen: a listener on a random 127.0.0.1 port, which the
// organization's webhook points at until the demo ends. Delivery starts only
// then (startDemo holds it): events left pending for the previous run's
// port, which may be some other program's now, go to this listener instead.
// A demo that joined another's service has none: deliveries go to that demo.
func (d *demoEnv) webhooks(ctx context.Context, logger *slog.Logger) (consoleWebhooks, error) {
	if d.srv == nil {
		joined := "no webhook listener here: this demo joined the service of " + d.holderName() + " on " + shownPath(d.dir)
		if d.holder != server.HolderDemo {
			// vigil serve listens for no deliveries: it sends them, to
			// wherever the organization's webhook points.
			return consoleWebhooks{noneWhy: joined + ", which sends the deliveries to the organization's WEBHOOK URL (vigil feature list); receive them with vigil webhook listen"}, nil
		}
		return consoleWebhooks{noneWhy: joined + ", which receives the deliveries"}, nil
	}
	feed, err := consoleWebhookFeed(ctx, Profile{Name: "demo", BaseURL: d.baseURL, OrganizationID: d.info.OrganizationID, WebhookListen: "127.0.0.1:0"}, logger)
	if err != nil {
		return consoleWebhooks{}, fmt.Errorf("demo: %w", err)
	}
	if d.restoreWebhook, err = server.PointDemoWebhook(ctx, d.srv, "http://"+feed.Addr+"/"); err != nil {
		return consoleWebhooks{}, fmt.Errorf("demo: %w", err)
	}
	d.srv.StartWebhooks()
	return consoleWebhooks{feed: feed}, nil
}

// consoleSide is what the console of member as says about this demo.
func (d *demoEnv) consoleSide(as string) demoSide {
	var side demoSide
	if d.temp {
		side.cliNote = "while this demo runs (its data directory is removed at exit)"
	}
	if d.srv == nil {
		side.unreachable = d.joinedUnreachable(as)
	}
	return side
}

// holderName names what serves d.dir, for a demo that joined it.
func (d *demoEnv) holderName() string {
	switch d.holder {
	case server.HolderDemo:
		return "the first 'vigil demo'"
	case server.HolderServe:
		return "the 'vigil serve'"
	}
	return "another vigil" // an older vigil, which did not record which
}

// joinedUnreachable is what the console of member as, which joined the
// service another process runs on d.dir, says when nothing answers there;
// its profile's base_url is not the user's to check. One line (the client
// refuses a line break in it): the directory is escaped as in other
// messages, should its name hold a newline.
func (d *demoEnv) joinedUnreachable(as string) string {
	dir := shownPath(d.dir)
	rejoin := fmt.Sprintf("vigil demo --data %s --as %s", shownWord(d.dir), shellword.Quote(as))
	switch d.holder {
	case server.HolderDemo:
		// A restart of that demo serves on another port, which this
		// console never learns.
		return fmt.Sprintf("the first 'vigil demo' on %s, whose service this console joined, has ended and its service with it: quit, then run: %s (it joins the demo running there, or starts the service)", dir, rejoin)
	case server.HolderServe:
		// Restarted with the same --addr, it answers here again.
		return fmt.Sprintf("the 'vigil serve' on %s, whose service this console joined, is not answering: start it again and refresh (r); if it now serves on another address, quit, then run: %s", dir, rejoin)
	default: // an older vigil holds the directory, and did not say which
		return fmt.Sprintf("the service on %s that this console joined is not answering: if it was a 'vigil serve', start it again and refresh (r); if a 'vigil demo' that ended, quit, then run: %s", dir, rejoin)
	}
}

// demoEnv is a local service running in this process on a seeded data
// directory, or (joined) the service another 'vigil demo' runs on it.
type demoEnv struct {
	dir        string
	temp       bool
	configPath string
	baseURL    string
	members    []string          // profile names in config.toml, one per member
	holder     server.HolderKind // when joined: which command serves d.dir
	lock       *server.DataDirLock
	info       *server.DemoInfo // nil when joined
	note       string           // what prepareDemo kept aside, for the user
	srv        *server.Server   // nil when joined
	// restoreWebhook puts back the organization's webhook URL (webhookFeed).
	restoreWebhook func(context.Context) error
	httpSrvs       []*http.Server
	conns          freshConns
	running        inFlight
	log            *slog.Logger
}

// freshConns tracks connections on which no request has started yet. The
// console's HTTP client may leave such a connection open (dialed for a
// request that another connection served); Shutdown treats it as busy for 5 s,
// which stalled every exit of 'vigil demo'. The console is gone when the demo
// closes, so these are closed at once.
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func (f *freshConns) track(c net.Conn, st http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if st != http.StateNew {
		delete(f.conns, c)
		return
	}
	if f.conns == nil {
		f.conns = map[net.Conn]struct{}{}
	}
	f.conns[c] = struct{}{}
}

func (f *freshConns) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		c.Close()
	}
}

// startDemo listens on two random 127.0.0.1 ports (service and auth proxy), seeds
// the demo organization in dataDir (a temporary directory when "") and serves it.
// seedLog hears the seeding's open of dataDir, which runs any schema upgrade
// (prepareDemo), logger the service after it.
func startDemo(ctx context.Context, dataDir string, logger, seedLog *slog.Logger) (_ *demoEnv, err error) {
	env := &demoEnv{dir: dataDir, log: logger}
	defer func() {
		if err != nil {
			env.Close()
		}
	}()
	if dataDir == "" {
		if env.dir, err = os.MkdirTemp("", "vigil-demo-"); err != nil {
			return nil, fmt.Errorf("demo: temporary directory: %w", err)
		}
		env.temp = true
	}
	env.configPath = filepath.Join(env.dir, "config.toml")
	env.lock, err = server.LockDataDir(env.dir)
	if errors.Is(err, server.ErrDataDirInUse) && !env.temp {
		return env, env.join(ctx, err)
	}
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	ln, pln, err := listenAfter("127.0.0.1:0", "127.0.0.1:0", func(baseURL, proxyURL string) error {
		var err error
		env.baseURL = baseURL
		env.info, env.note, err = prepareDemo(ctx, env.lock, baseURL, proxyURL, seedLog)
		return err
	})
	if err != nil {
		return nil, err
	}
	proxyURL := serviceURL(pln.Addr())
	for _, m := range env.info.Members {
		env.members = append(env.members, m.Name)
	}
	// Webhook delivery waits for webhooks, which points the organization's
	// webhook and the previous run's pending events at this run's listener.
	if env.srv, err = server.Open(server.Config{DataDir: env.dir, Logger: logger, Lock: env.lock, HoldWebhooks: true}); err != nil {
		ln.Close()
		pln.Close()
		return nil, fmt.Errorf("demo: open service: %w", err)
	}
	errLog := slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	for _, s := range []struct {
		ln net.Listener
		h  http.Handler
	}{{ln, env.srv.Handler()}, {pln, env.srv.AuthProxyHandler()}} {
		hs := newHTTPServer(env.running.wrap(s.h), errLog)
		hs.ConnState = env.conns.track
		env.httpSrvs = append(env.httpSrvs, hs)
		go hs.Serve(limitConns(hs, s.ln))
	}
	// Last: a second 'vigil demo' on this directory joins once it sees the
	// URL, and config.toml is written by then.
	if err := env.lock.Serving(env.baseURL, server.HolderDemo); err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	logger.Info("demo service listening", "url", env.baseURL, "auth_proxy", proxyURL, "data", env.dir)
	return env, nil
}

// demoJoinWait bounds how long a second demo waits for the first one, still
// seeding, to start serving.
const demoJoinWait = 10 * time.Second

// join makes d the console side of the demo another process serves on d.dir
// (inUse says which): config.toml there has a profile per member pointing at
// that service, once the holder has recorded where it serves.
func (d *demoEnv) join(ctx context.Context, inUse error) error {
	deadline := time.Now().Add(demoJoinWait)
	for {
		url, holder := server.Holder(d.dir)
		if url != "" {
			d.holder = holder
			cfg, err := loadConfig(d.configPath)
			if err != nil {
				return fmt.Errorf("demo: %w; and its config: %w", inUse, err)
			}
			// The demo's profiles point at the service it runs; profiles a
			// user added to the file (kept by demoConfig.write) may not.
			for name, p := range cfg.Profiles {
				if strings.TrimRight(p.BaseURL, "/") == url {
					d.members = append(d.members, name)
				}
			}
			if len(d.members) == 0 {
				return fmt.Errorf("demo: %w; it serves %s, but no profile in %s points at it: it is not a 'vigil demo' or 'vigil serve --demo' to join", inUse, url, d.configPath)
			}
			slices.Sort(d.members)
			d.baseURL = url
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("demo: %w, and it has not started serving within %s; wait for it, or stop it", inUse, demoJoinWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// demoCloseGrace bounds how long closing the demo waits for requests in
// flight, and then for the webhook restore.
const demoCloseGrace = 5 * time.Second

// Close stops the service and removes a temporary data directory.
func (d *demoEnv) Close() error { return d.CloseContext(context.Background()) }

// CloseContext is Close, cutting short the wait for requests in flight, the
// webhook restore and webhook deliveries when hurry ends (a second stop
// signal). The service is still closed and a temporary directory removed.
func (d *demoEnv) CloseContext(hurry context.Context) error {
	deadline := time.Now().Add(demoCloseGrace)
	var errs []error
	for _, hs := range d.httpSrvs {
		hs.SetKeepAlivesEnabled(false)
	}
	// Requests in flight finish (Shutdown waits for them); connections that
	// never carried one are closed now instead of after Shutdown's 5 s grace.
	d.conns.closeAll()
	if len(d.httpSrvs) > 0 {
		errs = append(errs, shutdownHTTP(hurry, d.log, demoCloseGrace, &d.running, d.httpSrvs...))
	}
	ctx, cancel := context.WithDeadline(hurry, deadline)
	defer cancel()
	if d.restoreWebhook != nil {
		errs = append(errs, d.restoreWebhook(ctx))
	}
	if d.srv != nil {
		errs = append(errs, d.srv.CloseContext(hurry))
	}
	errs = append(errs, d.lock.Release())
	if d.temp && d.dir != "" {
		errs = append(errs, os.RemoveAll(d.dir))
	}
	return errors.Join(errs...)
}
