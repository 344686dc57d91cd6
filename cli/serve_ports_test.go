package cli

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One fixed port given for both the API and the auth proxy is refused before
// the demo seeds its directory or writes a config, with the flag to change.
func TestServeRefusesOnePortForBoth(t *testing.T) {
	addr := freeAddr(t)
	dir := t.TempDir()
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	err := cmdServe(context.Background(), c, []string{"--data", dir, "--demo", "--addr", addr, "--auth-proxy-addr", addr})
	if err == nil {
		t.Fatal("serve with one port for both listeners did not fail")
	}
	if _, serr := os.Stat(filepath.Join(dir, "config.toml")); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("config.toml was written before the port clash was found (%v)", serr)
	}
	if !strings.Contains(err.Error(), "--auth-proxy-addr") && !strings.Contains(err.Error(), "--addr") {
		t.Errorf("the error suggests no flag to change: %v", err)
	}
}

// A fixed port taken between the try and the listen (here, while prepare
// runs) fails saying what to do, as a port taken before does.
func TestServePortTakenAfterItsTrySaysWhatToDo(t *testing.T) {
	addr := freeAddr(t)
	var held io.Closer
	_, _, err := listenAfter(addr, "127.0.0.1:0", func(string, string) error {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = l
		return nil
	})
	if held != nil {
		defer held.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "--addr") {
		t.Errorf("a port taken after the probe: %v; want --addr suggested as for a port taken before", err)
	}
}

// While prepare runs (the demo writing its keys and config), nothing accepts
// a connection on a fixed port: a script that waits for the port reads a
// finished config. (Trying the port before prepare binds it without
// listening, portFree, so the moment before prepare accepts nothing either.)
func TestServeFixedPortAcceptsNothingBeforePrepareIsDone(t *testing.T) {
	addr, proxy := freeAddrPair(t)
	ln, pln, err := listenAfter(addr, proxy, func(string, string) error {
		for _, a := range []string{addr, proxy} {
			if c, err := net.Dial("tcp", a); err == nil {
				c.Close()
				t.Errorf("%s accepted a connection before prepare was done", a)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	pln.Close()
}

// A port of 0 stays held until released: listenAfter resolves the service's
// port of 0 and then the auth proxy's, and a port let go at once could come
// back as the second (the demo then failed saying the two ports clash).
func TestServeHoldsAResolvedFreePortUntilReleased(t *testing.T) {
	a, release, err := tryPort("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if l, err := net.Listen("tcp", a.String()); err == nil {
		l.Close()
		release()
		t.Fatalf("port %d resolved from 0 was free again before its release: another port of 0 could be given it", a.Port)
	}
	release()
	l, err := net.Listen("tcp", a.String())
	if err != nil {
		t.Fatalf("port %d still held after its release: %v", a.Port, err)
	}
	l.Close()
}
