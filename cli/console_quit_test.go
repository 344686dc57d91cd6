package cli

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// ctrl+c while a vote is in flight quits at once, and the console then says
// on stderr which vote was in flight and how to learn whether it counted.
func TestConsoleCtrlCNamesTheVoteInFlight(t *testing.T) {
	demo := servertest.StartDemo(t)
	target, err := url.Parse(demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	// A gateway that forwards queries and holds every submit until the test ends.
	release := make(chan struct{})
	proxy := httputil.NewSingleHostReverseProxy(target)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, api.SubmitPrefix) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			http.Error(w, "gateway timeout", http.StatusGatewayTimeout)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(release) }) // before the server closes
	alice := demo.ClientAt(slow.URL, "alice")
	root := screens.NewRoot(screens.Options{Reader: alice, Submitter: alice, Profile: "alice",
		Theme: theme.Options{Dark: true, NoColor: true}})
	inR, inW := io.Pipe()
	var out, errOut syncBuffer
	c := proc{stdin: inR, stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() {
		done <- runProgram(context.Background(), c, root, slog.New(slog.DiscardHandler))
	}()
	waitFor := func(what string) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !strings.Contains(ansi.Strip(out.String()), what) {
			select {
			case err := <-done:
				t.Fatalf("the console ended early (%v): %s", err, errOut.String())
			case <-deadline:
				t.Fatalf("no %q on screen after 20s:\n%s", what, ansi.Strip(out.String()))
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	waitFor("Vigil Demo")
	waitFor("CONSENSUS_NEEDED")
	inW.Write([]byte("a"))
	waitFor("Approve this activity?")
	// A y before the dialog is armed is swallowed and the dialog says so: press
	// again then, as a user would (the arming tick may be late on a busy machine).
	for press := 1; ; press++ {
		time.Sleep(screens.DialogArmDelay)
		swallowed := strings.Count(ansi.Strip(out.String()), typedAhead)
		inW.Write([]byte("y"))
		waitForEither := time.After(20 * time.Second)
		for !strings.Contains(ansi.Strip(out.String()), "voting") && strings.Count(ansi.Strip(out.String()), typedAhead) == swallowed {
			select {
			case <-waitForEither:
				t.Fatalf("neither the vote nor %q on screen after 20s:\n%s", typedAhead, ansi.Strip(out.String()))
			case <-time.After(20 * time.Millisecond):
			}
		}
		if strings.Contains(ansi.Strip(out.String()), "voting") {
			break
		}
		if press == 3 {
			t.Fatalf("the dialog took %d presses of y for type-ahead", press)
		}
	}
	inW.Write([]byte{0x03}) // ctrl+c
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("console: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ctrl+c did not quit")
	}
	msg := errOut.String()
	if !strings.Contains(msg, "was in flight; its outcome is unknown") || !strings.Contains(msg, "check with 'vigil activity get ") {
		t.Errorf("stderr does not name the vote in flight: %q", msg)
	}
}
