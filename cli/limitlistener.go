package cli

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// limitListener serves at most cap(slots) connections at once, so that
// however many connections are opened, the service holds a bounded number of
// them, each bounded by the HTTP server's limits. One remote address (an IPv4
// address, an IPv6 /64) holds at most perPeer of them: a further connection
// from it is closed as soon as it is accepted.
//
// When every slot is taken, a newcomer is served in place of a connection
// that waits for a request — a keep-alive connection between requests, or a
// new one — and has sent nothing for idleGrace, or has waited longer than
// the server's header timeout (stallGrace) and sent nothing for idleGrace:
// of the address with the most connections, if that is the newcomer's own
// address or one with more connections than it. So connections that cost
// their holder nothing, or a few bytes, cannot keep anyone out, and the
// addresses that hold the most give way first. Waiting is told by the HTTP
// server's ConnState (watch); without it no connection gives way. A newcomer
// no connection may give way to yet waits aside, off the accept loop, so the
// newcomers behind it are still served; at most maxWaiting wait so, at most
// maxWaitingPerPeer of one address, and a further one is closed.
type limitListener struct {
	net.Listener
	slots      chan struct{}
	perPeer    int
	stallGrace time.Duration // set by watch from the server's header timeout
	closed     chan struct{} // closed by Close: waiting newcomers give up
	closeOnce  sync.Once
	startOnce  sync.Once
	accepted   chan accepted // to Accept, from the accept loop and waiting newcomers
	waiters    atomic.Int32  // newcomers in takeSlot: setState tells them of idle connections

	mu       sync.Mutex
	peers    map[netip.Addr]int // open connections of each address that has any, newcomers included
	conns    map[*limitConn]struct{}
	idled    chan struct{}      // closed, and replaced, when a connection begins waiting
	waiting  map[netip.Addr]int // newcomers waiting aside, by address
	nWaiting int
}

type accepted struct {
	c   net.Conn
	err error
}

const (
	// idleGrace is how long a connection must have sent nothing before it
	// gives way to a newcomer: long enough for the server to read a request
	// its client has just sent, short enough that a newcomer hardly notices.
	idleGrace = time.Second
	// defaultStallGrace is stallGrace for a server without a header timeout.
	defaultStallGrace = 10 * time.Second
	// maxWaiting and maxWaitingPerPeer bound the newcomers waiting aside for
	// a slot, each a goroutine and a connection.
	maxWaiting        = 256
	maxWaitingPerPeer = 4
)

func newLimitListener(ln net.Listener, n, perPeer int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), perPeer: perPeer,
		stallGrace: defaultStallGrace, closed: make(chan struct{}), accepted: make(chan accepted),
		peers: map[netip.Addr]int{}, conns: map[*limitConn]struct{}{},
		idled: make(chan struct{}), waiting: map[netip.Addr]int{}}
}

// watch has hs tell l which of its connections wait for a request, keeping
// hs's own ConnState hook; call it before hs serves. A connection that has
// waited longer than hs's header timeout is stalling: after 1 to 3 bytes of
// a next request, net/http waits for the rest up to its idle timeout.
func (l *limitListener) watch(hs *http.Server) {
	if hs.ReadHeaderTimeout > 0 {
		l.stallGrace = hs.ReadHeaderTimeout
	}
	next := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		if lc, ok := c.(*limitConn); ok && lc.l == l {
			lc.setState(st)
		}
		if next != nil {
			next(c, st)
		}
	}
}

func (l *limitListener) Accept() (net.Conn, error) {
	l.startOnce.Do(func() { go l.acceptLoop() })
	select {
	case a := <-l.accepted:
		return a.c, a.err
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

// acceptLoop accepts connections and hands those that get a slot to Accept;
// a newcomer that cannot have one at once waits for it aside (waitAside).
func (l *limitListener) acceptLoop() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if !l.deliver(accepted{err: err}) {
				return
			}
			continue
		}
		peer := connPeer(c)
		l.mu.Lock()
		full := l.peers[peer] >= l.perPeer
		if !full {
			l.peers[peer]++
		}
		l.mu.Unlock()
		if full {
			c.Close()
			continue
		}
		if l.slotNow(peer) {
			l.deliver(accepted{c: l.adopt(c, peer)})
			continue
		}
		l.waitAside(c, peer)
	}
}

