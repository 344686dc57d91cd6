package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A query the service keeps failing is not waited out in silence: each
// retry is said on stderr (what failed, attempt n of m), and the final error
// counts the attempts.
func TestRetriesAreSaidOnStderr(t *testing.T) {
	e := newVerbEnv(t)
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html>bad gateway\x1b]52;c;ZXZpbA==\x07</html>"))
	}))
	defer gateway.Close()
	e.configVia(gateway.URL, e.config)
	code, _, stderr := e.run("", "activity", "list")
	if code != exitFailure {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFailure, stderr)
	}
	for n := 2; n <= 4; n++ {
		if !strings.Contains(stderr, "; retrying in ") ||
			!strings.Contains(stderr, fmt.Sprintf("(attempt %d of 4)", n)) {
			t.Errorf("stderr does not announce attempt %d of 4:\n%s", n, stderr)
		}
	}
	if !strings.Contains(stderr, "vigil: query/list_activities: Bad Gateway") && !strings.Contains(stderr, "HTTP 502") {
		t.Errorf("the notice does not say what failed:\n%s", stderr)
	}
	if !strings.Contains(stderr, "after 4 attempts over") {
		t.Errorf("the final error does not count the attempts:\n%s", stderr)
	}
	if strings.ContainsAny(stderr, "\x1b\x07") {
		t.Errorf("control characters reached stderr: %q", stderr)
	}
}
