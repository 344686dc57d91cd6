package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// An HTTP proxy that refuses the tunnel to the service (407: it wants a
// login; 403: it does not allow the host) is named with what to do, the
// query is not asked again (the proxy answers the same), a submit is said
// not sent, and the proxy's password is never shown.
func TestProxyRefusingTheTunnelSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		status int
		said   string // after the proxy's address
	}{
		{http.StatusProxyAuthRequired, " refused to connect to service.invalid (HTTP 407 Proxy Authentication Required); nothing was sent to service.invalid. The proxy wants a login: give it in HTTPS_PROXY/HTTP_PROXY (and their lower-case forms) as http://USER:PASSWORD@"},
		{http.StatusForbidden, " refused to connect to service.invalid (HTTP 403 Forbidden); nothing was sent to service.invalid. The proxy does not allow this host: ask its administrator to allow service.invalid, or add it to NO_PROXY if it needs no proxy"},
	} {
		var connects atomic.Int32
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodConnect {
				connects.Add(1)
			}
			w.WriteHeader(tc.status)
		}))
		defer proxy.Close()
		pu, err := url.Parse(proxy.URL)
		if err != nil {
			t.Fatal(err)
		}
		pu.User = url.UserPassword("ann", "s3cret-pw")
		key, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewClient("https://service.invalid", testOrg, key,
			WithHTTPClient(&http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}), WithRetryPolicy(3, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		want := "the HTTP proxy " + pu.Host + tc.said
		_, err = c.Whoami(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%d: query: %v\nwant %s", tc.status, err, want)
		}
		if n := connects.Load(); n != 1 {
			t.Errorf("%d: the query asked the proxy %d times, want once", tc.status, n)
		}
		_, err = c.CreateReadOnlySession(context.Background())
		if !errors.Is(err, ErrNotSent) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%d: submit: %v", tc.status, err)
		}
	}
}
