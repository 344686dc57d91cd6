package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// An HTTP proxy that answers the CONNECT of an https:// request with
// anything but 200 (407 for a login it wants, 403 for a host it does not
// allow) reaches the caller from net/http as the bare status text, "Proxy
// Authentication Required", which names neither the proxy nor what to do.
// The client's transport types it instead (OnProxyConnectResponse).

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
// as a copy that reports a proxy's refusal of a tunnel as a
// *proxyRefusedError; any other RoundTripper, or a transport with a hook of
// its own, as it is.
func typedProxyRefusals(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	tr, ok := rt.(*http.Transport)
	if !ok || tr.OnProxyConnectResponse != nil {
		return rt
	}
	tr = tr.Clone()
	tr.OnProxyConnectResponse = func(_ context.Context, proxy *url.URL, _ *http.Request, resp *http.Response) error {
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		text := http.StatusText(resp.StatusCode)
		if _, reason, ok := strings.Cut(resp.Status, " "); ok && reason != "" {
			text = reason
		}
		return &proxyRefusedError{proxy: proxy.Host, status: resp.StatusCode, text: text}
	}
	return tr
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
