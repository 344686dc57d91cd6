package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A key set URL may carry a password or a token (user info, ?token=…): no
// error of a fetch names it, whichever way the fetch fails.
func TestFetchJWKSErrorsDoNotNameTheURLsSecrets(t *testing.T) {
	status := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusForbidden) }))
	defer status.Close()
	notJSON := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>")) }))
	defer notJSON.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://elsewhere.example/jwks", http.StatusFound)
	}))
	defer redirect.Close()
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close() // nothing listens there now
	for _, base := range []string{status.URL, notJSON.URL, redirect.URL, refused.URL} {
		for _, url := range []string{
			strings.Replace(base, "http://", "http://ops:pw-s3cr3t@", 1) + "/jwks",
			base + "/jwks?token=tok-s3cr3t",
			base + "/jwks#frag-s3cr3t",
		} {
			_, err := FetchJWKS(context.Background(), http.DefaultClient, url)
			if err == nil {
				t.Fatalf("%s: no error", url)
			}
			if strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("fetching %s failed naming its secret: %v", url, err)
			}
			if !strings.Contains(err.Error(), strings.TrimPrefix(base, "http://")) {
				t.Errorf("fetching %s failed without naming its host: %v", url, err)
			}
		}
	}
}
