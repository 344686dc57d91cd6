package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// The auth proxy is another host (auth_proxy_url, possibly another
// operator's): its Date must not become the service's clock.
func TestServiceClockIgnoresTheAuthProxysDate(t *testing.T) {
	local := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = []string{local.Format(http.TimeFormat)}
		w.Write([]byte(`{}`))
	}))
	defer svc.Close()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = []string{local.Add(-200 * 24 * time.Hour).Format(http.TimeFormat)}
		w.Write([]byte(`{}`))
	}))
	defer proxy.Close()
	c, err := NewClient(svc.URL, "org", nil, WithClock(func() time.Time { return local }), WithAuthProxy(proxy.URL, "cfg"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.WalletKitConfig(context.Background())
	if skew, known := c.ClockSkew(); known || skew != 0 {
		t.Errorf("a reply from the auth proxy (%s), not the service (%s), set the service's clock skew to %v (known %v)",
			proxy.URL, svc.URL, skew, known)
	}
}

// Only the service's own replies set its clock: not a gateway's error page,
// not a reply that does not decode as the service's, not a cached reply (its
// Date is when it was made, Age how long it sat), not a Date years away. A
// service's own error reply does.
func TestServiceClockTakesOnlyTheServicesOwnFreshReplies(t *testing.T) {
	local := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var mode atomic.Value
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch mode.Load().(string) {
		case "gateway":
			w.Header()["Date"] = []string{local.Add(30 * 24 * time.Hour).Format(http.TimeFormat)}
			w.WriteHeader(http.StatusBadGateway)
			w.Write([]byte("<html>bad gateway</html>"))
		case "not json":
			w.Header()["Date"] = []string{local.Add(20 * 24 * time.Hour).Format(http.TimeFormat)}
			w.Write([]byte("<html>welcome to the captive portal</html>"))
		case "cached":
			w.Header()["Date"] = []string{local.Add(-6 * time.Hour).Format(http.TimeFormat)}
			w.Header().Set("Age", "21600")
			w.Header().Set("Cache-Control", "public, max-age=86400")
			w.Write([]byte(`{"keys":[]}`))
		case "year 9999":
			w.Header()["Date"] = []string{"Fri, 31 Dec 9999 23:59:59 GMT"}
			w.Write([]byte(`{"keys":[]}`))
		case "year 1":
			w.Header()["Date"] = []string{"Mon, 01 Jan 0001 00:00:00 GMT"}
			w.Write([]byte(`{"keys":[]}`))
		case "service error":
			w.Header()["Date"] = []string{local.Add(2 * time.Hour).Format(http.TimeFormat)}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"code":5,"message":"no such key set"}`))
		}
	}))
	defer svc.Close()
	c, err := NewClient(svc.URL, "org", nil, WithClock(func() time.Time { return local }), WithRetryPolicy(0, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"gateway", "not json", "cached", "year 9999", "year 1"} {
		mode.Store(m)
		_, _ = c.WebhookJWKS(context.Background())
		if skew, known := c.ClockSkew(); known || skew != 0 {
			t.Errorf("a reply (%s) that is not the service's own fresh word set the service's clock skew to %v", m, skew)
		}
	}
	mode.Store("service error")
	if _, err := c.WebhookJWKS(context.Background()); err == nil {
		t.Fatal("the service's 404 gave no error")
	}
	if skew, known := c.ClockSkew(); !known || skew < 2*time.Hour || skew > 2*time.Hour+time.Second {
		t.Errorf("the service's own error reply, Date 2 h ahead, gave skew %v (known %v); want about 2h", skew, known)
	}
}