// waitAside has the newcomer c wait for a slot in a goroutine of its own, or
// closes it if too many newcomers wait already.
func (l *limitListener) waitAside(c net.Conn, peer netip.Addr) {
	l.mu.Lock()
	mayWait := l.nWaiting < maxWaiting && l.waiting[peer] < maxWaitingPerPeer
	if mayWait {
		l.nWaiting++
		l.waiting[peer]++
	} else {
		l.forget(peer)
	}
	l.mu.Unlock()
	if !mayWait {
		c.Close()
		return
	}
	go func() {
		err := l.takeSlot(peer)
		l.mu.Lock()
		l.nWaiting--
		if n := l.waiting[peer] - 1; n > 0 {
			l.waiting[peer] = n
		} else {
			delete(l.waiting, peer)
		}
		if err != nil {
			l.forget(peer)
		}
		l.mu.Unlock()
		if err != nil {
			c.Close()
			return
		}
		l.deliver(accepted{c: l.adopt(c, peer)})
	}()
}

// deliver hands a to Accept; once l is closed it closes a's connection
// instead and reports false.
func (l *limitListener) deliver(a accepted) bool {
	select {
	case l.accepted <- a:
		return true
	case <-l.closed:
		if a.c != nil {
			a.c.Close()
		}
		return false
	}
}

// adopt is the connection c, from peer, that holds a slot.
func (l *limitListener) adopt(c net.Conn, peer netip.Addr) *limitConn {
	lc := &limitConn{Conn: c, l: l, peer: peer}
	l.mu.Lock()
	l.conns[lc] = struct{}{}
	l.mu.Unlock()
	return lc
}

// slotNow takes a slot for a newcomer from peer if one is free or a
// connection gives way to it now.
func (l *limitListener) slotNow(peer netip.Addr) bool {
	select {
	case l.slots <- struct{}{}:
		return true
	default:
	}
	taken, _, _, _ := l.giveWay(peer, time.Now())
	return taken
}

// takeSlot takes a slot for a newcomer from peer: a free one, else one a
// connection gives way with, else the first one freed.
func (l *limitListener) takeSlot(peer netip.Addr) error {
	l.waiters.Add(1)
	defer l.waiters.Add(-1)
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case l.slots <- struct{}{}:
			return nil
		default:
		}
		taken, wait, soon, idled := l.giveWay(peer, time.Now())
		if taken {
			return nil
		}
		// Until one may give way: a connection that begins waiting is
		// looked at unless one gives way within idleGrace anyway.
		var timerC <-chan time.Time
		if wait > 0 {
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			timerC = timer.C
		}
		if soon {
			idled = nil
		}
		select {
		case l.slots <- struct{}{}:
			return nil
		case <-idled:
		case <-timerC:
		case <-l.closed:
			return net.ErrClosed
		}
	}
}

// giveWay closes the connection that gives way to a newcomer from peer, if
// one may now, and hands its slot to the newcomer (taken). Of the waiting
// connections that may give way within idleGrace, it is the one of the
// address with the most connections, idle the longest, if that address is
// peer or has more connections than peer. Otherwise wait is how long until
// one may (0: none waits), soon whether that is within idleGrace, and idled
// is closed when a connection begins waiting.
func (l *limitListener) giveWay(peer netip.Addr, now time.Time) (taken bool, wait time.Duration, soon bool, idled <-chan struct{}) {
	l.mu.Lock()
	var v *limitConn
	var vAt time.Time
	for c := range l.conns {
		if c.evicted || !c.waiting.Load() {
			continue
		}
		if c.peer != peer && l.peers[c.peer] <= l.peers[peer] {
			continue
		}
		at := c.givesWayAt(l.stallGrace)
		if d := at.Sub(now); d > idleGrace { // stalling, not for long enough yet
			if wait == 0 || d < wait {
				wait = d
			}
			continue
		}
		if v == nil || l.peers[c.peer] > l.peers[v.peer] ||
			(l.peers[c.peer] == l.peers[v.peer] && c.since.Load() < v.since.Load()) {
			v, vAt = c, at
		}
	}
	idled = l.idled
	if v == nil {
		l.mu.Unlock()
		return false, wait, false, idled
	}
	if d := vAt.Sub(now); d > 0 {
		l.mu.Unlock()
		return false, d, true, idled
	}
	v.evicted = true // its slot is the newcomer's (Close keeps it taken)
	l.mu.Unlock()
	v.Close()
	return true, 0, false, nil
}

