package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// localJWKS fetches the local service's key set: its reply (for the headers)
// and its body.
func localJWKS(t *testing.T, e *verbEnv) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(e.demo.URL + api.JWKSPath)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// servedJWKS answers with body as a key set, with the service's Cache-Control.
func servedJWKS(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", api.JWKSCacheControl)
		w.Write(body)
	}
}

// webhookKeysOf serves a key set with h and returns its URL and what
// `vigil webhook keys --jwks` prints for it, failing unless it exits 0.
func webhookKeysOf(t *testing.T, h http.HandlerFunc) (url, out string) {
	t.Helper()
	svc := httptest.NewServer(h)
	t.Cleanup(svc.Close)
	code, out, errOut := runVigil(t, nil, "", "webhook", "keys", "--jwks", svc.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	return svc.URL, out
}

// A key set with no usable key is refused by receivers (JWKSCache counts it
// as a failed fetch): `vigil webhook keys` must not say they keep it.
func TestWebhookKeysSaysAnUnusableSetIsRefused(t *testing.T) {
	_, out := webhookKeysOf(t, servedJWKS([]byte(`{"keys":[{"kty":"OKP","crv":"X25519","kid":"k1","alg":"ECDH","x":"AAAA"}]}`)))
	if strings.Contains(out, "receivers keep it") || !strings.Contains(out, "receivers refuse it") {
		t.Errorf("a set with no usable key, which receivers refuse, is not said to be refused:\n%s", out)
	}
}

// The lifetime is read from every Cache-Control line (and the largest Age):
// the "cache:" line must show all of them, so that an operator sees where a
// lifetime comes from. Served here: the local service's own key set, with a
// second line and a second Age, as a proxy may add.
func TestWebhookKeysCacheLineShowsEveryHeaderLine(t *testing.T) {
	_, body := localJWKS(t, newVerbEnv(t))
	_, out := webhookKeysOf(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Add("Cache-Control", "public, max-age=600")
		w.Header().Add("Cache-Control", "stale-if-error=3600")
		w.Header().Add("Age", "5")
		w.Header().Add("Age", "300")
		w.Write(body)
	})
	var line string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(l, "cache: ") {
			line = l
		}
	}
	for _, want := range []string{"max-age=600", "stale-if-error=3600", "5s", "300s"} {
		if !strings.Contains(line, want) {
			t.Errorf("the cache line does not show %q, which the lifetime is read from: %q (output:\n%s)", want, line, out)
		}
	}
}
