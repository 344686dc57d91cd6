package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
)

func TestPrepareDemoWritesAWorkingConfig(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	lock, err := server.LockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	first, _, err := prepareDemo(ctx, lock, "http://127.0.0.1:1", "http://127.0.0.1:2", discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	lock.Release()
	// A second start (another port) keeps the organization and rewrites the URLs.
	if lock, err = server.LockDataDir(dir); err != nil {
		t.Fatal(err)
	}
	// As vigil serve --demo does: the address is known before the demo is
	// prepared, and the service opens only after (one vigil.db, one service).
	var handler atomic.Pointer[http.Handler]
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*handler.Load()).ServeHTTP(w, r) }))
	second, note, err := prepareDemo(ctx, lock, hs.URL, "http://127.0.0.1:2", discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.Open(server.Config{DataDir: dir, Lock: lock})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	handler.Store(&h)
	t.Cleanup(func() { hs.Close(); srv.Close(); lock.Release() })
	if second.OrganizationID != first.OrganizationID {
		t.Fatalf("reseeded: %s then %s", first.OrganizationID, second.OrganizationID)
	}
	if note != "" {
		t.Errorf("rewriting the demo's own config kept a copy: %s", note)
	}
	cfg, err := loadConfig(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatalf("the written config does not load: %v", err)
	}
	for _, name := range []string{"alice", "bob", "carol", "operator"} {
		p, ok := cfg.Profiles[name]
		if !ok || p.BaseURL != hs.URL || p.OrganizationID != first.OrganizationID {
			t.Fatalf("profile %s: %+v", name, p)
		}
		p.Name = name
		st, err := profileStamper(p, func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.NewClient(p.BaseURL, p.OrganizationID, st)
		if err != nil {
			t.Fatal(err)
		}
		who, err := c.Whoami(ctx)
		if err != nil || who.Username != name {
			t.Fatalf("%s: %v %+v", name, err, who)
		}
	}
	pem, err := os.ReadFile(filepath.Join(dir, "demo-root.pem"))
	if err != nil || !bytes.Equal(pem, first.DemoRootPEM) {
		t.Fatalf("demo-root.pem: %v", err)
	}
}

func TestServeFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	c := proc{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	if code := run(context.Background(), c, []string{"serve", "-h"}); code != 0 {
		t.Fatalf("serve -h: exit %d", code)
	}
	if code := run(context.Background(), c, []string{"serve", "--bogus"}); code != 2 {
		t.Fatalf("unknown flag: exit %d", code)
	}
	if code := run(context.Background(), c, []string{"serve"}); code != 2 {
		t.Fatalf("no HOME and no --data: exit %d, want 2 (%s)", code, errOut.String())
	}
	for _, bad := range []struct{ value, want string }{{"-1h", "negative"}, {"5s", "too short"}, {"daily", "webhook-key-rotation"}} {
		errOut.Reset()
		if code := run(context.Background(), c, []string{"serve", "--data", t.TempDir(), "--webhook-key-rotation", bad.value}); code != 2 || !strings.Contains(errOut.String(), bad.want) {
			t.Fatalf("--webhook-key-rotation %s: exit %d, stderr %q; want 2 and %q", bad.value, code, errOut.String(), bad.want)
		}
	}
	errOut.Reset()
	if code := run(context.Background(), c, []string{"serve", "--data", t.TempDir(), "--shutdown-grace", "0"}); code != 2 || !strings.Contains(errOut.String(), "--shutdown-grace 0s: give a positive duration") {
		t.Fatalf("--shutdown-grace 0: exit %d, stderr %q; want 2 saying what to give", code, errOut.String())
	}
}

func TestRotateWebhookKeysOnInterval(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	srv, err := server.Open(server.Config{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	first := srv.ActiveWebhookKeyID()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); rotateWebhookKeys(ctx, srv, 20*time.Millisecond, 20*time.Millisecond, log) }()
	seen := map[string]bool{first: true}
	deadline := time.Now().Add(10 * time.Second)
	for len(seen) < 3 && time.Now().Before(deadline) {
		seen[srv.ActiveWebhookKeyID()] = true
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if len(seen) < 3 {
		t.Fatalf("saw active keys %v in 10 s of rotating every 20 ms", seen)
	}
	resp, err := http.Get(hs.URL + api.JWKSPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var set api.JWKS
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		t.Fatal(err)
	}
	active := srv.ActiveWebhookKeyID()
	if len(set.Keys) != 1 || set.Keys[0].Kid != active {
		t.Fatalf("JWKS %+v, want only the active key %s (nothing was in flight)", set.Keys, active)
	}
	if !strings.Contains(logs.String(), "webhook signing key rotated") || !strings.Contains(logs.String(), active) {
		t.Fatalf("rotation not logged with its key id: %s", logs.String())
	}
	if strings.Contains(logs.String(), "seed") || strings.Contains(logs.String(), "priv") {
		t.Fatalf("rotation log mentions private key material: %s", logs.String())
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	return freeAddrs(t, 1)[0]
}

// freeAddrs is n distinct free addresses: each port is held until all are
// found, so the system cannot hand one released port out twice (two calls
// of freeAddr could, and a service and its auth proxy then clashed).
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	addrs := make([]string, n)
	for i := range addrs {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		addrs[i] = l.Addr().String()
	}
	return addrs
}

// freeAddrPair is two distinct free addresses: a service's and its auth proxy's.
func freeAddrPair(t *testing.T) (string, string) {
	t.Helper()
	a := freeAddrs(t, 2)
	return a[0], a[1]
}

// TestServeSurvivesKill9 runs the built binary, submits from several goroutines,
// kills it with SIGKILL mid-load, restarts it on the same data directory and
// checks that every activity whose reply was received is there.
func TestServeSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := vigilBinary(t)
	dir := t.TempDir()
	addr, proxyAddr := freeAddrPair(t)
	base := "http://" + addr
	start := func() *exec.Cmd {
		cmd := exec.Command(bin, "serve", "--demo", "--data", dir, "--addr", addr, "--auth-proxy-addr", proxyAddr)
		var logs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := startChild(cmd); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if cmd.ProcessState == nil {
				cmd.Process.Kill()
				cmd.Wait()
			}
		})
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if resp, err := http.Get(base + api.JWKSPath); err == nil {
				resp.Body.Close()
				return cmd
			}
		}
		t.Fatalf("vigil serve did not start: %s", logs.String())
		return nil
	}
	cmd := start()
	cfg, err := loadConfig(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Profiles["operator"]
	key, err := keys.Store{Dir: filepath.Join(dir, "keys")}.Load("operator")
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.NewClient(base, p.OrganizationID, key)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mu sync.Mutex
	var acked []string
	killed := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				act, err := client.CreateReadOnlySession(ctx)
				if err != nil {
					select {
					case <-killed:
						return // expected: the server is gone
					default:
						t.Errorf("submit before the kill: %v", err)
						return
					}
				}
				mu.Lock()
				acked = append(acked, act.ID)
				n := len(acked)
				mu.Unlock()
				if n == 60 {
					once.Do(func() {
						close(killed)
						cmd.Process.Signal(syscall.SIGKILL)
					})
				}
			}
		}()
	}
	wg.Wait()
	cmd.Wait()
	if len(acked) < 60 {
		t.Fatalf("only %d activities acknowledged", len(acked))
	}

	restarted := start()
	for _, id := range acked {
		act, err := client.GetActivity(ctx, id)
		if err != nil {
			if errors.Is(err, api.ErrNotFound) {
				t.Fatalf("acknowledged activity %s lost after kill -9", id)
			}
			t.Fatal(err)
		}
		if act.Status != api.StatusCompleted {
			t.Fatalf("activity %s is %s after restart", id, act.Status)
		}
	}
	t.Logf("%d acknowledged activities survived kill -9", len(acked))

	// SIGTERM is a graceful shutdown: exit status 0.
	if err := restarted.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := restarted.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v", err)
	}
}

