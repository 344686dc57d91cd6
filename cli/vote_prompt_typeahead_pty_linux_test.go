//go:build linux

package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A "y" typed on the terminal before the vote prompt appeared (while vigil
// fetched the activity, or left over from an earlier line) does not answer
// it: nobody could have read what the prompt shows. The prompt waits for an
// answer typed after it; here "n", so nothing is sent.
func TestApprovePromptIgnoresAYTypedBeforeIt(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "typed-ahead", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	master, slave := openPTY(t)
	if _, err := master.Write([]byte("y\n")); err != nil { // typed ahead: before vigil runs
		t.Fatal(err)
	}
	var sout, serr syncBuffer
	c := proc{stdin: slave, stdout: &sout, stderr: &serr, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), c, []string{"activity", "approve", "--profile", "bob", id}) }()
	// Wait for the question (polling what vigil wrote), or for vigil to end.
	asked := false
	for deadline := time.Now().Add(20 * time.Second); !asked && time.Now().Before(deadline); {
		select {
		case code = <-done:
			t.Fatalf("vigil ended (exit %d) without waiting for an answer typed after its question:\n%s\n%s", code, sout.String(), serr.String())
		case <-time.After(10 * time.Millisecond):
			asked = strings.Contains(serr.String(), "Approve this activity? [y/N]")
		}
	}
	if !asked {
		t.Fatalf("no question:\n%s", serr.String())
	}
	if _, err := master.Write([]byte("n\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case code = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("vigil did not finish after the answer")
	}
	a, err := e.client("alice").GetActivity(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || a.Status != api.StatusConsensusNeeded {
		t.Errorf("a y typed before the prompt appeared answered it (exit %d, activity now %s):\n%s\n%s", code, a.Status, sout.String(), serr.String())
	}
}
