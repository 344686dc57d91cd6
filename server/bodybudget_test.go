package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// waitersOf is the number of requests waiting for b.
func waitersOf(b *bodyBudget) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.waiters)
}

// queued waits until b has n waiters.
func queued(t *testing.T, b *bodyBudget, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); waitersOf(b) != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d waiters, want %d", waitersOf(b), n)
		}
	}
}

// answer is what acquire returned, or a failure if it has not within 10 s.
func answer(t *testing.T, what string, c <-chan error) error {
	t.Helper()
	select {
	case err := <-c:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still waiting for the budget", what)
		return nil
	}
}

// TestBodyBudgetGrantsInOrder: waiters are served in arrival order, and one
// that gives up lets those behind it in at once.
func TestBodyBudgetGrantsInOrder(t *testing.T) {
	b := newBodyBudget(10, time.Minute)
	b.perPeer = b.limit // one peer here
	var p netip.Addr
	ctx := ctxT(t)
	first, big, small := b.claim(p), b.claim(p), b.claim(p)
	if err := first.acquire(ctx, 8); err != nil {
		t.Fatal(err)
	}
	bigCtx, giveUp := context.WithCancel(ctx)
	bigDone, smallDone := make(chan error, 1), make(chan error, 1)
	go func() { bigDone <- big.acquire(bigCtx, 5) }()
	queued(t, b, 1)
	go func() { smallDone <- small.acquire(ctx, 2) }() // fits, but waits its turn
	queued(t, b, 2)
	giveUp()
	if err := answer(t, "the waiter that gave up", bigDone); err != errBusy {
		t.Fatalf("the waiter that gave up: %v, want errBusy", err)
	}
	if err := answer(t, "the waiter behind it", smallDone); err != nil {
		t.Fatalf("the waiter behind it: %v, want it granted", err)
	}
	first.release()
	big.release()
	small.release()
	if b.inUse() != 0 || waitersOf(b) != 0 || len(b.peers) != 0 {
		t.Fatalf("in use %d, %d waiters after every release", b.inUse(), waitersOf(b))
	}
}

// TestBodyBudgetOlderWaiterIsNotKeptWaitingByYoungerOnes: two requests that
// each hold part of a body and want more than is left would wait on each
// other until both time out (here a minute); instead the younger gives way
// at once, answered BUSY, and the older goes on. Only the younger waiters of
// the older one's own address give way for its address's share: another
// address's waiter stays in line.
func TestBodyBudgetOlderWaiterIsNotKeptWaitingByYoungerOnes(t *testing.T) {
	b := newBodyBudget(16, time.Minute)
	b.perPeer = 8
	ctx := ctxT(t)
	p, q := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	older, younger, other, otherWaiting := b.claim(p), b.claim(p), b.claim(q), b.claim(q)
	for _, c := range []*bodyClaim{older, younger, other, otherWaiting} {
		if err := c.acquire(ctx, 4); err != nil {
			t.Fatal(err)
		}
	}
	// The budget and both addresses' shares are full. q's younger request
	// waits for more, for its own address.
	otherCtx, giveUp := context.WithCancel(ctx)
	otherDone := make(chan error, 1)
	go func() { otherDone <- otherWaiting.acquire(otherCtx, 4) }()
	queued(t, b, 1)
	olderDone, youngerDone := make(chan error, 1), make(chan error, 1)
	go func() { olderDone <- older.acquire(ctx, 4) }()
	queued(t, b, 2)
	go func() { youngerDone <- younger.acquire(ctx, 4) }()
	if err := answer(t, "the younger request", youngerDone); err != errBusy {
		t.Fatalf("the younger request of the full address: %v, want errBusy at once", err)
	}
	if err := answer(t, "the older request", olderDone); err != nil {
		t.Fatalf("the older request: %v, want it granted once the younger gave way", err)
	}
	if n := waitersOf(b); n != 1 {
		t.Fatalf("%d waiters; the other address's should still wait", n)
	}
	b.mu.Lock()
	held := [4]int64{older.held, younger.held, other.held, otherWaiting.held}
	b.mu.Unlock()
	if held != [4]int64{8, 0, 4, 4} {
		t.Fatalf("held (older, younger, other, other waiting) = %v, want [8 0 4 4]", held)
	}
	giveUp()
	if err := answer(t, "the other address's waiter", otherDone); err != errBusy {
		t.Fatalf("the other address's waiter, given up: %v", err)
	}
	for _, c := range []*bodyClaim{older, younger, other, otherWaiting} {
		c.release()
	}
	if b.inUse() != 0 || len(b.peers) != 0 {
		t.Fatalf("in use %d after every release", b.inUse())
	}
}

// stalledPart opens a connection from src that sends a request for path
// with the header lines extra, declaring a 1 MiB body, and sent bytes of it.
func stalledPart(t *testing.T, src, url, path, extra string, sent int) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: vigil\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n%s",
		path, extra, api.MaxRequestBodyBytes, strings.Repeat(" ", sent))
}

