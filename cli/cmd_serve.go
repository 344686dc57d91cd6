package cli

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/vigil-console/vigil/internal/logtext"
	"github.com/vigil-console/vigil/server"
)

const serveUsage = `Usage: vigil serve [--addr HOST:PORT] [--auth-proxy-addr HOST:PORT] [--data DIR] [--demo]
                   [--webhook-key-rotation DURATION] [--shutdown-grace D] [--oidc-org ID]
                   [--trust-oidc-issuer ISSUER,AUDIENCE=JWKS_FILE]… [--link-oidc-subject ISSUER,SUBJECT=USER]…

Runs the local activity/query service on HTTP (docs/local-service.md in
vigil's repository describes it): stamped submits and queries under
/public/v1/, the webhook JWKS, and the auth proxy on its own address. State
is kept in DIR/vigil.db (SQLite), so the service can be stopped and
restarted; one service may be shared by many consoles.

With --demo, the first start seeds a demo organization (root users alice, bob
and carol in a 2-of-3 quorum, and operator), writes their keys to DIR/keys/ and
a config with one profile per member to DIR/config.toml, and prints how to
connect. Later starts rewrite only the demo's settings in that file, keeping
other profiles (a copy goes to config.toml.bak if it had comments); a
config.toml the demo did not write is never overwritten.

With --webhook-key-rotation, a fresh webhook signing key takes over every
DURATION (e.g. 24h), counted across restarts: a start finding the key older
than DURATION rotates at once. The previous key stays in the JWKS until the
deliveries signed with it are done. 0 (the default) never rotates.

The oauth operation accepts tokens of the service's own OIDC issuer; with
--trust-oidc-issuer ISSUER,AUDIENCE=JWKS_FILE an organization (--oidc-org, or
the demo's) also accepts tokens of ISSUER whose aud is AUDIENCE, signed by a
key of the JWKS file (the provider's jwks_uri, saved). --link-oidc-subject
ISSUER,SUBJECT=USER makes a token with that subject sign in as USER (ISSUER
'local' for the service's own). Both are kept in DIR and may be repeated.

SIGINT, SIGTERM or SIGHUP (its terminal closed) stops it: requests in flight
get up to --shutdown-grace (10s) to finish, then are cut off (the log says how
many; an answered request is never undone), queued writes commit, webhook
deliveries get up to 5s (the rest stay in the outbox for the next start). A
second such signal stops waiting at once. Either way it exits 0, also when
the signal comes before it serves ("stopped before serving").

Examples:
  vigil serve --demo
  vigil serve --data /tmp/vigil --addr 127.0.0.1:9000
  vigil serve --webhook-key-rotation 24h
  vigil serve --demo --trust-oidc-issuer https://accounts.example.com,CLIENT_ID=jwks.json \
              --link-oidc-subject https://accounts.example.com,1170042=carol
  vigil --config ~/.local/share/vigil/server/config.toml --profile bob

Flags:
`

// errStoppedBeforeServing ends start-up when a stop signal arrives before the
// service serves; like a stop while serving, it is a clean stop (exit 0).
var errStoppedBeforeServing = errors.New("stopped before serving")

const stoppedBeforeServingNote = "stopped before serving: a stop signal arrived during start-up"

