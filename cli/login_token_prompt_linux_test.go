//go:build linux

package cli

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/keys"
)

// Ctrl-C at login oauth's token prompt (Main turns SIGINT into a cancelled
// context and keeps catching it) must stop the login, and give back the names
// it reserved (NAME and NAME-target), rather than hang until Ctrl-D.
func TestLoginOAuthCtrlCAtTokenPromptStopsAndFreesNames(t *testing.T) {
	e := newVerbEnv(t)
	_, slave := openPTY(t)
	var stdout, stderr syncBuffer
	c := proc{stdin: slave, stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- oauthLogin(ctx, c, []string{"--provider-token", "-", "--name", "ctrlc"}, 0)
	}()
	nonce := regexp.MustCompile(`nonce: [0-9a-f]{64}\n`)
	for deadline := time.Now().Add(10 * time.Second); !nonce.MatchString(stderr.String()); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no nonce:\n%s", stderr.String())
		}
	}
	cancel() // what Ctrl-C does in Main
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		slave.Close() // unblock the read so the goroutine ends
		t.Fatalf("Ctrl-C at the token prompt did not stop login oauth; stderr:\n%s", stderr.String())
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("login oauth after Ctrl-C: %v, want the cancellation", err)
	}
	store := keys.Store{Dir: e.demo.KeysDir}
	for _, n := range []string{"ctrlc", "ctrlc-target"} {
		p, _, _ := store.Paths(n)
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("after Ctrl-C, %s is still there: the name stays taken", p)
		}
	}
}

// The OIDC token pasted at login oauth's prompt is a secret (docs: "never
// printed or logged"): the terminal must not echo it into scrollback,
// terminal logs or a shared screen.
func TestLoginOAuthDoesNotEchoPastedToken(t *testing.T) {
	e := newVerbEnv(t)
	const tok = "eyJhbGciOiJFUzI1NiJ9.SECRETPAYLOAD.SIG"
	_, _, errOut, echoed := e.runOnTerminal("OIDC token", tok+"\n\x04", "login", "oauth", "--provider-token", "-", "--name", "echo")
	if strings.Contains(echoed, "SECRETPAYLOAD") {
		t.Errorf("the pasted OIDC token was echoed on the terminal:\n%q\nstderr:\n%s", echoed, errOut)
	}
}
