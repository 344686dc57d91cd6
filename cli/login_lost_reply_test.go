package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// behindLossyGateway points the env's profiles at a gateway in front of the
// demo service that forwards everything, and answers 502 after the service
// has recorded a submit/oauth, for the first lose such submits (all of them
// when lose < 0).
func behindLossyGateway(t *testing.T, e *verbEnv, lose int32) {
	t.Helper()
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var seen atomic.Int32
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/public/v1/submit/oauth" || (lose >= 0 && seen.Add(1) > lose) {
			proxy.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		proxy.ServeHTTP(rec, r) // the service records and completes it
		io.Copy(io.Discard, rec.Body)
		http.Error(w, "bad gateway", http.StatusBadGateway) // the reply is lost
	}))
	t.Cleanup(gw.Close)
	e.configVia(gw.URL, e.config)
}

// listOAuthActivities lists the organization's oauth activities.
func listOAuthActivities(t *testing.T, e *verbEnv) []api.Activity {
	t.Helper()
	acts, err := e.client("carol").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeOauth}})
	if err != nil {
		t.Fatal(err)
	}
	return acts
}

// signedInAs loads the key saved as name and asks the service who it is.
func signedInAs(t *testing.T, e *verbEnv, name string) string {
	t.Helper()
	k, err := (keys.Store{Dir: e.demo.KeysDir}).Load(name)
	if err != nil {
		t.Fatalf("the key %s: %v", name, err)
	}
	client, err := api.NewClient(e.demo.URL, e.demo.Info.OrganizationID, k)
	if err != nil {
		t.Fatal(err)
	}
	who, err := client.Whoami(context.Background())
	if err != nil {
		t.Fatalf("whoami with %s: %v", name, err)
	}
	return who.UserID
}

// The reply to login oauth is lost after the service made the API key: the
// very same request is sent again, the service answers it with the activity
// it recorded (no second key), and the key is opened and saved as usual.
func TestLoginOAuthResendsTheRequestWhoseReplyWasLost(t *testing.T) {
	e := newVerbEnv(t)
	behindLossyGateway(t, e, 1)
	targetFile, token := e.signInAtProvider("carol")
	code, out, errOut := e.run(token, "login", "oauth", "--target-key", targetFile, "--provider-token", "-", "--name", "lost", "--expiration", "3600")
	wantExit(t, "login oauth with a lost reply", code, 0, out, errOut)
	if !strings.Contains(errOut, "sending the same request again") {
		t.Errorf("nothing said the request was sent again:\n%s", errOut)
	}
	acts := listOAuthActivities(t, e)
	if len(acts) != 1 || acts[0].Status != api.StatusCompleted || acts[0].Result.OauthResult == nil {
		t.Fatalf("want one completed oauth activity, the service has: %+v", acts)
	}
	if made := acts[0].Result.OauthResult.APIKeyID; !strings.Contains(out, made) {
		t.Errorf("the output does not name API key %s:\n%s", made, out)
	}
	if got := signedInAs(t, e, "lost"); got != e.userID("carol") {
		t.Errorf("the saved key signs in as %s, want carol %s", got, e.userID("carol"))
	}
}