func cmdServe(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("serve", serveUsage)
	addr := fs.String("addr", "127.0.0.1:8420", "address of the service API")
	proxyAddr := fs.String("auth-proxy-addr", "127.0.0.1:8421", "address of the auth proxy")
	data := fs.String("data", "", "data directory (default $XDG_DATA_HOME/vigil/server, else ~/.local/share/vigil/server; a relative base is ignored)")
	demo := fs.Bool("demo", false, "seed the demo organization on first start and write DIR/config.toml")
	rotation := fs.Duration("webhook-key-rotation", 0, "rotate the webhook signing key this often (e.g. 24h); 0 never rotates")
	grace := fs.Duration("shutdown-grace", defaultShutdownGrace, "on SIGINT/SIGTERM/SIGHUP, let requests in flight finish for up to `D`")
	var oidc oidcTrustFlags
	oidc.register(fs)
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	issuers, err := oidc.parseIssuers()
	if err != nil {
		return err
	}
	if *rotation < 0 {
		return usagef("serve: --webhook-key-rotation %s is negative; give a positive duration such as 24h, or 0 to never rotate", *rotation)
	}
	if *grace <= 0 {
		return usagef("serve: --shutdown-grace %s: give a positive duration such as 10s", *grace)
	}
	if *rotation > 0 && *rotation < minWebhookKeyRotation {
		return usagef("serve: --webhook-key-rotation %s is too short: receivers refetch the JWKS at most every few seconds; use at least %s", *rotation, minWebhookKeyRotation)
	}
	if err := checkListenFlag("serve", "addr", *addr); err != nil {
		return err
	}
	if err := checkListenFlag("serve", "auth-proxy-addr", *proxyAddr); err != nil {
		return err
	}
	if err := oidc.check(); err != nil {
		return err
	}
	dir, err := flagPath(c, "serve", "data", *data)
	if err != nil {
		return err
	}
	if err := checkDataDirFlag("serve", dir); err != nil {
		return err
	}
	if dir == "" {
		dir = defaultServerDataDir(c.getenv)
		if dir == "" {
			return usagef("serve: neither XDG_DATA_HOME nor HOME is set to an absolute path (a relative one is ignored); pass --data DIR")
		}
	}
	// Also net/http's ErrorLog (errLog, below): every line escaped and cut.
	log := logtext.NewText(c.stderr, nil)

	// One service per data directory (server.DataDirLock), held from before
	// the demo's seeding until the service has closed.
	lock, err := server.LockDataDir(dir)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer lock.Release()

	// The demo's keys and config.toml are written before either port accepts
	// a connection: a script that waits for the port may read them at once.
	var info *server.DemoInfo
	var demoNote string
	ln, pln, err := listenAfter(*addr, *proxyAddr, func(baseURL, proxyURL string) error {
		if !*demo {
			return nil
		}
		if ctx.Err() != nil {
			return errStoppedBeforeServing
		}
		var err error
		info, demoNote, err = prepareDemo(ctx, lock, baseURL, proxyURL, log)
		if ctx.Err() != nil {
			// The seeding's transaction rolled back or committed whole;
			// the next start seeds or re-reads the demo.
			return errStoppedBeforeServing
		}
		return err
	})
	if errors.Is(err, errStoppedBeforeServing) {
		log.Info(stoppedBeforeServingNote)
		return nil
	}
	if err != nil {
		return err
	}
	defer ln.Close()
	defer pln.Close()
	baseURL, proxyURL := serviceURL(ln.Addr()), serviceURL(pln.Addr())

	defer tuneGCForService(c.getenv)()
	srv, err := server.Open(server.Config{DataDir: dir, Logger: log, Lock: lock})
	if err != nil {
		return fmt.Errorf("open the service's data in %s: %w", dir, err)
	}
	if ctx.Err() != nil {
		// The signal came during the schema upgrade (server.Open runs it
		// whole): stop before announcing a service that would not serve.
		srv.CloseContext(c.stopping.hurryCtx())
		log.Info(stoppedBeforeServingNote)
		return nil
	}
	// Ends at a second stop signal, whenever it comes: it cuts short the
	// wait for requests in flight and for webhook deliveries, and the store
	// is still closed (queued writes commit).
	hurry := c.stopping.hurryCtx()
	logged := make(chan struct{})
	stopLog := context.AfterFunc(hurry, func() { defer close(logged); log.Warn("second signal: stopping at once") })
	defer func() {
		if !stopLog() {
			<-logged
		}
	}()
	defer srv.CloseContext(hurry)
	if err := lock.Serving(baseURL, server.HolderServe); err != nil {
		return err
	}
	if oidc.any() {
		if err := oidc.apply(ctx, srv, issuers, info); err != nil {
			return err
		}
	}
	if *rotation > 0 {
		first := catchUpWebhookKeyRotation(ctx, srv, *rotation, log)
		rotateCtx, stopRotating := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); rotateWebhookKeys(rotateCtx, srv, first, *rotation, log) }()
		// Runs before srv.Close (defers run last-in first-out).
		defer func() { stopRotating(); <-done }()
		log.Info("webhook signing key rotation on", "every", rotation.String(), "kid", srv.ActiveWebhookKeyID(), "next_in", first.String())
	}

	errLog := slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	var running inFlight
	api, proxy := newHTTPServer(running.wrap(srv.Handler()), errLog), newHTTPServer(running.wrap(srv.AuthProxyHandler()), errLog)
	apiLn, proxyLn := limitConns(api, ln), limitConns(proxy, pln)
	errc := make(chan error, 2)
	go func() { errc <- api.Serve(apiLn) }()
	go func() { errc <- proxy.Serve(proxyLn) }()
	log.Info("vigil local service listening", "url", baseURL, "authProxy", proxyURL, "data", dir)
	fmt.Fprintf(c.stdout, "vigil local service on %s (auth proxy %s), data in %s\n", baseURL, proxyURL, shownPath(dir))
	if info != nil {
		printDemoHelp(c, dir, info)
	}
	if demoNote != "" {
		fmt.Fprintf(c.stdout, "note: %s\n", demoNote)
	}

	select {
	case <-ctx.Done():
	case err = <-errc:
		log.Error("server stopped", "err", err)
	}
	log.Info("shutting down; a second Ctrl-C (SIGINT) or SIGTERM stops at once", "grace", grace.String())
	err = errors.Join(err, shutdownHTTP(hurry, log, *grace, &running, api, proxy))
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

