package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"
)

// --recover reads the login's API key to learn when it expires. A reply
// about another key (a proxy's, here one living ten years) must not give the
// saved key that key's expiry: it is refused and the expiry estimated, with
// the warning saying why.
func TestRecoverDoesNotTakeTheExpiryOfAnotherKey(t *testing.T) {
	e := newVerbEnv(t)
	const otherKey, tenYears = "01a22aec-0000-7000-8000-00000000beef", 315360000
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/public/v1/submit/oauth": // recorded and completed, but the reply is lost
			proxy.ServeHTTP(httptest.NewRecorder(), r)
			http.Error(w, "bad gateway", http.StatusBadGateway)
		case "/public/v1/query/get_api_key": // another key's record
			rec := httptest.NewRecorder()
			proxy.ServeHTTP(rec, r)
			var reply map[string]map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil || reply["apiKey"] == nil {
				t.Errorf("get_api_key reply: %v %s", err, rec.Body.String())
				return
			}
			reply["apiKey"]["apiKeyId"] = otherKey
			reply["apiKey"]["expirationSeconds"] = "315360000"
			json.NewEncoder(w).Encode(reply)
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(gw.Close)
	e.configVia(gw.URL, e.config)

	if _, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
		return oauthLogin(context.Background(), c, []string{"--provider-token", "-", "--name", "late", "--expiration", "1h"}, 0)
	}); err == nil {
		t.Fatalf("the login with its reply lost succeeded:\n%s", errOut)
	}
	acts := listOAuthActivities(t, e)
	if len(acts) != 1 || acts[0].Result.OauthResult == nil {
		t.Fatalf("want one completed oauth activity: %+v", acts)
	}
	keyID := acts[0].Result.OauthResult.APIKeyID
	record, err := e.demo.Client("carol").GetAPIKey(context.Background(), keyID) // straight to the service
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "login", "oauth", "--recover", acts[0].ID, "--target-key", "late-target", "--name", "late")
	wantExit(t, "login oauth --recover", code, 0, out, errOut)
	wrong := record.CreatedAt.Time().Add(tenYears * time.Second).UTC().Format(time.RFC3339)
	if strings.Contains(out, wrong) {
		t.Errorf("the saved key takes the other key's expiry (%s):\n%s", wrong, out)
	}
	if !strings.Contains(errOut, "is estimated from its activity") || !strings.Contains(errOut, "another API key than "+keyID+": its id is "+otherKey) {
		t.Errorf("no warning that the expiry is estimated, the reply being about another key:\n%s", errOut)
	}
}
