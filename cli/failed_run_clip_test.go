package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// A hostile reply's failure reason is one line on stderr, not megabytes: the
// notice is cut as the service's error messages are, and says so.
func TestFailedRunNoticeIsBounded(t *testing.T) {
	reason := strings.Repeat("é", 200_000)
	err := failedRun(&api.Activity{ID: "act", Status: api.StatusFailed, Failure: &api.Failure{Code: 13, Message: reason}})
	if err == nil {
		t.Fatal("a FAILED activity gave no error")
	}
	msg := err.Error()
	if n := utf8.RuneCountInString(msg); n > 1200 {
		t.Fatalf("the failure notice is %d characters long; want it cut near 1000", n)
	}
	if !strings.HasSuffix(msg, "…") {
		t.Fatalf("the cut notice does not end with …: %q", msg[len(msg)-20:])
	}
	if !strings.Contains(msg, "ran and FAILED: éé") {
		t.Fatalf("the notice lost its reason: %q", msg[:60])
	}
}
