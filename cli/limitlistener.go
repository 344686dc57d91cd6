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
// that is idle — a keep-alive connection between requests, or a new one,
// that has sent nothing for idleGrace — of the address with the most
// connections, if that is the newcomer's own address or one with more
// connections than it: so connections that cost their holder nothing cannot
// keep anyone out, and the addresses that hold the most give way first. Idle
// is told by the HTTP server's ConnState (watch); without it no connection
// is idle. Only when no connection may give way does the newcomer wait for
// one to close (the connections behind it wait in the system's backlog).
type limitListener struct {
	net.Listener
	slots     chan struct{}
	perPeer   int
	closed    chan struct{} // closed by Close: a waiting Accept returns
	closeOnce sync.Once
	idled     chan struct{} // signalled when a connection becomes idle

	mu    sync.Mutex
	peers map[netip.Addr]int // open connections of each address that has any, newcomers included
	conns map[*limitConn]struct{}
}

// idleGrace is how long a connection must have been idle before it gives
// way to a newcomer: long enough for the server to read a request its client
// has just sent, short enough that a newcomer hardly notices.
const idleGrace = time.Second

func newLimitListener(ln net.Listener, n, perPeer int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), perPeer: perPeer,
		closed: make(chan struct{}), idled: make(chan struct{}, 1),
		peers: map[netip.Addr]int{}, conns: map[*limitConn]struct{}{}}
}

// watch has hs tell l which of its connections are idle, keeping hs's own
// ConnState hook; call it before hs serves.
func (l *limitListener) watch(hs *http.Server) {
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
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
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
		if err := l.takeSlot(peer); err != nil {
			l.mu.Lock()
			l.forget(peer)
			l.mu.Unlock()
			c.Close()
			return nil, err
		}
		lc := &limitConn{Conn: c, l: l, peer: peer}
		l.mu.Lock()
		l.conns[lc] = struct{}{}
		l.mu.Unlock()
		return lc, nil
	}
}

// takeSlot takes a slot for a newcomer from peer: a free one, else one an
// idle connection gives up, else the first one freed.
func (l *limitListener) takeSlot(peer netip.Addr) error {
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
		v, wait := l.victim(peer, time.Now())
		if v != nil {
			v.Close() // gives its slot back
			continue
		}
		// Until one may give way: a connection that becomes idle is
		// looked at only when none is idle yet, for one that is will give
		// way first.
		idled, idleLongEnough := l.idled, (<-chan time.Time)(nil)
		if wait > 0 {
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			idled, idleLongEnough = nil, timer.C
		}
		select {
		case l.slots <- struct{}{}:
			return nil
		case <-idled:
		case <-idleLongEnough:
		case <-l.closed:
			return net.ErrClosed
		}
	}
}

// victim is the idle connection that gives way to a newcomer from peer: of
// the address with the most connections, the one idle the longest, if that
// address is peer or has more connections than peer. It gives way only once
// it has been idle for idleGrace (what its client sent a moment ago may not
// have been read yet): until then victim is nil, and wait how long is left.
func (l *limitListener) victim(peer netip.Addr, now time.Time) (v *limitConn, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		if c.evicted || !c.idle() {
			continue
		}
		if c.peer != peer && l.peers[c.peer] <= l.peers[peer] {
			continue
		}
		if v == nil || l.peers[c.peer] > l.peers[v.peer] ||
			(l.peers[c.peer] == l.peers[v.peer] && c.since.Load() < v.since.Load()) {
			v = c
		}
	}
	if v == nil {
		return nil, 0
	}
	if wait := idleGrace - now.Sub(time.Unix(0, v.since.Load())); wait > 0 {
		return nil, wait
	}
	v.evicted = true
	return v, 0
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
	a := ta.AddrPort().Addr().Unmap()
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

// limitConn gives its slot back when it is closed, once.
type limitConn struct {
	net.Conn
	l       *limitListener
	peer    netip.Addr
	release sync.Once
	evicted bool // chosen to give way; guarded by l.mu

	// Set by the HTTP server's ConnState (watch) and by Read.
	waiting atomic.Bool  // between requests (StateNew, StateIdle)
	quiet   atomic.Bool  // nothing read since it began waiting
	since   atomic.Int64 // when it began waiting, in Unix nanoseconds
}

// idle reports whether the connection waits for a request of which it has
// read nothing: closing it loses no request (but one the client is sending
// at that very moment, as the server's idle timeout may).
func (c *limitConn) idle() bool { return c.waiting.Load() && c.quiet.Load() }

func (c *limitConn) setState(st http.ConnState) {
	switch st {
	case http.StateNew, http.StateIdle:
		c.since.Store(time.Now().UnixNano())
		c.quiet.Store(true)
		c.waiting.Store(true)
		select {
		case c.l.idled <- struct{}{}:
		default:
		}
	default:
		c.waiting.Store(false)
	}
}

func (c *limitConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && c.quiet.Load() {
		c.quiet.Store(false)
	}
	return n, err
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release.Do(func() {
		c.l.mu.Lock()
		c.l.forget(c.peer)
		delete(c.l.conns, c)
		c.l.mu.Unlock()
		<-c.l.slots
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
