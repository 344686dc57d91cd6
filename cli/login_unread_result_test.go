package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// behindRewritingGateway points the env's profiles at a gateway in front of
// the demo service that forwards everything and passes the service's replies
// to path (such as "/public/v1/submit/oauth") through rewrite.
func behindRewritingGateway(t *testing.T, e *verbEnv, path string, rewrite func([]byte) []byte) {
	t.Helper()
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.Request.URL.Path != path {
			return nil
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		body = rewrite(body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	gw := httptest.NewServer(proxy)
	t.Cleanup(gw.Close)
	e.configVia(gw.URL, e.config)
}

// The service completed the login and made the API key, but the reply's
// result cannot be read (here a credentialBundle sent twice: which one
// opens?). The fresh target key, the only key that opens the real bundle,
// is kept, the error says how to finish, and --recover (reading the
// activity as the service stores it) saves the key.
func TestLoginOAuthKeepsTheTargetKeyWhenTheResultCannotBeRead(t *testing.T) {
	e := newVerbEnv(t)
	behindRewritingGateway(t, e, "/public/v1/submit/oauth", func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"credentialBundle":"`), []byte(`"credentialBundle":"forged","credentialBundle":"`), 1)
	})
	out, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
		return oauthLogin(context.Background(), c, []string{"--provider-token", "-", "--name", "unread", "--expiration", "3600"}, 0)
	})
	var errBuf bytes.Buffer
	errBuf.WriteString(errOut)
	if code := exitCode(&errBuf, err); code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errBuf.String())
	}
	acts := listOAuthActivities(t, e)
	if len(acts) != 1 || acts[0].Result.OauthResult == nil {
		t.Fatalf("want one completed oauth activity, the service has: %+v", acts)
	}
	store := keys.Store{Dir: e.demo.KeysDir}
	kept, _, _ := store.Paths("unread-target")
	if info, err := os.Stat(kept); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the target key was not kept as %s (0600): %v %v\n%s", kept, info, err, errBuf.String())
	}
	for _, want := range []string{"not an oauth result vigil can read", "--recover " + acts[0].ID + " --target-key unread-target --name unread"} {
		if !strings.Contains(errBuf.String(), want) {
			t.Errorf("the error does not say %q:\n%s", want, errBuf.String())
		}
	}
	code, o, eo := e.run("", "login", "oauth", "--recover", acts[0].ID, "--target-key", "unread-target", "--name", "unread")
	wantExit(t, "login oauth --recover", code, 0, o, eo)
	if got := signedInAs(t, e, "unread"); got != e.userID("carol") {
		t.Errorf("the recovered key signs in as %s, want carol %s", got, e.userID("carol"))
	}
}
