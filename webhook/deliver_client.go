package webhook

import "net/http"

// MaxReplyHeaderBytes bounds the headers of a receiver's reply that the
// Deliverer reads, as maxReplyBodyBytes bounds its body: Go's default is
// 10 MiB per reply, held by each of up to Concurrency attempts. A reply with
// longer headers fails its attempt like a network error.
const MaxReplyHeaderBytes = 64 << 10

// maxReplyBodyBytes is how much of a reply's body is read (and dropped), so
// that the connection can be reused.
const maxReplyBodyBytes = 64 << 10

// deliveryClient is the Deliverer's own copy of client (nil: a plain
// client): it never follows a redirect, keeps no cookies, and reads at most
// MaxReplyHeaderBytes of a reply's headers when its transport is an
// *http.Transport (another RoundTripper is the embedder's to bound).
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
		c.Transport = t
	}
	return c
}
