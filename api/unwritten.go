package api

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
)

// A request whose headers never went out (still dialing, still in the TLS
// handshake, cancelled before it was written) cannot have reached the
// service, whatever error ended it: net/http then reports the context's
// error or its own timeout, not the dialer's. Only net/http's Transport
// fires the trace, and only on the request's own context: a RoundTripper
// passed with WithHTTPClient (a relay, one that re-issues the request on
// another context) may write without a word, so silence proves nothing
// unless the trace was heard getting a connection.

// unwrittenError is the error of an attempt that wrote nothing; its text is
// err's.
type unwrittenError struct{ err error }

func (e *unwrittenError) Error() string { return e.err.Error() }
func (e *unwrittenError) Unwrap() error { return e.err }

// writeTrace is what a request's trace heard.
type writeTrace struct {
	live  atomic.Bool // the transport asked for a connection: it traces this request
	wrote atomic.Bool // its headers were written to a connection
}

// unwritten reports whether the trace shows the request was not written:
// it was live, and heard no write.
func (t *writeTrace) unwritten() bool { return t.live.Load() && !t.wrote.Load() }

// traceWrites returns req with a trace that records whether its headers
// were written to a connection.
func traceWrites(req *http.Request) (*http.Request, *writeTrace) {
	t := new(writeTrace)
	trace := &httptrace.ClientTrace{
		GetConn:      func(string) { t.live.Store(true) },
		WroteHeaders: func() { t.wrote.Store(true) },
		WroteRequest: func(httptrace.WroteRequestInfo) { t.wrote.Store(true) },
	}
	return req.WithContext(httptrace.WithClientTrace(req.Context(), trace)), t
}

// isTLSHandshakeTimeout reports net/http's TLS handshake timeout (the
// transport's TLSHandshakeTimeout, 10 s by default), which it does not
// export.
func isTLSHandshakeTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout() && strings.Contains(netErr.Error(), "TLS handshake timeout")
}