// When no reply comes at all, the target key (the only key that opens the
// service's bundle) is kept in the keys directory (0600), and the error says
// how to finish: --recover opens the completed activity's bundle with it.
func TestLoginOAuthKeepsTheTargetKeyWhenNoReplyComes(t *testing.T) {
	e := newVerbEnv(t)
	behindLossyGateway(t, e, -1)
	// A fresh target key: its nonce is printed, then the token is pasted.
	out, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
		// No time to resend beyond the first try.
		return oauthLogin(context.Background(), c, []string{"--provider-token", "-", "--name", "lost", "--expiration", "3600"}, 0)
	})
	var errBuf bytes.Buffer
	errBuf.WriteString(errOut)
	if code := exitCode(&errBuf, err); code != exitOutcomeUnknown {
		t.Fatalf("exit %d, want %d (outcome unknown)\n%s\n%s", code, exitOutcomeUnknown, out, errBuf.String())
	}
	store := keys.Store{Dir: e.demo.KeysDir}
	kept, _, _ := store.Paths("lost-target")
	if info, err := os.Stat(kept); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the target key was not kept as %s (0600): %v %v\n%s", kept, info, err, errBuf.String())
	}
	for _, want := range []string{"outcome unknown", kept, "--recover ACTIVITY_ID --target-key lost-target --name lost", "vigil activity list"} {
		if !strings.Contains(errBuf.String(), want) {
			t.Errorf("the error does not say %q:\n%s", want, errBuf.String())
		}
	}
	if _, err := os.Stat(kept[:len(kept)-len("-target.private")] + ".private"); err == nil {
		t.Errorf("the name lost is still taken after the failed login")
	}

	acts := listOAuthActivities(t, e)
	if len(acts) != 1 || acts[0].Result.OauthResult == nil {
		t.Fatalf("want one completed oauth activity, the service has: %+v", acts)
	}
	// The command the error gives finds it.
	code, o, eo := e.run("", "activity", "list", "--profile", "alice", "--type", "oauth", "--limit", "5")
	wantExit(t, "activity list --type oauth", code, 0, o, eo)
	if !strings.Contains(o, acts[0].ID) {
		t.Errorf("the advised activity list does not show %s:\n%s", acts[0].ID, o)
	}
	code, o, eo = e.run("", "login", "oauth", "--recover", acts[0].ID, "--target-key", "lost-target", "--name", "lost")
	wantExit(t, "login oauth --recover", code, 0, o, eo)
	if made := acts[0].Result.OauthResult.APIKeyID; !strings.Contains(o, made) {
		t.Errorf("the output does not name API key %s:\n%s", made, o)
	}
	if got := signedInAs(t, e, "lost"); got != e.userID("carol") {
		t.Errorf("the recovered key signs in as %s, want carol %s", got, e.userID("carol"))
	}
	if info, err := store.Info("lost"); err != nil || info.Expires.IsZero() {
		t.Errorf("the recovered key has no expiry: %+v %v", info, err)
	}
}

// With a --target-key file, a login whose reply never comes leaves the file
// in place and says to finish with --recover and that file, which then opens
// the completed activity's bundle and is deleted once the key is saved.
func TestLoginOAuthWithATargetFileFinishesWithRecover(t *testing.T) {
	e := newVerbEnv(t)
	behindLossyGateway(t, e, -1)
	targetFile, token := e.signInAtProvider("carol")
	var out, errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(token), stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	err := oauthLogin(context.Background(), c, []string{"--target-key", targetFile, "--provider-token", "-", "--name", "filed"}, 0)
	if code := exitCode(&errOut, err); code != exitOutcomeUnknown {
		t.Fatalf("exit %d, want %d (outcome unknown)\n%s\n%s", code, exitOutcomeUnknown, out.String(), errOut.String())
	}
	if want := "--recover ACTIVITY_ID --target-key " + targetFile + " --name filed"; !strings.Contains(errOut.String(), want) {
		t.Errorf("the error does not say %q:\n%s", want, errOut.String())
	}
	if _, err := os.Stat(targetFile); err != nil {
		t.Fatalf("the target key file is gone after a login that did not end: %v", err)
	}
	acts := listOAuthActivities(t, e)
	if len(acts) != 1 || acts[0].Result.OauthResult == nil {
		t.Fatalf("want one completed oauth activity, the service has: %+v", acts)
	}
	code, o, eo := e.run("", "login", "oauth", "--recover", acts[0].ID, "--target-key", targetFile, "--name", "filed")
	wantExit(t, "login oauth --recover with the target file", code, 0, o, eo)
	if got := signedInAs(t, e, "filed"); got != e.userID("carol") {
		t.Errorf("the recovered key signs in as %s, want carol %s", got, e.userID("carol"))
	}
	if _, err := os.Stat(targetFile); !os.IsNotExist(err) {
		t.Errorf("the target key file is still there once the key is saved: %v", err)
	}
}