// TestServeDemoWritesConfigBeforeListening waits for the port as a script
// would, and reads the config and keys the moment it accepts a connection.
// startServe runs `vigil serve --data dir` with extra flags in-process on free
// ports until the test ends, and returns its address and standard error as soon
// as its port accepts connections (not later: callers check what holds then).
func startServe(t *testing.T, dir string, extra ...string) (string, *syncBuffer) {
	t.Helper()
	addr, proxyAddr := freeAddrPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out, errOut syncBuffer // the service writes while the test reads
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	args := append([]string{"--data", dir, "--addr", addr, "--auth-proxy-addr", proxyAddr}, extra...)
	go func() { done <- cmdServe(ctx, c, args) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("vigil serve: %v", err)
		}
	})
	for {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			return addr, &errOut
		}
		select {
		case err := <-done:
			done <- nil // for the cleanup, which waits for the service to end: it has
			t.Fatalf("vigil serve ended before listening: %v\n%s", err, errOut.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// A second service on a data directory would keep its own caches of keys,
// users and activities, blind to the first one's writes: it is refused, and
// says which process serves the directory.
func TestSecondServeOnADataDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	startServe(t, dir, "--demo")
	var errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &errOut, getenv: func(string) string { return "" }}
	addr, proxyAddr := freeAddrPair(t)
	err := cmdServe(context.Background(), c, []string{"--data", dir, "--addr", addr, "--auth-proxy-addr", proxyAddr})
	if !errors.Is(err, server.ErrDataDirInUse) || !strings.Contains(err.Error(), "process") || !strings.Contains(err.Error(), "another data directory") {
		t.Fatalf("second vigil serve on %s: %v; want the directory reported in use, by which process, and what to do", dir, err)
	}
}

