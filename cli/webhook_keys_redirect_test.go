package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/webhook"
)

// docs/webhooks.md step 4: never follow a redirect when fetching the key set.
// `vigil webhook keys --json > jwks.json` makes the trust root of `webhook
// verify --jwks jwks.json`, so it must refuse a redirect as JWKSCache does,
// naming where it pointed, and never print the keys of the host it names.
func TestWebhookKeysRefusesRedirect(t *testing.T) {
	const attacker = `{"keys":[{"kid":"evil","kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","service_signature_algorithm":"ed25519","service_signature_version":"v1"}]}`
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, attacker)
	}))
	defer other.Close()
	target := other.URL + "/jwks\u202e"
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", target)
		w.WriteHeader(http.StatusFound)
	}))
	defer svc.Close()

	if _, err := webhook.NewJWKSCache(svc.URL, nil, nil).Key(context.Background(), "evil"); err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Fatalf("JWKSCache: %v, want a refused redirect", err)
	}
	for _, args := range [][]string{{"webhook", "keys", "--json", "--jwks", svc.URL}, {"webhook", "keys", "--jwks", svc.URL}} {
		code, out, errOut := runVigil(t, nil, "", args...)
		if code != 1 || strings.Contains(out, "evil") {
			t.Errorf("%v: exit %d, printed the redirect target's keys:\n%s\nstderr: %s", args, code, out, errOut)
		}
		if !strings.Contains(errOut, "redirect") || !strings.Contains(errOut, other.URL+"/jwks") {
			t.Errorf("%v: stderr %q does not say the set redirects to %s", args, errOut, other.URL)
		}
		if strings.Contains(errOut, "\u202e") {
			t.Errorf("%v: the Location reached the terminal raw: %q", args, errOut)
		}
	}
}
