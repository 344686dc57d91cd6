package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/netip"
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
	// bodyBudgetWait is how long a request waits for budget before it is
	// answered 503: bodies are held for milliseconds by clients that send them
	// whole, and for up to ReadTimeout by clients that stall.
	bodyBudgetWait = time.Second
)

// bodyBudget bounds the bytes of request bodies the service holds at once,
// whatever the number of connections: each request reserves its body's
// size before reading it and gives it back when it has been answered. One
// peer (remote address) holds at most perPeer of it. Reservations are
// granted in arrival order, but for a waiter held back only by its own
// peer's share, which lets the others by. It is safe for concurrent use.
type bodyBudget struct {
	limit   int64
	perPeer int64
	wait    time.Duration

	mu      sync.Mutex
	held    int64
	peers   map[netip.Addr]int64 // bytes held by each peer, those holding any
	waiters []*bodyWaiter        // in arrival order
}

type bodyWaiter struct {
	n     int64
	peer  netip.Addr
	ready chan struct{} // closed when granted
}

func newBodyBudget(limit int64, wait time.Duration) *bodyBudget {
	return &bodyBudget{limit: limit, perPeer: limit / peerShare, wait: wait, peers: map[netip.Addr]int64{}}
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

// fits reports whether peer may take n more bytes now; b.mu is held.
func (b *bodyBudget) fits(peer netip.Addr, n int64) bool {
	return b.held+n <= b.limit && b.peers[peer]+n <= b.perPeer
}

// acquire reserves n bytes (at most limit) for peer, waiting for up to
// b.wait or until ctx ends; then it returns errBusy.
func (b *bodyBudget) acquire(ctx context.Context, peer netip.Addr, n int64) error {
	b.mu.Lock()
	if len(b.waiters) == 0 && b.fits(peer, n) {
		b.held += n
		b.peers[peer] += n
		b.mu.Unlock()
		return nil
	}
	w := &bodyWaiter{n: n, peer: peer, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.grant() // the waiters ahead may all be held back by their own peers' shares
	b.mu.Unlock()

	timer := time.NewTimer(b.wait)
	defer timer.Stop()
	select {
	case <-w.ready:
		return nil
	case <-timer.C:
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted meanwhile
		return nil
	default:
	}
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			break
		}
	}
	b.grant() // a large reservation leaving may let smaller ones behind it in
	return errBusy
}

// release gives back n bytes reserved by acquire for peer.
func (b *bodyBudget) release(peer netip.Addr, n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.held -= n
	if left := b.peers[peer] - n; left > 0 {
		b.peers[peer] = left
	} else {
		delete(b.peers, peer)
	}
	b.grant()
	b.mu.Unlock()
}

// grant hands budget to waiters in order while it lasts, passing over those
// whose peer holds its share already (they wait for their own peer's
// bodies, not for the others'); b.mu is held.
func (b *bodyBudget) grant() {
	kept := b.waiters[:0]
	for i, w := range b.waiters {
		if b.held+w.n > b.limit {
			kept = append(kept, b.waiters[i:]...) // the first in line for the budget
			break
		}
		if b.peers[w.peer]+w.n > b.perPeer {
			kept = append(kept, w) // waits for its own peer, not for the others
			continue
		}
		b.held += w.n
		b.peers[w.peer] += w.n
		close(w.ready)
	}
	clear(b.waiters[len(kept):])
	b.waiters = kept
}

// inUse is the number of bytes reserved now.
func (b *bodyBudget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// bodyHold is a body's reservation: release it once the request is answered.
// The zero bodyHold holds nothing.
type bodyHold struct {
	b    *bodyBudget
	peer netip.Addr
	n    int64
}

func (h bodyHold) release() {
	if h.n > 0 {
		h.b.release(h.peer, h.n)
	}
}

// readBody reads the body, at most api.MaxRequestBodyBytes (more is a 413),
// holding budget for it. A body without a declared length (chunked)
// reserves the most a body may be.
func readBody(w http.ResponseWriter, r *http.Request, budget *bodyBudget) ([]byte, bodyHold, error) {
	return readBodyUpTo(w, r, budget, api.MaxRequestBodyBytes)
}

// readBodyUpTo is readBody for a body that is held only up to keep bytes
// (at most api.MaxRequestBodyBytes): a longer one is read to its end and
// discarded, as discardBody does, and answered errBodyOverKeep.
func readBodyUpTo(w http.ResponseWriter, r *http.Request, budget *bodyBudget, keep int64) (body []byte, hold bodyHold, err error) {
	n := r.ContentLength
	if n > keep {
		// Refused whatever it holds: read only to answer as before (413,
		// or a 400 if it breaks off first), without keeping any of it.
		if err := discardBody(w, r); err != nil {
			return nil, bodyHold{}, err
		}
		return nil, bodyHold{}, errBodyOverKeep
	}
	reserved := n
	if n < 0 {
		reserved = keep
	}
	if reserved > 0 {
		hold = bodyHold{b: budget, peer: peerOf(r), n: reserved}
		if err := budget.acquire(r.Context(), hold.peer, reserved); err != nil {
			return nil, bodyHold{}, err
		}
	}
	if n >= 0 {
		// The declared length, no more: net/http ends the body there.
		body = make([]byte, n)
		_, err = io.ReadFull(r.Body, body)
	} else if keep == api.MaxRequestBodyBytes {
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, keep))
	} else {
		body, err = io.ReadAll(io.LimitReader(r.Body, keep+1))
		if err == nil && int64(len(body)) > keep {
			hold.release()
			if err := discardRest(w, r, int64(len(body))); err != nil {
				return nil, bodyHold{}, err
			}
			return nil, bodyHold{}, errBodyOverKeep
		}
	}
	if err != nil {
		hold.release()
		return nil, bodyHold{}, bodyReadError(err)
	}
	return body, hold, nil
}

// errBodyOverKeep is readBodyUpTo's answer to a body longer than it keeps,
// read to its end: the caller says what it makes of it.
var errBodyOverKeep = errors.New("the body is longer than is kept")

// discardBody reads the body to its end, or past api.MaxRequestBodyBytes,
// keeping none of it, for a request refused whatever its body says: the
// answer is what readBody's would be if the body cannot be read (413, 400),
// without the memory.
func discardBody(w http.ResponseWriter, r *http.Request) error { return discardRest(w, r, 0) }

// discardRest is discardBody for a body of which read bytes (at most
// api.MaxRequestBodyBytes) have been read already.
func discardRest(w http.ResponseWriter, r *http.Request, read int64) error {
	_, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, api.MaxRequestBodyBytes-read))
	if err != nil {
		return bodyReadError(err)
	}
	return nil
}

func bodyReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(api.MaxRequestBodyBytes)
	}
	return invalidf("BAD_BODY", "could not read the request body: %v", err)
}