func TestServeDemoWritesConfigBeforeListening(t *testing.T) {
	dir := t.TempDir()
	addr, _ := startServe(t, dir, "--demo")
	cfg, err := loadConfig(filepath.Join(dir, "config.toml"))
	if err != nil {
		t.Fatalf("config.toml when the port accepted: %v", err)
	}
	if p := cfg.Profiles["bob"]; p.BaseURL != "http://"+addr {
		t.Fatalf("bob's base URL = %q, want http://%s", p.BaseURL, addr)
	}
	if _, err := (keys.Store{Dir: filepath.Join(dir, "keys")}).Load("bob"); err != nil {
		t.Fatalf("bob's key when the port accepted: %v", err)
	}
}

// TestDemoClosesUnusedConnections: a connection that never carried a request
// (as an HTTP client may leave one) does not hold the demo's exit, and the
// demo's servers bound slow clients as vigil serve's do.
func TestDemoClosesUnusedConnections(t *testing.T) {
	env, err := startDemo(context.Background(), "", discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	for _, hs := range env.httpSrvs {
		if hs.ReadHeaderTimeout <= 0 || hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 || hs.MaxHeaderBytes != maxHeaderBytes {
			t.Fatalf("demo HTTP server without timeouts or header limit: %+v", hs)
		}
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.baseURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A request on another connection proves the server has seen the first one.
	if resp, err := http.Get(env.baseURL + api.JWKSPath); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	if err := env.Close(); err != nil {
		t.Fatalf("Close with an unused connection open: %v (Shutdown waited for it)", err)
	}
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the unused connection is still open after Close: %v", err)
	}
}

// TestServeDemoOnATakenPortWritesNothing: a port another process holds is
// said at once, with what to do, before the demo seeds its directory or
// writes a config pointing at that port.
func TestServeDemoOnATakenPortWritesNothing(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for _, flag := range []string{"--addr", "--auth-proxy-addr"} {
		dir := t.TempDir()
		addr, proxyAddr := freeAddrPair(t)
		args := []string{"--data", dir, "--demo", "--addr", addr, "--auth-proxy-addr", proxyAddr}
		for i := range args {
			if args[i] == flag {
				args[i+1] = held.Addr().String()
			}
		}
		c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
		err := cmdServe(context.Background(), c, args)
		if err == nil || !strings.Contains(err.Error(), held.Addr().String()) || !strings.Contains(err.Error(), flag) {
			t.Errorf("%s on a taken port: %v; want the port named and %s suggested", flag, err, flag)
		}
		if _, err := os.Stat(filepath.Join(dir, "config.toml")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s on a taken port: config.toml was written (%v)", flag, err)
		}
	}
}
