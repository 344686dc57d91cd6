package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/keys"
)

// A first-run mistake: base_url https:// for a service that speaks plain HTTP
// (vigil serve, vigil demo). The message is Go's "http: server gave HTTP
// response to HTTPS client" with no hint, unlike every other transport error
// ("check the profile's base_url"): the user is not told which setting to fix.
func TestHTTPSBaseURLToPlainHTTPServiceSaysWhatToFix(t *testing.T) {
	s := newTestService(t, nil)
	c, err := NewClient(strings.Replace(s.srv.URL, "http://", "https://", 1), testOrg, s.key)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListActivities(context.Background(), ListActivitiesOptions{})
	t.Logf("err: %v", err)
	if err == nil || !strings.Contains(err.Error(), "base_url") {
		t.Errorf("err = %v, want it to name the setting to fix (base_url: http:// not https://)", err)
	}
}

// The same mistake is not retried (the service's scheme will not change
// between attempts), and a submit there is reported as not sent: the
// ClientHello got an HTTP reply on a new connection, before any byte of the
// request was written, so it is safe to run again.
func TestHTTPSToPlainHTTPIsNotRetriedAndSubmitIsNotSent(t *testing.T) {
	var conns, served atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		writeJSON(w, 200, activityReply)
	}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	defer srv.Close()
	key, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(strings.Replace(srv.URL, "http://", "https://", 1), testOrg, key, WithRetryPolicy(3, time.Millisecond, 4*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListActivities(context.Background(), ListActivitiesOptions{}); err == nil {
		t.Fatal("a query over https:// to a plain-HTTP server succeeded")
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("query: %d connections, want 1 (a scheme mismatch is not worth retrying)", n)
	}
	conns.Store(0)
	if _, err := c.Send(context.Background(), "/public/v1/query/list_activities", []byte(`{}`)); err == nil {
		t.Fatal("Send over https:// to a plain-HTTP server succeeded")
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("Send of a query: %d connections, want 1", n)
	}

	_, typedErr := c.CreateReadOnlySession(context.Background())
	_, rawErr := c.Send(context.Background(), "/public/v1/submit/create_read_only_session", []byte(`{}`))
	if n := served.Load(); n != 0 {
		t.Fatalf("set-up: the server answered %d requests", n)
	}
	for what, err := range map[string]error{"typed submit": typedErr, "Send": rawErr} {
		if errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrNotSent) || !strings.Contains(fmt.Sprint(err), "base_url") {
			t.Errorf("%s: nothing was sent, want ErrNotSent and a hint at base_url; err = %v (ErrOutcomeUnknown=%v)", what, err, errors.Is(err, ErrOutcomeUnknown))
		}
	}
}

// For a host that is not this machine, the hint does not promise that
// http:// is accepted: the profile refuses it there without
// allow_plaintext_http.
func TestHTTPSToPlainHTTPHintForAnotherHost(t *testing.T) {
	for host, wantPlaintextSetting := range map[string]bool{"127.0.0.1:8420": false, "localhost:8420": false, "[::1]:8420": false, "[::1]": false, "localhost": false, "10.0.0.7:8420": true, "api.example.com": true, "[2001:db8::1]": true} {
		msg := describeTransportError(host, "base_url", "", "", 0, &url.Error{Op: "Post", URL: "https://" + host, Err: http.ErrSchemeMismatch}).Error()
		want := "http://" + host
		if !strings.Contains(host, ":") {
			want += ":443" // where it answered
		}
		if !strings.Contains(msg, want) || strings.Contains(msg, "allow_plaintext_http") != wantPlaintextSetting {
			t.Errorf("%s: %q; want it to name %s, and allow_plaintext_http only for a host that is not this machine", host, msg, want)
		}
	}
}
