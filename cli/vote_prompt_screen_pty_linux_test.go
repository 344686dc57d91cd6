//go:build linux

package cli

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
)

// promptOnScreen runs vigil with a rows×cols pseudo-terminal as standard
// input and standard error, as a member's shell runs it, answers "n" once
// question is shown, and returns what the terminal received up to the
// question.
func promptOnScreen(t *testing.T, e *verbEnv, rows, cols uint16, question string, args ...string) string {
	t.Helper()
	master, slave := openPTY(t)
	ws := struct{ Row, Col, X, Y uint16 }{rows, cols, 0, 0}
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, slave.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws))); errno != 0 {
		t.Skipf("set the terminal's size: %v", errno)
	}
	var out syncBuffer
	c := proc{stdin: slave, stdout: &out, stderr: slave, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), c, args) }()
	var shown strings.Builder
	buf := make([]byte, 4096)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(shown.String(), question) {
		if time.Now().After(deadline) {
			t.Fatalf("no question %q on the terminal:\n%s", question, shown.String())
		}
		master.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		n, _ := master.Read(buf)
		shown.Write(buf[:n])
	}
	time.Sleep(50 * time.Millisecond) // let the terminal settle into the prompt's mode
	if _, err := master.Write([]byte("n\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("vigil did not finish after the answer")
	}
	return strings.ReplaceAll(shown.String(), "\r", "")
}

// lastScreen is the lines of text whole on a rows×cols terminal once it
// received text: the last ones, each taking as many rows as it wraps to.
func lastScreen(text string, rows, cols int) string {
	lines := strings.Split(text, "\n")
	used, first := 0, len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		used += max(1, (ansi.StringWidth(lines[i])+cols-1)/cols)
		if used > rows {
			break
		}
		first = i
	}
	return strings.Join(lines[first:], "\n")
}

// On a terminal smaller than 24 lines, or narrower than the prompt's lines,
// the warning a vote prompt starts with scrolls off before the question: it
// is said again above what the vote signs, as on a 24-line terminal.
func TestVotePromptRepeatsItsWarningOnTheTerminalItIsShownOn(t *testing.T) {
	e := newVerbEnv(t)
	args := []string{"invitation", "create", "--access", "api"}
	for i := range 1 {
		args = append(args, "--name", fmt.Sprintf("invitee%d", i), "--email", fmt.Sprintf("invitee%d@example.com", i))
	}
	code, out, errOut := e.run("", args...)
	wantExit(t, "invitation create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	// Unbound (a proxy dropped the requester's signed message): the prompt
	// starts with a warning.
	via := e.via(rewriteEveryVote(func(v map[string]any) { v["message"] = "" }))
	const question = "Approve this activity? [y/N]"
	const warning = "intent check: WARNING: NOT checked"
	for _, size := range []struct{ rows, cols uint16 }{{10, 120}, {24, 40}} {
		shown := promptOnScreen(t, via, size.rows, size.cols, question, "activity", "approve", "--profile", "bob", id)
		if !strings.HasPrefix(shown, warning) || strings.Count(shown, "\n") >= 23 {
			t.Fatalf("the prompt does not start with the warning, or is longer than 24 lines (precondition):\n%s", shown)
		}
		screen := lastScreen(shown, int(size.rows), int(size.cols))
		for _, want := range []string{warning, "signs:     fingerprint ", "for:       organization " + api.SanitizeID(e.demo.Info.OrganizationID)} {
			if !strings.Contains(screen, want) {
				t.Errorf("%d×%d: the terminal's last screen lacks %q:\n%s", size.rows, size.cols, want, screen)
			}
		}
	}
}

// The warnings said before the prompt (here: the approval deletes the key
// the voter's profile signs with) open it as much as its own: they are said
// again above what the vote signs when they would scroll off.
func TestVotePromptRepeatsTheWarningsSaidBeforeIt(t *testing.T) {
	e := newVerbEnv(t)
	act, err := e.client("alice").DeleteAPIKeys(t.Context(), api.DeleteAPIKeysParams{UserID: e.userID("bob"), APIKeyIDs: []string{e.onlyKeyOf("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	const rows, cols = 16, 120
	const warning = `is the key profile "bob" signs with`
	// Also with a warning of the prompt's own (unbound: a proxy dropped
	// the requester's signed message): both are said, first and again.
	unbound := e.via(rewriteEveryVote(func(v map[string]any) { v["message"] = "" }))
	for _, via := range []*verbEnv{e, unbound} {
		shown := promptOnScreen(t, via, rows, cols, "Approve this activity? [y/N]", "activity", "approve", "--profile", "bob", act.ID)
		if !strings.HasPrefix(shown, "warning: ") || strings.Count(shown, warning) != 2 {
			t.Errorf("the prompt does not start with the warning %q and say it again:\n%s", warning, shown)
		}
		if via == unbound && strings.Count(shown, "intent check: WARNING: NOT checked") != 2 {
			t.Errorf("the prompt's own warning is not said twice:\n%s", shown)
		}
		if screen := lastScreen(shown, rows, cols); !strings.Contains(screen, warning) || !strings.Contains(screen, "signs:     fingerprint "+act.Fingerprint) {
			t.Errorf("the terminal's last screen lacks the warning %q or the fingerprint:\n%s", warning, screen)
		}
	}
}
