package cli

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// stoppableServe runs `vigil serve` in-process with extra flags until stop
// is called; it returns its address, its standard error, stop (the first
// stop signal: the command's context ends), hurry (the second: its
// stopping's hurry context ends) and the command's result.
//
// The second signal is not a real SIGINT sent to the test process: that
// reaches every signal.Notify in it, teatest's among them, whose goroutines
// outlive their tests and then log into a finished test (a panic under
// -count 2). Main's wiring of the real signal is tested on the built binary
// (TestDemoSecondStopSignalCutsTheShutdownShort).
func stoppableServe(t *testing.T, extra ...string) (addr string, stderr *syncBuffer, stop, hurry func(), result <-chan error) {
	t.Helper()
	addr, proxyAddr := freeAddrPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan error, 1)
	var out, errOut syncBuffer
	hurryCtx, hurryNow := context.WithCancel(context.Background())
	t.Cleanup(hurryNow)
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" },
		stopping: &stopping{hurry: hurryCtx}}
	args := append([]string{"--data", t.TempDir(), "--addr", addr, "--auth-proxy-addr", proxyAddr}, extra...)
	go func() { done <- cmdServe(ctx, c, args) }()
	for {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			return addr, &errOut, cancel, hurryNow, done
		}
		select {
		case err := <-done:
			t.Fatalf("vigil serve ended before listening: %v\n%s", err, errOut.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// requestInFlight starts a request whose body never comes in full (as a
// client on a slow link would send it) and returns once the service's
// handler is reading it: the server's "100 Continue" says so.
func requestInFlight(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, "POST /public/v1/query/whoami HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != http.StatusContinue {
		t.Fatalf("want 100 Continue once the handler reads the body: %v %v", resp, err)
	}
	if _, err := io.WriteString(conn, "{"); err != nil {
		t.Fatal(err)
	}
	return conn, r
}

// endsWithin waits for serve's result, failing the test if it never comes.
func endsWithin(t *testing.T, result <-chan error, stderr *syncBuffer, what string) error {
	t.Helper()
	select {
	case err := <-result:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s: vigil serve did not stop\n%s", what, stderr.String())
		return nil
	}
}

// A request still in flight when the shutdown grace runs out is cut off,
// and the log says so and what it means, instead of `vigil serve` exiting 1
// with a bare "context deadline exceeded" (which a service manager records
// as a failed stop).
func TestServeSaysWhichRequestsTheShutdownCutOff(t *testing.T) {
	addr, stderr, stop, _, result := stoppableServe(t, "--shutdown-grace", "200ms")
	_, r := requestInFlight(t, addr)
	stop()
	if err := endsWithin(t, result, stderr, "shutdown with a request in flight"); err != nil {
		t.Fatalf("vigil serve: %v, want a clean stop (exit 0)\n%s", err, stderr.String())
	}
	log := stderr.String()
	if !strings.Contains(log, "1 request(s) still in flight after 200ms were cut off: their clients got no reply") ||
		!strings.Contains(log, "every request answered stands") {
		t.Errorf("the log should say which requests were cut off and what it means:\n%s", log)
	}
	if resp, err := http.ReadResponse(r, nil); err == nil {
		t.Errorf("the cut-off request got a reply: %s", resp.Status)
	}
}

// A second SIGINT during shutdown stops `vigil serve` at once, rather than
// being ignored until the grace for requests in flight has run out.
func TestServeStopsAtOnceOnASecondSignal(t *testing.T) {
	addr, stderr, stop, hurry, result := stoppableServe(t, "--shutdown-grace", "10m")
	requestInFlight(t, addr)
	stop()
	// The second signal is caught from the moment this is logged.
	for !strings.Contains(stderr.String(), "shutting down; a second Ctrl-C") {
		select {
		case err := <-result:
			t.Fatalf("vigil serve ended before the second signal: %v\n%s", err, stderr.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	hurry()
	if err := endsWithin(t, result, stderr, "second signal"); err != nil {
		t.Fatalf("vigil serve: %v\n%s", err, stderr.String())
	}
	log := stderr.String()
	if !strings.Contains(log, "second signal: stopping at once") || !strings.Contains(log, "1 request(s) in flight at the second signal were cut off") {
		t.Errorf("the log should say it stopped at once and what it cut off:\n%s", log)
	}
}