const (
	// headerLimit bounds a request's line and headers (net/http's default
	// is 1 MiB): the largest credential, an X-Stamp-WebAuthn, is at most
	// 16 KiB, and every endpoint's path is a few dozen bytes.
	headerLimit = 32 << 10
	// maxHeaderBytes is http.Server's setting for headerLimit: net/http reads
	// 4 KiB more than MaxHeaderBytes before it answers 431.
	maxHeaderBytes = headerLimit - 4<<10
	// maxConns bounds the connections each port serves at once
	// (limitListener). With the limits above and the service's own budget
	// for bodies, it bounds the memory that connections can hold; it is far
	// above what any number of consoles opens.
	maxConns = 4096
	// maxConnsPerPeer is one remote address's share of them (limitListener):
	// it takes sixteen addresses, each keeping its share busy with requests,
	// to keep a newcomer waiting (idle connections give way to newcomers).
	// Loopback is one address, which a few consoles, the tests and the load
	// generator's 16 clients (32 connections at most) share by far.
	maxConnsPerPeer = maxConns / 16
)

// newHTTPServer is the HTTP server of the service and of the auth proxy, for
// `vigil serve` and `vigil demo` alike: timeouts bound how long a slow or
// stalled client can hold a connection, maxHeaderBytes what it can make the
// server hold before the handler runs. Serve it on limitConns(listener).
func newHTTPServer(h http.Handler, errLog *log.Logger) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: maxHeaderBytes, ErrorLog: errLog}
}

// limitConns is the listener hs, one of newHTTPServer's, serves ln on: at
// most maxConns connections at once, maxConnsPerPeer of them from one
// address, idle ones closed for newcomers when all are taken. It hooks hs's
// ConnState, keeping any hook already set: call it before hs serves.
func limitConns(hs *http.Server, ln net.Listener) net.Listener {
	l := newLimitListener(ln, maxConns, maxConnsPerPeer)
	l.watch(hs)
	return l
}