// TestStalledMembersKeyClaimsLeaveMembersServed: the attack the stranger
// budget left open. Public keys are not secret, so anyone can send requests
// that claim a member's key: as many as the members' budget has 1 MiB
// bodies, from eight addresses, declare 1 MiB and stall, having sent none,
// one byte or 20,000 bytes of it. Each reserved its declared length, filling
// the budget, and every member was answered 503 BUSY until the read timeout;
// now each holds what it sent and less than one piece more, and a member is
// served.
func TestStalledMembersKeyClaimsLeaveMembersServed(t *testing.T) {
	e := newEnv(t)
	url, progressed := countingProgress(t, e.srv.Handler())
	name, stamp, err := e.keys["alice"].Stamp(whoamiBody(e.org.ID))
	if err != nil {
		t.Fatal(err)
	}
	const conns = defaultBodyBudget / api.MaxRequestBodyBytes
	sizes := []int{0, 1, 20_000}
	var bound int64 // what they may hold: what each sent, rounded up to pieces
	for i := range conns {
		sent := sizes[i%len(sizes)]
		bound += (int64(sent) + bodyChunk - 1) / bodyChunk * bodyChunk
		stalledPart(t, loopback(t, 2+i%peerShare), url, api.QueryPrefix+api.QueryWhoami, name+": "+stamp+"\r\n", sent)
	}
	settled(t, conns, progressed, e.srv.bodies)
	// Those that sent bytes take their pieces once they arrive.
	for deadline := time.Now().Add(10 * time.Second); e.srv.bodies.inUse() < bound && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if held := e.srv.bodies.inUse(); held > bound {
		t.Errorf("%d stalled requests hold %d KiB of the members' budget, more than the %d KiB they sent, in whole pieces", conns, held>>10, bound>>10)
	}
	if st, code := whoamiStatusAt(t, e, url, e.keys["bob"]); st != http.StatusOK {
		t.Fatalf("bob's whoami while requests claiming alice's key stall: HTTP %d %s, want 200", st, code)
	}
}

// TestRequestsWaitingOnEachOtherDoNotWedge: two requests from one address
// each send the first 64 KiB of a 100 KiB body, which fills the address's
// 128 KiB share between them, then the rest: each needs more than is left,
// and would wait for the other until the wait (here a minute) ran out. The
// younger is answered BUSY at once instead, and the older is served.
func TestRequestsWaitingOnEachOtherDoNotWedge(t *testing.T) {
	e := newEnv(t)
	e.srv.bodies = newBodyBudget(peerShare*128<<10, time.Minute)
	body := append(whoamiBody(e.org.ID), bytes.Repeat([]byte(" "), 100<<10)...)
	name, stamp, err := e.keys["alice"].Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: vigil\r\n%s: %s\r\nContent-Length: %d\r\n\r\n", api.QueryPrefix+api.QueryWhoami, name, stamp, len(body))
	const part = 64 << 10
	var conns [2]net.Conn
	for i := range conns {
		c, err := net.Dial("tcp", strings.TrimPrefix(e.http.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns[i] = c
		if _, err := io.WriteString(c, head+string(body[:part])); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); e.srv.bodies.inUse() < int64(i+1)*part; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("request %d: the budget holds %d bytes, want %d", i, e.srv.bodies.inUse(), (i+1)*part)
			}
		}
	}
	statuses := make(chan string, len(conns))
	for _, c := range conns {
		go func() {
			c.Write(body[part:]) // the younger may be answered, and closed, first
			c.SetReadDeadline(time.Now().Add(20 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				statuses <- err.Error()
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			statuses <- fmt.Sprintf("%d %s", resp.StatusCode, b)
		}()
	}
	var got []string
	for range conns {
		got = append(got, <-statuses)
	}
	ok, busy := 0, 0
	for _, s := range got {
		switch {
		case strings.HasPrefix(s, "200 "):
			ok++
		case strings.HasPrefix(s, "503 ") && strings.Contains(s, "BUSY"):
			busy++
		}
	}
	if ok != 1 || busy != 1 {
		t.Fatalf("the two requests were answered %q; want one served and one 503 BUSY, at once", got)
	}
	for deadline := time.Now().Add(10 * time.Second); e.srv.bodies.inUse() != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the budget still holds %d bytes once both are answered", e.srv.bodies.inUse())
		}
	}
}

// TestExpiredKeysAreReadAsStrangers: a request stamped by an API key past
// its expiration is refused whatever its body (API_KEY_EXPIRED), as one by
// a key registered nowhere is, so its body is held within the strangers'
// budget, not the members': while the key is fresh, within the members'.
func TestExpiredKeysAreReadAsStrangers(t *testing.T) {
	e := newEnv(t)
	k := e.newKey("temp")
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "temp",
		APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex(), ExpirationSeconds: 60}}}); err != nil {
		t.Fatal(err)
	}
	name, stamp, err := k.Stamp(whoamiBody(e.org.ID))
	if err != nil {
		t.Fatal(err)
	}
	// stalledBody sends all but the last bytes of a 1 MiB body: the request
	// then holds the whole of it, within one budget or the other.
	held := func(what string) (members, strangers int64) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			members, strangers = e.srv.bodies.inUse(), e.srv.strangers.inUse()
			if members+strangers >= api.MaxRequestBodyBytes {
				return members, strangers
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the budgets hold %d and %d bytes, want 1 MiB in one of them", what, members, strangers)
			}
		}
	}
	fresh, _ := stalledBody(t, e.http.URL, api.QueryPrefix+api.QueryWhoami, name+": "+stamp+"\r\n", make(chan *http.Response, 1))
	if members, strangers := held("fresh"); members != api.MaxRequestBodyBytes || strangers != 0 {
		t.Fatalf("a body stamped by the fresh key: %d bytes in the members' budget and %d in the strangers', want all in the members'", members, strangers)
	}
	fresh.Close()
	for deadline := time.Now().Add(10 * time.Second); e.srv.bodies.inUse() != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the members' budget holds %d bytes once the connection closed", e.srv.bodies.inUse())
		}
	}
	e.skew.Store(int64(61 * time.Second))
	stalledBody(t, e.http.URL, api.QueryPrefix+api.QueryWhoami, name+": "+stamp+"\r\n", make(chan *http.Response, 1))
	if members, strangers := held("expired"); members != 0 || strangers != api.MaxRequestBodyBytes {
		t.Fatalf("a body stamped by the expired key: %d bytes in the members' budget and %d in the strangers', want all in the strangers'", members, strangers)
	}
}
