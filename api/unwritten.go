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
// error or its own timeout, not the dialer's.

// unwrittenError is the error of an attempt that wrote nothing; its text is
// err's.
type unwrittenError struct{ err error }

func (e *unwrittenError) Error() string { return e.err.Error() }
func (e *unwrittenError) Unwrap() error { return e.err }

// traceWrites returns req with a trace that records whether its headers
// were written to a connection.
func traceWrites(req *http.Request) (*http.Request, *atomic.Bool) {
	wrote := new(atomic.Bool)
	trace := &httptrace.ClientTrace{
		WroteHeaders: func() { wrote.Store(true) },
		WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) },
	}
	return req.WithContext(httptrace.WithClientTrace(req.Context(), trace)), wrote
}

// isTLSHandshakeTimeout reports net/http's TLS handshake timeout (the
// transport's TLSHandshakeTimeout, 10 s by default), which it does not
// export.
func isTLSHandshakeTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout() && strings.Contains(netErr.Error(), "TLS handshake timeout")
}
