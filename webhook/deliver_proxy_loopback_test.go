package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// docs/webhooks.md promises that a delivery to localhost or a loopback
// address reaches this machine directly, never through a proxy: a proxy
// would deliver it to its own machine's loopback instead, which the root
// quorum could otherwise not reach. Go's environment proxy skips only
// "localhost" spelt so and loopback IPs, and a proxy the embedder's client
// names skips nothing; a host spelt LOCALHOST or localhost. (which the
// webhook URL rule accepts) must not go through it either. Whether
// localhost. resolves depends on the machine's resolver, so of it only
// that the proxy never sees it is checked.
func TestDelivererNeverSendsLoopbackThroughAProxy(t *testing.T) {
	var direct, proxied atomic.Int32
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		direct.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		http.Error(w, "the proxy's own machine", http.StatusBadGateway)
	}))
	defer proxy.Close()
	proxyURL, err := url.Parse(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	port := receiver.URL[strings.LastIndex(receiver.URL, ":")+1:]

	for _, host := range []string{"localhost", "LOCALHOST", "localhost.", "Localhost.", "127.0.0.1", "[::ffff:127.0.0.1]"} {
		t.Run(host, func(t *testing.T) {
			ring, err := NewKeyRing()
			if err != nil {
				t.Fatal(err)
			}
			results := make(chan Result, 1)
			client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
			d := NewDeliverer(ring, client, DelivererOptions{MaxAttempts: 1, AttemptTimeout: 10 * time.Second,
				OnResult: func(_ Event, r Result) { results <- r }})
			defer d.Close(context.Background())
			direct.Store(0)
			proxied.Store(0)
			r := deliverOne(t, d, results, Event{OrgID: "org-1", EventID: "e1", URL: "http://" + host + ":" + port + "/hook", Body: []byte(`{}`)})
			if strings.HasSuffix(host, ".") {
				if proxied.Load() != 0 {
					t.Errorf("delivery to %s went through the proxy (%d requests); want it dialled directly", host, proxied.Load())
				}
				return
			}
			if !r.Delivered || direct.Load() != 1 || proxied.Load() != 0 {
				t.Errorf("delivery to %s: delivered %v (HTTP %d, %v), %d direct, %d through the proxy; want it delivered directly, none through the proxy",
					host, r.Delivered, r.StatusCode, r.Err, direct.Load(), proxied.Load())
			}
		})
	}
}
