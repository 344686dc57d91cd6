package server

import (
	"cmp"
	"context"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
)

const (
	// defaultBodyBudget bounds the bytes of request bodies the service API
	// holds at once for registered credentials: 64 bodies of the largest
	// size, thousands of ordinary ones.
	defaultBodyBudget = 64 << 20
	// strangerBodyBudget is for bodies stamped by keys (or passkeys) that are
	// registered nowhere, apart: such a request is refused whatever its body
	// says, and is read only to refuse it exactly as before (a bad body's 400,
	// a bad signature's 401 ahead of the unknown key's), so those who can
	// make such stamps — anyone — cannot take the members' budget.
	strangerBodyBudget = 8 << 20
	// proxyBodyBudget is the auth proxy's, apart, so that its unauthenticated
	// callers cannot take the API's; its bodies are empty or {}, and it holds
	// at most maxProxyBody of each.
	proxyBodyBudget = 8 << 20
	// maxProxyBody is the most of an auth proxy body that is held: it is
	// an empty JSON object, and room for whitespace around it.
	maxProxyBody = 1 << 10
	// peerShare: one remote address (an IPv4 address, an IPv6 /64) holds at
	// most 1/peerShare of a budget at once, so no one peer can starve the rest.
	peerShare = 8
	// bodyChunk is the piece a body is held in: budget is taken a piece at a
	// time, once the piece's first byte has arrived, so a request holds what
	// its client has sent and less than one piece more. The 4,096
	// connections a port serves, one byte each, hold 32 MiB of pieces at
	// most: half the members' budget.
	bodyChunk = 8 << 10
	// bodyBudgetWait is how long a request waits for the budget for each
	// piece before it is answered 503: bodies are held for milliseconds by
	// clients that send them whole, and for up to ReadTimeout by clients that
	// stall.
	bodyBudgetWait = time.Second
)

// bodyBudget bounds the bytes of request bodies the service holds at once,
// whatever the number of connections. A request takes its body's bytes from
// it a piece at a time, as they arrive, through a bodyClaim, and gives them
// all back when it has been answered. One peer (remote address) holds at
// most perPeer of it. (A body of several pieces is joined once it has all
// arrived, so for that moment it is in memory twice, counted once: the bound
// on memory is twice the budget, briefly.)
//
// Waiting requests are served oldest first (by their first piece), but for a
// waiter held back only by its own peer's share, which lets the others by.
// Requests that each hold part of a body and wait for more could wait on one
// another until they all time out; instead a waiter never waits for a
// younger request that is itself waiting: when the oldest waiter would fit
// but for what younger waiters hold, they are answered BUSY at once and give
// back what they held (the younger of them first, and only those of its own
// peer when it is its peer's share it lacks). So the budget is only ever
// waited for on requests that are reading, whose read timeout ends them.
// It is safe for concurrent use.
type bodyBudget struct {
	limit   int64
	perPeer int64
	wait    time.Duration

	mu      sync.Mutex
	held    int64
	peers   map[netip.Addr]int64 // bytes held by each peer, those holding any
	waiters []*bodyClaim         // oldest first
	issued  uint64               // the last age given to a claim
}

func newBodyBudget(limit int64, wait time.Duration) *bodyBudget {
	return &bodyBudget{limit: limit, perPeer: limit / peerShare, wait: wait, peers: map[netip.Addr]int64{}}
}

// bodyClaim is one request's hold on a budget. Only the request's own
// goroutine uses it; its fields are guarded by b.mu. The nil claim holds
// nothing.
type bodyClaim struct {
	b    *bodyBudget
	peer netip.Addr
	age  uint64 // order of its first piece; 0 before it
	held int64

	// While it waits: what for, and how the wait ends.
	want    int64
	ready   chan struct{} // closed when granted or dropped
	dropped bool          // made way for an older waiter: answered BUSY
}

// errBusy is the answer to a request that found no budget in time.
var errBusy = &Error{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, ErrorCode: "BUSY", RetryAfter: 1,
	Message: "the service is reading as many request bodies as it may at once; retry in a second"}

// peerOf is the remote address a request's share of a budget is counted
// under: the IP address, or for IPv6 its /64, which one host commonly holds
// whole. An address that does not parse counts as one peer.
func peerOf(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	a := ap.Addr().Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
}

// claim is a new, empty hold on b for a request from peer.
func (b *bodyBudget) claim(peer netip.Addr) *bodyClaim {
	return &bodyClaim{b: b, peer: peer}
}

