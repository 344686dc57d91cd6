//go:build linux

package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/keys"
)

// keys import reading the private key from a terminal asks for it on standard
// error and does not echo it: a pasted key must not land on the screen, in
// scrollback or in a terminal log.
func TestKeysImportHidesThePrivateKeyTypedOnATerminal(t *testing.T) {
	master, slave := openPTY(t)
	dir := filepath.Join(t.TempDir(), "keys")
	var out, errOut syncBuffer
	c := proc{stdin: slave, stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), c, []string{"keys", "import", "--scheme", "p256", "--dir", dir, "pasted"})
	}()
	const prompt = "private key (hex) of pasted"
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(errOut.String(), prompt) {
		select {
		case code := <-done:
			t.Fatalf("keys import ended (exit %d) without asking %q:\n%s", code, prompt, errOut.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no prompt %q on standard error:\n%s", prompt, errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // let the terminal settle into the prompt's mode
	const priv = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	if _, err := master.Write([]byte(priv + "\n")); err != nil {
		t.Fatal(err)
	}
	var code int
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("keys import did not finish after the key was typed")
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
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if strings.Contains(echoed.String(), priv) || strings.Contains(out.String()+errOut.String(), priv) {
		t.Fatalf("the private key was shown: terminal %q, stdout %q, stderr %q", echoed.String(), out.String(), errOut.String())
	}
	k, err := (keys.Store{Dir: dir}).Load("pasted")
	if err != nil {
		t.Fatal(err)
	}
	if k.PrivateKeyHex() != priv {
		t.Fatal("the key stored is not the one typed")
	}
}
