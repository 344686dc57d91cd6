package api

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/keys"
)

// A server whose certificate the client does not trust fails the TLS
// handshake, before any byte of the request leaves: a submit there was not
// sent (safe to run again), not an unknown outcome that sends the user to
// look for an activity that cannot exist.
func TestUntrustedCertificateSubmitIsNotSent(t *testing.T) {
	var served atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		writeJSON(w, 200, activityReply)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	defer srv.Close()
	key, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	// The default transport: it trusts the system roots, not httptest's CA.
	c, err := NewClient(srv.URL, testOrg, key, WithRetryPolicy(3, time.Millisecond, 4*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	_, typedErr := c.CreateReadOnlySession(context.Background())
	_, rawErr := c.Send(context.Background(), "/public/v1/submit/create_read_only_session", []byte(`{}`))
	if n := served.Load(); n != 0 {
		t.Fatalf("set-up: the untrusted server answered %d requests", n)
	}
	for what, err := range map[string]error{"typed submit": typedErr, "Send": rawErr} {
		if errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrNotSent) || !NotRecorded(err) {
			t.Errorf("%s: the handshake failed, nothing was sent, but err = %v (ErrOutcomeUnknown=%v, ErrNotSent=%v)", what, err, errors.Is(err, ErrOutcomeUnknown), errors.Is(err, ErrNotSent))
		}
	}
}
