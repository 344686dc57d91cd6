package webhook

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// MaxReplyHeaderBytes bounds the headers of a receiver's reply that the
// Deliverer reads, as maxReplyBodyBytes bounds its body: Go's default is
// 10 MiB per reply, held by each of up to Concurrency attempts. A reply with
// longer headers fails its attempt like a network error.
const MaxReplyHeaderBytes = 64 << 10

// maxReplyBodyBytes is how much of a reply's body is read (and dropped), so
// that the connection can be reused.
const maxReplyBodyBytes = 64 << 10

// deliveryClient is the Deliverer's own copy of client (nil: a plain
// client): it never follows a redirect, keeps no cookies, and, when its
// transport is an *http.Transport (another RoundTripper is the embedder's to
// bound), reads at most MaxReplyHeaderBytes of a reply's headers and sends
// nothing for this machine through a proxy.
func deliveryClient(client *http.Client) *http.Client {
	c := &http.Client{}
	if client != nil {
		*c = *client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	// Every organization's deliveries go out through this client: a cookie
	// one organization's receiver set must not be sent to another's on the
	// same host.
	c.Jar = nil
	rt := c.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	if t, ok := rt.(*http.Transport); ok {
		// A clone, so that the embedder's transport, perhaps shared, is
		// left as it was.
		t = t.Clone()
		t.MaxResponseHeaderBytes = MaxReplyHeaderBytes
		t.Proxy = directToLoopback(t.Proxy)
		c.Transport = t
	}
	return c
}

// directToLoopback wraps a transport's proxy choice so that a delivery to
// this machine (localhost in any case, with or without the root's trailing
// dot, or a loopback address) never goes through the proxy, which would
// deliver it to its own machine's loopback. Go's environment proxy skips
// only "localhost" spelt so and loopback IPs; a proxy an embedder names
// skips nothing.
func directToLoopback(proxy func(*http.Request) (*url.URL, error)) func(*http.Request) (*url.URL, error) {
	if proxy == nil {
		return nil
	}
	return func(r *http.Request) (*url.URL, error) {
		if isLoopbackHost(r.URL.Hostname()) {
			return nil, nil
		}
		return proxy(r)
	}
}

// isLoopbackHost reports whether a URL's host names this machine.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
