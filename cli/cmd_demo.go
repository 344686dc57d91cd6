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
	"sync"
	"time"

	"github.com/vigil-console/vigil/server"
)

const demoUsage = `Usage: vigil demo [--as alice|bob|carol|operator] [--data DIR] [--read-only] [--log-file FILE]

Starts the local service in this process on 127.0.0.1 (a random port), seeds a demo
organization (3 root users with a 2-of-3 quorum, an operator, policies, features,
pending activities) and opens the console as one member.

Without --data the data lives in a temporary directory removed at exit. With
--data, a second terminal running 'vigil demo --data DIR --as bob' is another
member of the same organization, so you can approve what the other started.

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
	logger, closeLog, err := openLog(*logFile)
	if err != nil {
		return err
	}
	defer closeLog()
	env, err := startDemo(ctx, *data, logger)
	if err != nil {
		return err
	}
	defer env.Close()
	if !slices.Contains(env.memberNames(), *as) {
		return usagef("demo: --as %q is not a member; choose one of %v", *as, env.memberNames())
	}
	p, err := loadProfile(c, env.configPath, *as)
	if err != nil {
		return err
	}
	root, err := consoleModel(p, *readOnly, c.getenv, logger)
	if err != nil {
		return err
	}
	return runProgram(ctx, c, root, logger)
}

// demoEnv is a local service running in this process on a seeded data directory.
type demoEnv struct {
	dir        string
	temp       bool
	configPath string
	baseURL    string
	info       *server.DemoInfo
	srv        *server.Server
	httpSrvs   []*http.Server
	conns      freshConns
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
func startDemo(ctx context.Context, dataDir string, logger *slog.Logger) (_ *demoEnv, err error) {
	env := &demoEnv{dir: dataDir}
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
	} else if err = os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("demo: data directory: %w", err)
	}
	ln, pln, err := listenAfter("127.0.0.1:0", "127.0.0.1:0", func(baseURL, proxyURL string) error {
		var err error
		env.baseURL = baseURL
		env.info, err = prepareDemo(ctx, env.dir, baseURL, proxyURL)
		return err
	})
	if err != nil {
		return nil, err
	}
	proxyURL := serviceURL(pln.Addr())
	env.configPath = filepath.Join(env.dir, "config.toml")
	if env.srv, err = server.Open(server.Config{DataDir: env.dir, Logger: logger}); err != nil {
		ln.Close()
		pln.Close()
		return nil, fmt.Errorf("demo: open service: %w", err)
	}
	errLog := slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	for _, s := range []struct {
		ln net.Listener
		h  http.Handler
	}{{ln, env.srv.Handler()}, {pln, env.srv.AuthProxyHandler()}} {
		hs := newHTTPServer(s.h, errLog)
		hs.ConnState = env.conns.track
		env.httpSrvs = append(env.httpSrvs, hs)
		go hs.Serve(s.ln)
	}
	logger.Info("demo service listening", "url", env.baseURL, "auth_proxy", proxyURL, "data", env.dir)
	return env, nil
}

func (d *demoEnv) memberNames() []string {
	var out []string
	for _, m := range d.info.Members {
		out = append(out, m.Name)
	}
	return out
}

// Close stops the service and removes a temporary data directory.
func (d *demoEnv) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var errs []error
	for _, hs := range d.httpSrvs {
		hs.SetKeepAlivesEnabled(false)
	}
	// Requests in flight finish (Shutdown waits for them); connections that
	// never carried one are closed now instead of after Shutdown's 5 s grace.
	d.conns.closeAll()
	for _, hs := range d.httpSrvs {
		errs = append(errs, hs.Shutdown(ctx))
	}
	if d.srv != nil {
		errs = append(errs, d.srv.Close())
	}
	if d.temp && d.dir != "" {
		errs = append(errs, os.RemoveAll(d.dir))
	}
	return errors.Join(errs...)
}