// listenAfter calls prepare with the URLs the two addresses will be served on,
// then listens on them, so nothing can connect before prepare is done. A port
// of 0 is resolved first by listening briefly and closing again; if another
// process takes that port in between, it starts over (a few times).
func listenAfter(addr, proxyAddr string, prepare func(baseURL, proxyURL string) error) (net.Listener, net.Listener, error) {
	var lastErr error
	for range 3 {
		// Both ports are tried before prepare: a port another process holds
		// is said at once, before the demo writes a config pointing at it.
		// A fixed port is tried without listening (portFree), so that a
		// script waiting for it sees nothing before prepare is done.
		// The first port is held while the second is resolved: two ports of
		// 0 would otherwise get one port back when the system hands out the
		// one just released (seen once in sixteen demos on a loaded machine).
		a, releaseA, err := tryPort(addr)
		if err != nil {
			return nil, nil, fmt.Errorf("listen on %s: %w; %s", addr, err, listenAdvice("addr", err))
		}
		p, releaseP, err := tryPort(proxyAddr)
		releaseA()
		if err == nil {
			releaseP()
		}
		if err == nil && samePort(a, p) {
			return nil, nil, usagef("listen on %s (auth proxy): the service's --addr is %s; pass --auth-proxy-addr with another port (127.0.0.1:0 picks a free one)", proxyAddr, a)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("listen on %s (auth proxy): %w; %s", proxyAddr, err, listenAdvice("auth-proxy-addr", err))
		}
		if err := prepare(serviceURL(a), serviceURL(p)); err != nil {
			return nil, nil, err
		}
		ln, err := net.Listen("tcp", a.String())
		if err != nil {
			if lastErr = fmt.Errorf("listen on %s: %w (taken since it was tried); stop what uses it, or pass --addr with another port", addr, err); !isPortFromZero(addr) {
				return nil, nil, lastErr
			}
			continue
		}
		pln, err := net.Listen("tcp", p.String())
		if err != nil {
			ln.Close()
			if lastErr = fmt.Errorf("listen on %s (auth proxy): %w (taken since it was tried); stop what uses it, or pass --auth-proxy-addr with another port", proxyAddr, err); !isPortFromZero(proxyAddr) {
				return nil, nil, lastErr
			}
			continue
		}
		return ln, pln, nil
	}
	return nil, nil, lastErr
}

// tryPort resolves addr: a port of 0 becomes a free one of the system's
// choosing (a port nobody waits on, found by listening until release is
// called); a fixed one is checked free without listening on it. release is
// never nil when err is nil.
func tryPort(addr string) (a *net.TCPAddr, release func(), err error) {
	a, err = net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	if a.Port != 0 {
		if err := portFree(a); err != nil {
			return nil, nil, err
		}
		return a, func() {}, nil
	}
	ln, err := net.ListenTCP("tcp", a)
	if err != nil {
		return nil, nil, err
	}
	return ln.Addr().(*net.TCPAddr), func() { ln.Close() }, nil
}

// samePort tells whether two listening addresses would clash: one port, on
// the same address or on all of them.
func samePort(a, b *net.TCPAddr) bool {
	if a.Port != b.Port {
		return false
	}
	unspecified := func(ip net.IP) bool { return ip == nil || ip.IsUnspecified() }
	return unspecified(a.IP) || unspecified(b.IP) || a.IP.Equal(b.IP)
}

func isPortFromZero(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	return err == nil && (port == "0" || port == "")
}

// serviceURL is the URL clients use for a listening address: an unspecified
// host (":8420", "0.0.0.0:8420") is reached on the loopback address.
func serviceURL(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String()
	}
	host := "127.0.0.1"
	if t.IP != nil && !t.IP.IsUnspecified() {
		host = t.IP.String()
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(t.Port))
}

// minWebhookKeyRotation is the shortest --webhook-key-rotation: a receiver's
// JWKS cache refetches at most every webhook.MinRefetchInterval (10 s), so a
// key rotated faster than that could reach receivers before they may learn it.
const minWebhookKeyRotation = time.Minute

// catchUpWebhookKeyRotation keeps the rotation schedule across restarts: it
// rotates srv's webhook signing key at once when the key is already older
// than every (a service restarted more often than every would otherwise
// never rotate), and returns how long until the next rotation falls due.
func catchUpWebhookKeyRotation(ctx context.Context, srv *server.Server, every time.Duration, log *slog.Logger) time.Duration {
	age := srv.WebhookKeyAge()
	if age < every {
		return every - age
	}
	if _, err := srv.RotateWebhookKey(ctx); err != nil {
		// The next tick tries again; the server logged what it could.
		log.Error("webhook key rotation at start failed", "key_age", age.String(), "err", err)
	}
	return every
}

