package cli

import (
	"errors"
	"io"
	"net/http"
	"net/netip"
	"sync"
)

const (
	// deliveryBodyBudget bounds the bytes of delivery bodies a listener holds
	// at once, before and while they are verified: anyone who knows the
	// organization id (it travels in the clear) passes the header checks with
	// a made-up signature, so without it 4,096 connections could each hold
	// maxDeliveryBody. Sixteen bodies of the largest size, thousands of
	// ordinary activity objects (a few KiB each).
	deliveryBodyBudget = 64 << 20
	// deliveryPeerShare: one remote address (an IPv4 address, an IPv6 /64)
	// holds at most 1/deliveryPeerShare of the budget, so one forger cannot
	// take it all (it still holds two bodies of the largest size).
	deliveryPeerShare = 8
	// deliveryChunk is the piece a body is read in: budget is taken a piece
	// at a time, once the piece's first byte has arrived, so a connection
	// holds what its client has sent and less than one piece more.
	deliveryChunk = 32 << 10
)

// errBodyBudgetSpent: the listener is holding as many delivery bodies as it
// may; the request is answered 503 with Retry-After, and the service sends
// it again.
var errBodyBudgetSpent = errors.New("the listener is reading as many delivery bodies as it may at once; retry shortly")

// bodyBudget counts the bytes of delivery bodies held, in all and by peer.
// It never waits: a request that finds no room is answered 503 at once
// (the service retries), so no request holds part of a body waiting for
// another's. It is safe for concurrent use.
type bodyBudget struct {
	limit, perPeer int64

	mu    sync.Mutex
	held  int64
	peers map[netip.Addr]int64 // bytes held by each peer holding any
}

func newBodyBudget(limit int64) *bodyBudget {
	return &bodyBudget{limit: limit, perPeer: limit / deliveryPeerShare, peers: map[netip.Addr]int64{}}
}

// take reserves n bytes for peer, if there is room.
func (b *bodyBudget) take(peer netip.Addr, n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held+n > b.limit || b.peers[peer]+n > b.perPeer {
		return false
	}
	b.held += n
	b.peers[peer] += n
	return true
}

// give returns n bytes peer took.
func (b *bodyBudget) give(peer netip.Addr, n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.held -= n
	if left := b.peers[peer] - n; left > 0 {
		b.peers[peer] = left
	} else {
		delete(b.peers, peer)
	}
}

// readBody reads r's body, of at most limit bytes (more is an
// *http.MaxBytesError), under b. A body that does not arrive whole (cut off
// before its Content-Length: io.ErrUnexpectedEOF; the read timeout) is an
// error, never a shorter body. The returned release gives its bytes back
// once the request is answered; it is never nil.
func (b *bodyBudget) readBody(w http.ResponseWriter, r *http.Request, limit int64) (body []byte, release func(), err error) {
	peer := requestPeer(r)
	var held int64
	release = func() { b.give(peer, held) }
	src := http.MaxBytesReader(w, r.Body, limit)
	var pieces [][]byte
	total := 0
	for {
		var first [1]byte
		k, err := io.ReadFull(src, first[:])
		if k == 0 {
			if err == io.EOF {
				break
			}
			release()
			return nil, func() {}, err
		}
		size := max(1, min(deliveryChunk, limit-int64(total)))
		if !b.take(peer, size) {
			release()
			return nil, func() {}, errBodyBudgetSpent
		}
		held += size
		piece := make([]byte, size)
		piece[0] = first[0]
		n, err := fill(src, piece[1:])
		pieces = append(pieces, piece[:1+n])
		total += 1 + n
		if err == io.EOF {
			break
		}
		if err != nil {
			release()
			return nil, func() {}, err
		}
	}
	body = make([]byte, 0, total)
	for _, p := range pieces {
		body = append(body, p...)
	}
	return body, release, nil
}

// fill reads r into p until p is full (nil), the body ends (io.EOF) or the
// read fails. Unlike io.ReadFull it leaves the body's own errors as they
// are: a body cut off before its Content-Length is io.ErrUnexpectedEOF from
// net/http, which io.ReadFull would make indistinguishable from a body that
// ended within p.
func fill(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := r.Read(p[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// requestPeer is the remote address a request's share of the budget is
// counted under, as connPeer counts connections.
func requestPeer(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return peerOfAddr(ap.Addr())
}
