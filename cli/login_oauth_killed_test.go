package cli

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// A login oauth with a fresh target key (--provider-token -) that dies while
// its request is in flight (SIGKILL; SIGHUP when its terminal closes), after
// the service made the API key, must leave the target key on disk: it is the
// only key that opens that API key's credential bundle. --recover then
// finishes the login with it.
func TestLoginOAuthKilledInFlightLeavesTheTargetKeyForRecover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			loginKilledInFlight(t, vigilBinary(t), sig)
		})
	}
}

func loginKilledInFlight(t *testing.T, bin string, sig syscall.Signal) {
	e := newVerbEnv(t)
	target, _ := url.Parse(e.demo.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	recorded := make(chan struct{}, 1)
	hang := make(chan struct{})
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/public/v1/submit/oauth" {
			proxy.ServeHTTP(w, r)
			return
		}
		proxy.ServeHTTP(httptest.NewRecorder(), r) // the service records and completes it
		recorded <- struct{}{}
		<-hang // the reply is on its way when the process dies
	}))
	t.Cleanup(func() { close(hang); gw.Close() })
	e.configVia(gw.URL, e.config)

	cmd := exec.Command(bin, "login", "oauth", "--profile", "carol", "--provider-token", "-", "--name", "fresh")
	cmd.Env = append(cmd.Environ(), "VIGIL_CONFIG="+e.config)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := startChild(cmd); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	nonceLine := regexp.MustCompile(`nonce: ([0-9a-f]{64})`)
	sc := bufio.NewScanner(stderr)
	var nonce string
	for sc.Scan() {
		if m := nonceLine.FindStringSubmatch(sc.Text()); m != nil {
			nonce = m[1]
			break
		}
	}
	go io.Copy(io.Discard, stderr)
	token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, "carol", nonce)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, token+"\n")
	stdin.Close()
	select {
	case <-recorded:
	case <-time.After(30 * time.Second):
		t.Fatal("the login never reached the service")
	}
	cmd.Process.Signal(sig)
	cmd.Wait()

	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeOauth}})
	if err != nil || len(acts) != 1 || acts[0].Status != api.StatusCompleted || acts[0].Result.OauthResult == nil {
		t.Fatalf("want one completed oauth activity: %+v %v", acts, err)
	}
	store := keys.Store{Dir: e.demo.KeysDir}
	if _, err := store.Load("fresh-target"); err != nil {
		t.Fatalf("the service made API key %s, but the only key that opens it is gone: %v", acts[0].Result.OauthResult.APIKeyID, err)
	}

	// The name NAME holds the placeholder of the killed login. Logging in
	// again under it is refused with the command that finishes that login;
	// that command (the activity id filled in) removes the placeholder
	// itself, and checks that the activity was sealed to fresh-target.
	// (A hangup lets the login remove its placeholder itself.)
	code, _, errOut := e.run("", "login", "oauth", "--profile", "carol", "--provider-token", "-", "--name", "fresh")
	want := "'vigil login oauth --profile carol --recover ACTIVITY_ID --target-key fresh-target --name fresh'"
	if code == 0 || !strings.Contains(errOut, want) {
		t.Fatalf("logging in again under --name fresh: exit %d, %s; want a refusal naming %s", code, errOut, want)
	}
	placeholder, _, _ := store.Paths("fresh")
	_, err = os.Lstat(placeholder)
	left := err == nil
	if left != (sig == syscall.SIGKILL) {
		t.Errorf("after %v the placeholder %s is left: %v", sig, placeholder, left)
	}
	code, out, errOut := e.run("", "login", "oauth", "--profile", "carol", "--recover", acts[0].ID, "--target-key", "fresh-target", "--name", "fresh")
	wantExit(t, "login oauth --recover with the kept target key", code, 0, out, errOut)
	if left && !strings.Contains(errOut, placeholder) {
		t.Errorf("--recover did not say it removed the placeholder %s: %s", placeholder, errOut)
	}
	if got := signedInAs(t, e, "fresh"); got != e.userID("carol") {
		t.Errorf("the recovered key signs in as %s, want carol %s", got, e.userID("carol"))
	}
}