// acquire takes n more bytes (at most b.limit) for c, waiting for up to
// b.wait or until ctx ends; then, or when c makes way for an older waiter,
// it returns errBusy, and c should be released.
func (c *bodyClaim) acquire(ctx context.Context, n int64) error {
	b := c.b
	b.mu.Lock()
	if c.age == 0 {
		b.issued++
		c.age = b.issued
	}
	if len(b.waiters) == 0 && b.fits(c.peer, n) {
		b.take(c, n)
		b.mu.Unlock()
		return nil
	}
	c.want, c.ready, c.dropped = n, make(chan struct{}), false
	i, _ := slices.BinarySearchFunc(b.waiters, c.age, func(w *bodyClaim, age uint64) int { return cmp.Compare(w.age, age) })
	b.waiters = slices.Insert(b.waiters, i, c)
	b.grant() // c may be older than those waiting, or they may be held back by their peers
	b.mu.Unlock()

	timer := time.NewTimer(b.wait)
	defer timer.Stop()
	select {
	case <-c.ready:
	case <-timer.C:
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-c.ready: // granted or dropped, perhaps meanwhile
		if c.dropped {
			return errBusy
		}
		return nil
	default:
	}
	b.removeWaiter(c)
	b.grant() // those behind c may fit now
	return errBusy
}

// release gives back all that c holds, once the request is answered (or
// refused); a nil claim holds nothing.
func (c *bodyClaim) release() {
	if c == nil {
		return
	}
	b := c.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if c.held == 0 {
		return
	}
	b.giveBack(c)
	b.grant()
}

// fits reports whether peer may take n more bytes now; b.mu is held.
func (b *bodyBudget) fits(peer netip.Addr, n int64) bool {
	return b.held+n <= b.limit && b.peers[peer]+n <= b.perPeer
}

// take adds n bytes to what c holds; b.mu is held.
func (b *bodyBudget) take(c *bodyClaim, n int64) {
	b.held += n
	b.peers[c.peer] += n
	c.held += n
}

// giveBack returns all c holds to the budget; b.mu is held.
func (b *bodyBudget) giveBack(c *bodyClaim) {
	b.held -= c.held
	if left := b.peers[c.peer] - c.held; left > 0 {
		b.peers[c.peer] = left
	} else {
		delete(b.peers, c.peer)
	}
	c.held = 0
}

func (b *bodyBudget) removeWaiter(c *bodyClaim) {
	if i := slices.Index(b.waiters, c); i >= 0 {
		b.waiters = slices.Delete(b.waiters, i, i+1)
	}
}

// grant hands budget to waiters, oldest first, while it lasts. A waiter
// that lacks the budget's room stops the line; one that lacks only its
// peer's share is passed over (it waits for its own peer's bodies, not for
// the others').
// Either first has younger waiters give way, when that is enough; b.mu is
// held.
func (b *bodyBudget) grant() {
	var younger []youngerHeld // computed when first needed, again after drops
	for i := 0; i < len(b.waiters); {
		w := b.waiters[i]
		if !b.fits(w.peer, w.want) {
			if younger == nil {
				younger = b.youngerHeld()
			}
			if b.makeWay(w, i, younger[i]) {
				younger = nil
			}
		}
		if b.held+w.want > b.limit {
			return
		}
		if b.peers[w.peer]+w.want > b.perPeer {
			i++
			continue
		}
		b.waiters = slices.Delete(b.waiters, i, i+1)
		if younger != nil {
			younger = slices.Delete(younger, i, i+1) // those after w never counted it
		}
		b.take(w, w.want)
		close(w.ready)
	}
}

// youngerHeld is what the waiters younger than one hold: all of them, and
// those of its peer.
type youngerHeld struct{ all, ofPeer int64 }

// youngerHeld is, for each waiter, what the waiters after it hold; b.mu is
// held.
func (b *bodyBudget) youngerHeld() []youngerHeld {
	out := make([]youngerHeld, len(b.waiters))
	var all int64
	ofPeer := map[netip.Addr]int64{}
	for i := len(b.waiters) - 1; i >= 0; i-- {
		w := b.waiters[i]
		out[i] = youngerHeld{all: all, ofPeer: ofPeer[w.peer]}
		all += w.held
		if w.held > 0 {
			ofPeer[w.peer] += w.held
		}
	}
	return out
}

// makeWay drops younger waiters (those after index i) that hold part of a
// body, the youngest first, until w fits: first those of w's peer, while w
// lacks its peer's share, then any, while it lacks the budget's. It drops
// none unless that makes w fit, and reports whether it dropped any. b.mu is
// held.
func (b *bodyBudget) makeWay(w *bodyClaim, i int, younger youngerHeld) bool {
	peerShort := b.peers[w.peer] + w.want - b.perPeer
	short := b.held + w.want - b.limit
	if younger.ofPeer < peerShort || younger.all < short {
		return false
	}
	dropped := false
	drop := func(j int) {
		y := b.waiters[j]
		if y.peer == w.peer {
			peerShort -= y.held
		}
		short -= y.held
		b.giveBack(y)
		b.waiters = slices.Delete(b.waiters, j, j+1)
		y.dropped = true
		close(y.ready)
		dropped = true
	}
	for j := len(b.waiters) - 1; j > i && peerShort > 0; j-- {
		if y := b.waiters[j]; y.held > 0 && y.peer == w.peer {
			drop(j)
		}
	}
	for j := len(b.waiters) - 1; j > i && short > 0; j-- {
		if b.waiters[j].held > 0 {
			drop(j)
		}
	}
	return dropped
}

// inUse is the number of bytes held now.
func (b *bodyBudget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}