// forget counts one connection of peer less; l.mu is held.
func (l *limitListener) forget(peer netip.Addr) {
	if n := l.peers[peer] - 1; n > 0 {
		l.peers[peer] = n
	} else {
		delete(l.peers, peer)
	}
}

// connPeer is the address a connection counts against: its remote IP
// address, or for IPv6 its /64, which one host commonly holds whole.
func connPeer(c net.Conn) netip.Addr {
	ta, ok := c.RemoteAddr().(*net.TCPAddr)
	if !ok {
		return netip.Addr{}
	}
	return peerOfAddr(ta.AddrPort().Addr())
}

// peerOfAddr is the peer an address counts as: itself, or for IPv6 its /64.
func peerOfAddr(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// limitConn gives its slot back when it is closed, once, unless it gave
// way to a newcomer, which then holds it.
type limitConn struct {
	net.Conn
	l       *limitListener
	peer    netip.Addr
	release sync.Once
	evicted bool // chosen to give way; guarded by l.mu

	// Set by the HTTP server's ConnState (watch) and by Read.
	waiting atomic.Bool  // waits for a request (StateNew, StateIdle)
	since   atomic.Int64 // when it began waiting, in Unix nanoseconds
	heard   atomic.Int64 // when it last read anything since, in Unix nanoseconds; 0 for nothing
}

// givesWayAt is when the waiting connection may give way to a newcomer:
// idleGrace after it began waiting if it has read nothing since (closing it
// loses no request, but one its client is sending at that very moment, as
// the server's idle timeout may), else once it has waited stallGrace and
// read nothing for idleGrace (a client that has not sent a request's headers
// by then is stalling, but one sending right now is given its second).
func (c *limitConn) givesWayAt(stallGrace time.Duration) time.Time {
	since := time.Unix(0, c.since.Load())
	heard := c.heard.Load()
	if heard == 0 {
		return since.Add(idleGrace)
	}
	at := time.Unix(0, heard).Add(idleGrace)
	if stalled := since.Add(stallGrace); stalled.After(at) {
		at = stalled
	}
	return at
}

func (c *limitConn) setState(st http.ConnState) {
	switch st {
	case http.StateNew, http.StateIdle:
		c.since.Store(time.Now().UnixNano())
		c.heard.Store(0)
		c.waiting.Store(true)
		// Newcomers waiting for a slot look again (waiting is stored
		// first: one that begins waiting after this load sees it).
		if c.l.waiters.Load() > 0 {
			c.l.mu.Lock()
			close(c.l.idled)
			c.l.idled = make(chan struct{})
			c.l.mu.Unlock()
		}
	default:
		c.waiting.Store(false)
	}
}

func (c *limitConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.waiting.Load() {
		c.heard.Store(time.Now().UnixNano())
	}
	return n, err
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release.Do(func() {
		c.l.mu.Lock()
		c.l.forget(c.peer)
		delete(c.l.conns, c)
		handedOver := c.evicted
		c.l.mu.Unlock()
		if !handedOver {
			<-c.l.slots
		}
	})
	return err
}

// CloseWrite is the TCP connection's: net/http half-closes a connection
// before closing it when the client may still be sending (a refused body),
// so that the client reads the reply instead of a reset.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
