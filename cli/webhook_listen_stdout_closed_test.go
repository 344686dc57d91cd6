package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// firstWrite passes the first thing written to it (the listener's address
// line) on ch.
type firstWrite struct{ ch chan string }

func (w firstWrite) Write(p []byte) (int, error) {
	select {
	case w.ch <- string(p):
	default:
	}
	return len(p), nil
}

// `vigil webhook listen | head -1`: once the reader of standard output has
// gone, the listener stops (exit 141, as every verb), rather than run on
// answering every delivery it can no longer show 503, silently, until the
// service gives the events up.
func TestWebhookListenStopsWhenStandardOutputIsClosed(t *testing.T) {
	cfg := writeConfig(t, fmt.Sprintf("[profiles.hook]\nbase_url = \"http://127.0.0.1:1\"\norganization_id = %q\n", hookOrg))
	closed := &shortStdout{n: 0, err: &os.PathError{Op: "write", Path: os.Stdout.Name(), Err: syscall.EPIPE}}
	started := firstWrite{ch: make(chan string, 1)}
	c := proc{stdin: strings.NewReader(""), stdout: closed, stderr: started, getenv: envOf(map[string]string{"VIGIL_CONFIG": cfg})}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, c, []string{"webhook", "listen", "--profile", "hook", "--addr", "127.0.0.1:0"})
	}()

	var addr string
	select {
	case line := <-started.ch:
		m := regexp.MustCompile(`on http://([^/ ]+)/`).FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("no address in %q", line)
		}
		addr = m[1]
	case code := <-exit:
		t.Fatalf("webhook listen ended at once with %d", code)
	}

	// A request the listener reports (the key set is unreachable): its line
	// cannot be written.
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/", bytes.NewReader([]byte(`{}`)))
	req.Header = forgedHeaders(hookOrg, "ev-unseen")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	select {
	case code := <-exit:
		if code != exitStdoutClosed {
			t.Errorf("webhook listen with its output closed ended with %d, want %d", code, exitStdoutClosed)
		}
	case <-time.After(time.Minute): // a hang, not a speed bound
		t.Fatal("webhook listen runs on with its standard output closed, showing nothing")
	}
}
