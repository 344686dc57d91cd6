package cli

import (
	"net"
	"net/netip"
	"sync"
)

// limitListener accepts at most cap(slots) connections at once: when they are
// all open, Accept waits for one to close (the others wait in the system's
// backlog), so that however many connections are opened, the service holds a
// bounded number of them, each bounded by the HTTP server's limits. One
// remote address (an IPv4 address, an IPv6 /64) holds at most perPeer of
// them: a further connection from it is closed as soon as it is accepted,
// so that one client cannot take every slot and make everyone else wait.
type limitListener struct {
	net.Listener
	slots     chan struct{}
	perPeer   int
	closed    chan struct{} // closed by Close: a waiting Accept returns
	closeOnce sync.Once

	mu    sync.Mutex
	peers map[netip.Addr]int // open connections of each address that has any
}

func newLimitListener(ln net.Listener, n, perPeer int) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), perPeer: perPeer,
		closed: make(chan struct{}), peers: map[netip.Addr]int{}}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		select {
		case l.slots <- struct{}{}:
		case <-l.closed:
			return nil, net.ErrClosed
		}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.slots
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
			<-l.slots
			continue
		}
		return &limitConn{Conn: c, l: l, peer: peer}, nil
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
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release.Do(func() {
		c.l.mu.Lock()
		if n := c.l.peers[c.peer] - 1; n > 0 {
			c.l.peers[c.peer] = n
		} else {
			delete(c.l.peers, c.peer)
		}
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
