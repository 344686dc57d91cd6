package api

import (
	"errors"
	"fmt"
	"net/http"
)

// An HTTP proxy that answers the CONNECT of an https:// request with
// anything but 200 (407 for a login it wants, 403 for a host it does not
// allow) reaches the caller from net/http as the bare status text, "Proxy
// Authentication Required", which names neither the proxy nor what to do.
// The client types it instead, by wrapping the transport: setting
// OnProxyConnectResponse would need a copy of it, and a copy per client is a
// connection pool per client that nothing closes, out of reach of the
// owner's CloseIdleConnections.

// proxyRefusedError is a proxy's refusal of the tunnel to the service.
type proxyRefusedError struct {
	proxy  string // host:port
	status int
	text   string // the proxy's own reason phrase
}

func (e *proxyRefusedError) Error() string {
	return fmt.Sprintf("proxy %s answered CONNECT with HTTP %d %s", e.proxy, e.status, e.text)
}

// typedProxyRefusals returns rt, an *http.Transport (nil: the default one),
// wrapped so that a proxy's refusal of a tunnel comes back as a
// *proxyRefusedError; any other RoundTripper, or a transport with a hook of
// its own, as it is. The transport itself is used as given, never copied.
func typedProxyRefusals(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	tr, ok := rt.(*http.Transport)
	if !ok || tr.OnProxyConnectResponse != nil {
		return rt
	}
	return proxyRefusalTyping{tr}
}

// proxyRefusalTyping is a transport whose proxy refusals are typed.
type proxyRefusalTyping struct{ tr *http.Transport }

func (p proxyRefusalTyping) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := p.tr.RoundTrip(req)
	if err == nil || req.URL.Scheme != "https" || p.tr.Proxy == nil {
		return resp, err
	}
	status, ok := connectRefusalStatus(err)
	if !ok {
		return resp, err
	}
	proxy, perr := p.tr.Proxy(req)
	if perr != nil || proxy == nil {
		return resp, err
	}
	return nil, &proxyRefusedError{proxy: proxy.Host, status: status, text: err.Error()}
}

// CloseIdleConnections reaches the wrapped transport, for http.Client's.
func (p proxyRefusalTyping) CloseIdleConnections() { p.tr.CloseIdleConnections() }

// connectRefusalStatus is the status of net/http's error for a CONNECT
// answered with other than 200: a plain error whose text is the proxy's
// reason phrase and nothing else. Only the standard phrases are recognised
// (a proxy's own wording stays the bare text it was); no error of a dial,
// of TLS or of a reply is a plain error worded as a status.
func connectRefusalStatus(err error) (int, bool) {
	if fmt.Sprintf("%T", err) != "*errors.errorString" {
		return 0, false
	}
	for status := 400; status < 600; status++ {
		if text := http.StatusText(status); text != "" && text == err.Error() {
			return status, true
		}
	}
	return 0, false
}

// proxyRefusedMessage words a proxy's refusal of the tunnel to host, with
// what to do for the usual refusals. Only the proxy's address is shown,
// never its URL, which may hold a password.
func proxyRefusedMessage(host string, e *proxyRefusedError) string {
	proxy := SanitizeID(ClipBytes(e.proxy, maxNameLen))
	const check = "HTTPS_PROXY/HTTP_PROXY (and their lower-case forms)"
	what := fmt.Sprintf("the HTTP proxy %s refused to connect to %s (HTTP %d %s); nothing was sent to %s", proxy, host, e.status, Sanitize(ClipBytes(e.text, 80)), host)
	switch e.status {
	case http.StatusProxyAuthRequired:
		return what + ". The proxy wants a login: give it in " + check + " as http://USER:PASSWORD@" + proxy + ", or add " + host + " to NO_PROXY if it needs no proxy"
	case http.StatusForbidden:
		return what + ". The proxy does not allow this host: ask its administrator to allow " + host + ", or add it to NO_PROXY if it needs no proxy"
	}
	return what + ". Check " + check + " and the proxy, or add " + host + " to NO_PROXY if it needs no proxy"
}

// proxyRefused reports a proxy's refusal of the tunnel, which asking again
// gets again.
func proxyRefused(err error) bool {
	var refused *proxyRefusedError
	return errors.As(err, &refused)
}
