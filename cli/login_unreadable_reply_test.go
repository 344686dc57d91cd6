package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// The service recorded and completed the login (it made an API key that only
// the fresh target key opens), but the success reply that reached vigil
// cannot be read: a proxy's page in its place, or JSON without the
// activity's status. The outcome is unknown, not "refused": the target key is
// kept, the error says how to finish, and --recover saves the key.
func TestLoginOAuthKeepsTheTargetKeyWhenASuccessReplyCannotBeRead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		reply  string
	}{
		{"proxy-page", http.StatusOK, "<html>accepted</html>"},
		{"no-status", http.StatusOK, `{"activity":{}}`},
		// Not the service's refusal: a proxy's page, after it forwarded.
		{"proxy-refusal", http.StatusForbidden, "<html>blocked</html>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newVerbEnv(t)
			replaceOAuthReplies(t, e, tc.status, tc.reply)
			_, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
				return oauthLogin(context.Background(), c, []string{"--provider-token", "-", "--name", tc.name, "--expiration", "3600"}, 0)
			})
			if err == nil {
				t.Fatalf("the login succeeded on an unreadable reply:\n%s", errOut)
			}
			acts := listOAuthActivities(t, e)
			if len(acts) != 1 || acts[0].Result.OauthResult == nil {
				t.Fatalf("want one completed oauth activity: %+v", acts)
			}
			kept := targetName(tc.name)
			keptPath, _, _ := (keys.Store{Dir: e.demo.KeysDir}).Paths(kept)
			if _, serr := os.Stat(keptPath); serr != nil {
				t.Fatalf("the service made API key %s, which only the target key opens, but the login removed the target key %s (%v)", acts[0].Result.OauthResult.APIKeyID, keptPath, serr)
			}
			if !strings.Contains(err.Error(), "--recover ACTIVITY_ID --target-key "+kept) {
				t.Errorf("the error does not say how to finish with --recover: %v", err)
			}
			code, o, eo := e.run("", "login", "oauth", "--recover", acts[0].ID, "--target-key", kept, "--name", tc.name)
			wantExit(t, "login oauth --recover", code, 0, o, eo)
			if got := signedInAs(t, e, tc.name); got != e.userID("carol") {
				t.Errorf("the recovered key signs in as %s, want carol %s", got, e.userID("carol"))
			}
		})
	}
}

// replaceOAuthReplies points the env's profiles at a gateway in front of the
// demo service that forwards everything and, once the service has handled a
// submit/oauth, answers it with status and body instead.
func replaceOAuthReplies(t *testing.T, e *verbEnv, status int, body string) {
	t.Helper()
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/public/v1/submit/oauth" {
			proxy.ServeHTTP(w, r)
			return
		}
		proxy.ServeHTTP(httptest.NewRecorder(), r) // the service records and completes it
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(gw.Close)
	e.configVia(gw.URL, e.config)
}
