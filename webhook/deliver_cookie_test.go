package webhook

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// The service delivers every organization's events with one client. A
// cookie jar on the client an embedding program passes must not carry a
// cookie set by one organization's receiver to another organization's
// receiver on the same host.
func TestDelivererSendsNoCookieBetweenReceivers(t *testing.T) {
	var mu sync.Mutex
	cookies := map[string]string{} // path -> Cookie header received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		cookies[r.URL.Path] = r.Header.Get("Cookie")
		mu.Unlock()
		if r.URL.Path == "/org-a" {
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "org-a-secret", Path: "/"})
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ring, err := NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan Result, 1)
	d := NewDeliverer(ring, &http.Client{Jar: jar, Timeout: 10 * time.Second}, DelivererOptions{MaxAttempts: 1,
		OnResult: func(_ Event, r Result) { results <- r }})
	defer d.Close(context.Background())

	for _, org := range []string{"org-a", "org-b"} {
		if r := deliverOne(t, d, results, Event{OrgID: org, EventID: "e-" + org, URL: srv.URL + "/" + org, Body: []byte(`{}`)}); !r.Delivered {
			t.Fatalf("delivery to %s: %+v", org, r)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if c := cookies["/org-b"]; c != "" {
		t.Errorf("org-b's receiver got the cookie org-a's receiver set: Cookie: %s", c)
	}
}