// rotateWebhookKeys rotates srv's webhook signing key after first, then every
// interval, until ctx ends. The server logs each rotation (key ids only); a
// failure is logged and retried at the next tick.
func rotateWebhookKeys(ctx context.Context, srv *server.Server, first, every time.Duration, log *slog.Logger) {
	rotate := func() {
		if _, err := srv.RotateWebhookKey(ctx); err != nil {
			log.Error("webhook key rotation failed", "err", err)
		}
	}
	wait := time.NewTimer(first)
	defer wait.Stop()
	select {
	case <-ctx.Done():
		return
	case <-wait.C:
		rotate()
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			rotate()
		}
	}
}

// defaultServerDataDir is $XDG_DATA_HOME/vigil/server, else
// ~/.local/share/vigil/server, or "" without an absolute base. A relative
// value is ignored, as the XDG spec says and keys.ConfigHome does: it would
// put the service's state under whatever directory vigil was started from,
// and a start from elsewhere would open an empty service.
func defaultServerDataDir(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "vigil", "server")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "share", "vigil", "server")
	}
	return ""
}

// prepareDemo seeds the demo organization in dataDir (once) and writes
// dataDir/keys/, dataDir/demo-root.pem and dataDir/config.toml with one profile
// per member pointing at baseURL. `vigil serve --demo` and `vigil demo` use it
// before they open the service themselves. A config.toml the demo did not
// write is refused before anything is seeded; note says what was kept aside
// of one it rewrote (demoConfig.write).
//
// log hears what opening the data directory tells its operator: this open
// is the first, so it runs any schema upgrade, whose backup and removed
// credentials are told only there.
func prepareDemo(ctx context.Context, lock *server.DataDirLock, baseURL, authProxyURL string, log *slog.Logger) (_ *server.DemoInfo, note string, _ error) {
	dataDir := lock.Dir()
	cfg, err := readDemoConfig(dataDir)
	if err != nil {
		return nil, "", err
	}
	// Only to seed: webhook delivery is the service's the caller opens next
	// ('vigil demo' points its webhook first, so nothing may be sent here to
	// the previous run's port). Held events wait in the outbox.
	// Only the open is told: the seeding's service holds its webhooks on
	// purpose, and would warn at close that they never started.
	var opening atomic.Bool
	opening.Store(true)
	srv, err := server.Open(server.Config{DataDir: dataDir, Logger: slog.New(whileOpen{on: &opening, next: log.Handler()}), Lock: lock, HoldWebhooks: true})
	opening.Store(false)
	if err != nil {
		return nil, "", fmt.Errorf("demo: open %s: %w", dataDir, err)
	}
	info, err := server.SeedDemo(ctx, srv, filepath.Join(dataDir, "keys"))
	if cerr := srv.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, "", fmt.Errorf("demo: %w", err)
	}
	if err := replaceOwnFile(filepath.Join(dataDir, "demo-root.pem"), info.DemoRootPEM, 0o644); err != nil {
		return nil, "", fmt.Errorf("demo: %w", err)
	}
	note, err = cfg.write(info, baseURL, authProxyURL)
	return info, note, err
}

func printDemoHelp(c proc, dir string, info *server.DemoInfo) {
	cfg := filepath.Join(dir, "config.toml")
	fmt.Fprintf(c.stdout, "demo organization %q (%s); connect as a member, one terminal each:\n", info.OrganizationName, info.OrganizationID)
	for _, m := range info.Members {
		role := "member"
		if m.Root {
			role = "root quorum"
		}
		fmt.Fprintf(c.stdout, "  vigil --config %s --profile %-8s  # %s\n", shownWord(cfg), m.Name, role)
	}
}

// whileOpen passes records to next while on holds true, and drops them
// after; the handlers it derives share on.
type whileOpen struct {
	on   *atomic.Bool
	next slog.Handler
}

func (w whileOpen) Enabled(ctx context.Context, l slog.Level) bool {
	return w.on.Load() && w.next.Enabled(ctx, l)
}

func (w whileOpen) Handle(ctx context.Context, r slog.Record) error {
	if !w.on.Load() {
		return nil
	}
	return w.next.Handle(ctx, r)
}

func (w whileOpen) WithAttrs(attrs []slog.Attr) slog.Handler {
	return whileOpen{on: w.on, next: w.next.WithAttrs(attrs)}
}

func (w whileOpen) WithGroup(name string) slog.Handler {
	return whileOpen{on: w.on, next: w.next.WithGroup(name)}
}
