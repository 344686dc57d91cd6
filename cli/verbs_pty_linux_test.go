//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/vigil-console/vigil/api"
)

// openPTY opens a pseudo-terminal: the test types on master, the verb reads a
// real terminal on slave.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	fd, err := syscall.Open("/dev/ptmx", syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlock pty: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("pty number: %v", e)
	}
	// Non-blocking, so reads of master can time out.
	syscall.SetNonblock(fd, true)
	master = os.NewFile(uintptr(fd), "ptmx")
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Skipf("open pty slave: %v", err)
	}
	t.Cleanup(func() { slave.Close(); master.Close() })
	return master, slave
}

// runOnTerminal runs vigil with the env's config and the pty as standard
// input; see runOnPTY.
func (e *verbEnv) runOnTerminal(prompt, input string, args ...string) (int, string, string, string) {
	e.t.Helper()
	return runOnPTY(e.t, func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}, prompt, input, args...)
}

// runOnPTY runs vigil with the pty as standard input; once stderr shows
// prompt, it types input on the terminal. It returns the exit code, stdout,
// stderr and whatever the terminal echoed.
func runOnPTY(t *testing.T, getenv func(string) string, prompt, input string, args ...string) (int, string, string, string) {
	t.Helper()
	master, slave := openPTY(t)
	var out, errOut syncBuffer
	c := proc{stdin: slave, stdout: &out, stderr: &errOut, getenv: getenv}
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), c, args) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(errOut.String(), prompt) {
		select {
		case code := <-done:
			t.Fatalf("vigil ended (exit %d) before asking %q:\n%s\n%s", code, prompt, out.String(), errOut.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no prompt %q:\n%s", prompt, errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // let the terminal settle into the prompt's mode
	if _, err := master.Write([]byte(input)); err != nil {
		t.Fatal(err)
	}
	var code int
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("vigil did not finish after the input")
	}
	var echoed bytes.Buffer
	buf := make([]byte, 4096)
	for {
		master.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, err := master.Read(buf)
		echoed.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return code, out.String(), errOut.String(), echoed.String()
}

func TestApproveAsksOnATerminal(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	code, out, errOut := e.run("", "tag", "create", "--name", "asked", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	// "n": nothing is sent.
	code, _, errOut, _ = e.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", id)
	if code != 1 || !strings.Contains(errOut, "not confirmed; nothing was sent") {
		t.Errorf("answer n: exit %d\n%s", code, errOut)
	}
	if a, _ := e.client("alice").GetActivity(ctx, id); a == nil || len(a.Votes) != 1 {
		t.Fatalf("a vote was recorded after n: %+v", a)
	}

	// "y": the prompt showed what is approved, and the vote is in.
	code, out, errOut, _ = e.runOnTerminal("Approve this activity? [y/N]", "y\n", "activity", "approve", "--profile", "bob", id)
	if code != 0 {
		t.Fatalf("answer y: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"activity:  " + id, "type:      " + api.TypeCreateUserTag, "intent:    create_user_tag", `  userTagName: "asked"`,
		"requester: alice", "status:    " + api.StatusConsensusNeeded} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, errOut)
		}
	}
	if a, _ := e.client("alice").GetActivity(ctx, id); a == nil || a.Status != api.StatusCompleted {
		t.Errorf("after y: %+v", a)
	}
}

// The vote prompt shows the intent escaped once: a real U+202E and the six
// characters \u202e typed as text ask different questions, and nothing raw
// reaches the terminal.
func TestApprovePromptTellsRealControlsFromTypedEscapes(t *testing.T) {
	e := newVerbEnv(t)
	prompt := func(name string) string {
		t.Helper()
		code, out, errOut := e.run("", "tag", "create", "--name", name, e.userID("operator"))
		wantExit(t, "tag create", code, 0, out, errOut)
		code, _, errOut, _ = e.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", activityIDFrom(t, out))
		if code != 1 {
			t.Fatalf("answer n: exit %d\n%s", code, errOut)
		}
		wantOnlyEscaped(t, "the vote prompt", errOut)
		return lineOf(t, errOut, "  userTagName:")
	}
	real, typed := prompt("ab\u202ecd\nef"), prompt(`ab\u202ecd\nef`)
	if real == typed || !strings.Contains(real, `"ab\u202ecd\nef"`) || !strings.Contains(typed, `"ab\\u202ecd\\nef"`) {
		t.Errorf("the prompts should differ, escaped once:\n%s\n%s", real, typed)
	}
}

// apikey delete names the keys it asks about: a key name from the service is
// quoted once, so a real newline in it and a typed \n ask different questions.
func TestAPIKeyDeletePromptQuotesKeyNamesOnce(t *testing.T) {
	e := newVerbEnv(t)
	users, err := e.client("alice").ListUsers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var keyID string
	for _, u := range users {
		for _, k := range u.APIKeys { // not the old key, whose deletion the demo leaves pending
			if u.UserName == "operator" && !strings.Contains(k.APIKeyName, "old") {
				keyID = k.APIKeyID
			}
		}
	}
	if keyID == "" {
		t.Fatal("the operator has no API key but the old one")
	}
	prompt := func(prefix string) string {
		t.Helper()
		env := e.via(func(op string, request, reply []byte) []byte {
			return bytes.ReplaceAll(reply, []byte(`"apiKeyName":"`), []byte(`"apiKeyName":"`+prefix))
		})
		code, _, errOut, _ := env.runOnTerminal("Delete these API keys? [y/N]", "n\n", "apikey", "delete", keyID)
		if code != 1 {
			t.Fatalf("answer n: exit %d\n%s", code, errOut)
		}
		wantOnlyEscaped(t, "the apikey delete prompt", errOut)
		return lineOf(t, errOut, "keys:")
	}
	real, typed := prompt(`k\n`), prompt(`k\\n`)
	if real == typed || !strings.Contains(real, keyID+` "k\n`) || !strings.Contains(typed, keyID+` "k\\n`) {
		t.Errorf("the prompts should differ, each key name quoted once:\n%s\n%s", real, typed)
	}
}

func TestOauth2SecretPromptDoesNotEcho(t *testing.T) {
	e := newVerbEnv(t)
	const secret = "typed-Secret-4c2a9e"
	code, out, errOut, echoed := e.runOnTerminal("client secret (input hidden): ", secret+"\n",
		"oauth2-credential", "update", "--id", "cred-1", "--provider", "x", "--client-id", "abc")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for what, text := range map[string]string{"the terminal": echoed, "stdout": out, "stderr": errOut} {
		if strings.Contains(text, secret) {
			t.Errorf("the secret appears on %s: %q", what, text)
		}
	}
	a, err := e.client("alice").GetActivity(context.Background(), activityIDFrom(t, out))
	if err != nil || a.Intent.UpdateOauth2CredentialIntent == nil || strings.Contains(a.Intent.UpdateOauth2CredentialIntent.EncryptedClientSecret, secret) {
		t.Fatalf("submitted: %+v %v", a, err)
	}
}