// A login whose activity waits for approval names the command that finishes
// it once the activity completes, with the target key where it stays: the
// target file, or NAME-target, where a fresh key was saved before sending.
func TestLoginOAuthWaitingForApprovalNamesTheTargetKey(t *testing.T) {
	cause := errors.New("activity act-1 waits for approval (ACTIVITY_STATUS_CONSENSUS_NEEDED)")
	store := keys.Store{Dir: t.TempDir()}

	err := keepTarget(store, "carol-oauth", "p", "/tmp/carol.target", "act-1", cause)
	if want := "once activity act-1 COMPLETED, finish with 'vigil login oauth --profile p --recover act-1 --target-key /tmp/carol.target --name carol-oauth'"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("with a target file: %v; want it to say %q", err, want)
	}

	err = keepTarget(store, "carol-oauth", "p", "", "act-1", cause)
	if want := "--recover act-1 --target-key carol-oauth-target --name carol-oauth"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("with a fresh key: %v; want it to say %q", err, want)
	}
}

// A second login under the same --name, while an earlier one's target key is
// still kept as NAME-target, is refused before anything is sent: its own
// target key could not be kept under that name, and the API key its activity
// makes once approved could never be opened.
func TestSecondLoginUnderTheSameNameIsRefusedWhileATargetKeyIsKept(t *testing.T) {
	e := newVerbEnv(t)
	behindLossyGateway(t, e, -1)
	login := func(c proc) error {
		return oauthLogin(context.Background(), c, []string{"--provider-token", "-", "--name", "lost", "--expiration", "3600"}, 0)
	}
	if _, errOut, err := pasteLogin(t, e, "carol", login); err == nil {
		t.Fatalf("the first login with no reply succeeded:\n%s", errOut)
	}
	store := keys.Store{Dir: e.demo.KeysDir}
	first, err := store.Load("lost-target")
	if err != nil {
		t.Fatalf("the first login's target key was not kept: %v", err)
	}

	var out, errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	err = login(c)
	if code := exitCode(&errOut, err); code != 2 {
		t.Errorf("second login: exit %d, want 2 (refused)\n%s", code, errOut.String())
	}
	for _, want := range []string{"lost-target", "--recover ACTIVITY_ID --target-key lost-target --name lost", "another --name"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut.String())
		}
	}
	if acts := listOAuthActivities(t, e); len(acts) != 1 {
		t.Errorf("the refused login sent a request: the service has %d oauth activities, want 1", len(acts))
	}
	if again, err := store.Load("lost-target"); err != nil || again.PrivateKeyHex() != first.PrivateKeyHex() {
		t.Errorf("the first login's target key changed or went: %v", err)
	}
}

// A login oauth killed (SIGKILL, a crash) after reserving NAME-target leaves
// a placeholder holding no key. The next login must say exactly that and
// how to remove it, not send the user to --recover with a file that opens
// nothing.
func TestLoginOAuthAfterAKilledLoginSaysThePlaceholderHoldsNoKey(t *testing.T) {
	e := newVerbEnv(t)
	store := keys.Store{Dir: e.demo.KeysDir}
	if _, err := store.Reserve("killed-target"); err != nil { // the killed login's, never cancelled
		t.Fatal(err)
	}
	left, _, _ := store.Paths("killed-target")
	code, out, errOut := e.run("", "login", "oauth", "--provider-token", "-", "--name", "killed")
	wantExit(t, "login oauth over a leftover placeholder", code, 2, out, errOut)
	for _, want := range []string{left, "holds no key", "nothing to recover", "rm " + left} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "finish that login with") {
		t.Errorf("the refusal advises --recover with a file that holds no key:\n%s", errOut)
	}
	if _, err := os.Stat(left); err != nil {
		t.Errorf("the refusal removed the placeholder itself: %v", err)
	}
}
