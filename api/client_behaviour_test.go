package api

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestNewClientRejectsBadInput(t *testing.T) {
	for _, base := range []string{"", "api.example.com", "ftp://api.example.com", "https://", "https://api.example.com/?x=1", "https://user:pw@api.example.com", "http://[::1"} {
		if _, err := NewClient(base, testOrg, nil); err == nil {
			t.Errorf("NewClient(%q) accepted", base)
		}
	}
	for name, opt := range map[string]Option{
		"nil http":       WithHTTPClient(nil),
		"nil clock":      WithClock(nil),
		"negative retry": WithRetryPolicy(-1, 0, 0),
		"cap < base":     WithRetryPolicy(1, time.Second, time.Millisecond),
		"proxy url":      WithAuthProxy("not a url", "cfg"),
		"proxy id":       WithAuthProxy("https://proxy.example.com", ""),
		"user agent":     WithUserAgent("a\r\nX-Evil: 1"),
	} {
		if _, err := NewClient("https://api.example.com", testOrg, nil, opt); err == nil {
			t.Errorf("%s: option accepted", name)
		}
	}
	c, err := NewClient("https://api.example.com/", testOrg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.OrganizationID() != testOrg || c.BaseURL() != "https://api.example.com" {
		t.Errorf("client = %q %q", c.OrganizationID(), c.BaseURL())
	}
	// No stamper: stamped calls fail clearly, without a request.
	if _, err := c.Whoami(context.Background()); err == nil || !strings.Contains(err.Error(), "no stamping key") {
		t.Errorf("Whoami without stamper: %v", err)
	}
	if _, err := c.WalletKitConfig(context.Background()); err == nil || !strings.Contains(err.Error(), "no auth proxy") {
		t.Errorf("WalletKitConfig without proxy: %v", err)
	}
}

func TestInvalidInputMakesNoRoundTrip(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, activityReply) })
	c := s.client(t)
	ctx := context.Background()
	_, err := c.CreatePolicy(ctx, CreatePolicyParams{PolicyName: "p", Effect: "EFFECT_PERMIT"})
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != "effect" {
		t.Errorf("CreatePolicy with a bad effect: %v, want *ValidationError on effect", err)
	}
	if _, err := c.ApproveActivity(ctx, ""); !errors.As(err, &ve) || ve.Field != "fingerprint" {
		t.Errorf("ApproveActivity(\"\"): %v", err)
	}
	if _, err := c.GetActivity(ctx, ""); !errors.As(err, &ve) || ve.Field != "activityId" {
		t.Errorf("GetActivity(\"\"): %v", err)
	}
	for _, o := range []ListActivitiesOptions{{Limit: 101}, {Limit: -1}, {Statuses: []string{"ACTIVITY_STATUS_DONE"}}, {Before: "a", After: "b"}, {Types: []string{""}}} {
		if _, err := c.ListActivities(ctx, o); !errors.As(err, &ve) {
			t.Errorf("ListActivities(%+v): %v, want *ValidationError", o, err)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid input, want 0", n)
	}
}

func TestErrorReplies(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		body     string
		sentinel error
		says     []string
	}{
		{"unauthenticated", 401, `{"code":16,"message":"stamp does not verify","details":[{"@type":"type.googleapis.com/errors.v1.ServiceErrorDetail","errorCode":"BAD_STAMP"}]}`,
			ErrUnauthenticated, []string{"query/whoami", "stamp does not verify", "Unauthenticated", "BAD_STAMP", "key is registered", "clock"}},
		{"refused OIDC token", 401, `{"code":16,"message":"parameters.oidcToken: JWT header is not a JSON object","details":[{"@type":"type.googleapis.com/errors.v1.ServiceErrorDetail","errorCode":"INVALID_OIDC_TOKEN"}]}`,
			ErrUnauthenticated, []string{"INVALID_OIDC_TOKEN", "get a fresh one from the provider"}},
		{"expired key", 401, `{"code":16,"message":"API key expired","details":[{"@type":"type.googleapis.com/errors.v1.ServiceErrorDetail","errorCode":"API_KEY_EXPIRED"}]}`,
			ErrUnauthenticated, []string{"log in again"}},
		{"permission", 403, `{"code":7,"message":"not a member"}`, ErrPermissionDenied, []string{"not a member", "PermissionDenied"}},
		{"not found", 404, `{"code":5,"message":"no such activity"}`, ErrNotFound, []string{"no such activity", "NotFound", "check the id"}},
		{"invalid", 400, `{"code":3,"message":"organizationId is required"}`, ErrInvalidArgument, []string{"organizationId is required", "InvalidArgument"}},
		{"conflict", 409, `{"code":6,"message":"policy exists"}`, ErrAlreadyExists, []string{"AlreadyExists"}},
		{"too large", 413, `{"code":3,"message":"body over 1 MiB"}`, ErrInvalidArgument, []string{"HTTP 413", "too large"}},
		{"status only 404", 404, ``, ErrNotFound, []string{"Not Found", "HTTP 404"}},
		{"html 401", 401, `<html><body>Unauthorized</body></html>`, ErrUnauthenticated, []string{"Unauthorized", "<html>"}},
		{"truncated JSON", 403, `{"code":7,"mess`, ErrPermissionDenied, []string{"Forbidden", `{\"code\":7,\"mess`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, tc.status, tc.body) })
			_, err := s.client(t).Whoami(context.Background())
			var apiErr *Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if apiErr.StatusCode != tc.status || apiErr.Operation != "query/whoami" {
				t.Errorf("StatusCode %d Operation %q", apiErr.StatusCode, apiErr.Operation)
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.sentinel)
			}
			for _, other := range []error{ErrUnauthenticated, ErrPermissionDenied, ErrNotFound, ErrInvalidArgument, ErrAlreadyExists, ErrRateLimited} {
				if other != tc.sentinel && errors.Is(err, other) {
					t.Errorf("error also matches %v", other)
				}
			}
			for _, want := range tc.says {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if n := len(s.requests()); n != 1 {
				t.Errorf("%d requests, want 1 (4xx is not retried)", n)
			}
		})
	}
}

func TestHostileErrorBodyIsSanitised(t *testing.T) {
	for _, body := range []string{
		`{"code":3,"message":"bad \u001b]52;c;cm0gLXJmIH4=\u0007thing\r\u202e","details":[{"@type":"x","errorCode":"E\u001b[2J"}]}`,
		"<h1>\x1b[2J\x1b]0;owned\x07oops\u009b</h1>" + strings.Repeat("x", 5000),
	} {
		s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 400, body) })
		_, err := s.client(t).ListUsers(context.Background())
		if err == nil {
			t.Fatal("no error")
		}
		assertTerminalSafe(t, body, err.Error())
		// The sequences show as text, escaped once, and do nothing.
		if !strings.Contains(err.Error(), `\u001b]52;c`) && !strings.Contains(err.Error(), `\u001b]0;owned`) {
			t.Errorf("escape sequence not shown escaped: %q", err)
		}
		if strings.Contains(err.Error(), `\\u001b`) {
			t.Errorf("escaped twice: %q", err)
		}
		if len(err.Error()) > 1500 {
			t.Errorf("error is %d bytes; the excerpt should be truncated", len(err.Error()))
		}
	}
}

func TestQueriesRetryThenSucceed(t *testing.T) {
	s := newTestService(t, func(n int, _ recorded, w http.ResponseWriter) {
		if n < 2 {
			writeJSON(w, 503, `{"code":14,"message":"warming up"}`)
			return
		}
		writeJSON(w, 200, `{"users":[{"userId":"u-1","userName":"alice"}]}`)
	})
	users, err := s.client(t).ListUsers(context.Background())
	if err != nil || len(users) != 1 {
		t.Fatalf("ListUsers = %v, %v", users, err)
	}
	reqs := s.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for _, r := range reqs {
		s.checkStamp(t, r) // every attempt carries a stamp over the same bytes
		if string(r.Body) != string(reqs[0].Body) {
			t.Errorf("retry body %s differs from %s", r.Body, reqs[0].Body)
		}
	}
}

func TestRetriesStopAtPolicy(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 500, `{"code":13,"message":"boom"}`) })
	_, err := s.client(t, WithRetryPolicy(2, time.Millisecond, time.Millisecond)).Whoami(context.Background())
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || !strings.Contains(err.Error(), "try again later") {
		t.Errorf("err = %v", err)
	}
	if n := len(s.requests()); n != 3 {
		t.Errorf("%d requests, want 1 + 2 retries", n)
	}
}

func TestSubmitsAreNotRetried(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		writeJSON(w, 503, `{"code":14,"message":"unavailable"}`)
	})
	_, err := s.client(t).ApproveActivity(context.Background(), "sha256:00")
	if err == nil || !strings.Contains(err.Error(), "HTTP 503") {
		t.Errorf("err = %v", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1: a submit is never retried", n)
	}
}

func TestRateLimitRetryAfter(t *testing.T) {
	// A Retry-After beyond the client's patience gives up at once with ErrRateLimited.
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "3600")
		writeJSON(w, 429, `{"code":8,"message":"slow down"}`)
	})
	start := time.Now()
	_, err := s.client(t).ListPolicies(context.Background())
	if !errors.Is(err, ErrRateLimited) || time.Since(start) > 5*time.Second {
		t.Errorf("err = %v after %s", err, time.Since(start))
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	// A short Retry-After is waited out (recorded, not slept), then the query succeeds.
	s = newTestService(t, func(n int, _ recorded, w http.ResponseWriter) {
		if n == 0 {
			w.Header().Set("Retry-After", "7")
			writeJSON(w, 429, `{"code":8,"message":"slow down"}`)
			return
		}
		writeJSON(w, 200, `{"policies":[]}`)
	})
	c := s.client(t)
	var waits []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	if _, err := c.ListPolicies(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(waits) != 1 || waits[0] < 7*time.Second {
		t.Errorf("waits %v, want one wait of at least the 7s Retry-After", waits)
	}

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"":                              0,
		"2":                             2 * time.Second,
		"-4":                            0,
		"soon":                          0,
		"Thu, 01 Jan 2026 00:00:30 GMT": 30 * time.Second,
		"Wed, 31 Dec 2025 23:00:00 GMT": 0,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestBackoffIsCappedAndJittered(t *testing.T) {
	c, _ := NewClient("https://api.example.com", testOrg, nil, WithRetryPolicy(10, 100*time.Millisecond, time.Second))
	for attempt := range 12 {
		ceiling := min(100*time.Millisecond<<attempt, time.Second)
		for range 50 {
			d := c.backoff(attempt)
			if d < ceiling/2 || d > ceiling {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", attempt, d, ceiling/2, ceiling)
			}
		}
	}
}

func TestContextCancelStopsRetries(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		cancel() // while the client waits to ask again
		writeJSON(w, 503, `{}`)
	})
	c := s.client(t, WithRetryPolicy(100, time.Hour, time.Hour))
	_, err := c.ListUsers(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// A wait that would outlast the deadline is not begun: the reply that
// asked for it is the error, not the deadline's "no answer in time".
func TestDeadlineShorterThanTheWaitReturnsTheReply(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 503, `{}`) })
	c := s.client(t, WithRetryPolicy(100, time.Hour, time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.ListUsers(ctx)
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the 503", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestSubmitConnectionLostAfterSend(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	_, err := s.client(t).CreateReadOnlySession(context.Background())
	t.Logf("lost: %v", err)
	if !errors.Is(err, ErrOutcomeUnknown) {
		t.Errorf("err = %v, want ErrOutcomeUnknown", err)
	}
	if host := strings.TrimPrefix(s.srv.URL, "http://"); !strings.Contains(err.Error(), host+" closed the connection without a reply") {
		t.Errorf("err = %v, want it to say the service closed the connection", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}

	// Nothing listening: the request never left, so the outcome is known.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, _ := NewClient("http://"+addr, testOrg, s.key)
	_, err = c.CreateReadOnlySession(context.Background())
	t.Logf("not sent: %v", err)
	if err == nil || errors.Is(err, ErrOutcomeUnknown) || !strings.Contains(err.Error(), "not sent") || !strings.Contains(err.Error(), "cannot connect to "+addr) ||
		!strings.Contains(err.Error(), "check the profile's base_url") {
		t.Errorf("err = %v, want a not-sent error", err)
	}
	// The auth proxy's address is another setting: the error names it.
	c, _ = NewClient(s.srv.URL, testOrg, s.key, WithAuthProxy("http://"+addr, "cfg"))
	if _, err := c.WalletKitConfig(context.Background()); err == nil || !strings.Contains(err.Error(), "check the profile's auth_proxy_url") {
		t.Errorf("auth proxy unreachable: %v", err)
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	elsewhere := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, `{}`) })
	s := newTestService(t, func(_ int, r recorded, w http.ResponseWriter) {
		w.Header().Set("Location", elsewhere.srv.URL+r.Path)
		w.WriteHeader(http.StatusTemporaryRedirect)
	})
	_, err := s.client(t, WithHTTPClient(&http.Client{})).Whoami(context.Background())
	if err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("err = %v, want an error about the redirect", err)
	}
	if n := len(elsewhere.requests()); n != 0 {
		t.Errorf("redirect followed: the other host got %d stamped requests", n)
	}
}

func TestReplySizeIsCapped(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.WriteHeader(200)
		w.Write([]byte(`{"users":[`))
		chunk := []byte(strings.Repeat(`{"userId":"u"},`, 4096))
		for written := 0; written <= MaxReplyBytes; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	_, err := s.client(t, WithRetryPolicy(0, 0, 0)).Whoami(context.Background())
	if err == nil || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("err = %v, want a size error", err)
	}
	// An unpaged list has its own bound, here lowered under the reply.
	_, err = s.client(t, WithRetryPolicy(0, 0, 0), WithMaxListReplyBytes(MinReplyBytes, "")).ListUsers(context.Background())
	if err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") || !strings.Contains(err.Error(), "WithMaxListReplyBytes") {
		t.Errorf("list err = %v, want a size error naming WithMaxListReplyBytes", err)
	}
}

func TestNonJSONSuccessReply(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.WriteHeader(200)
		w.Write([]byte("<html>\x1b[31mcaptive portal</html>"))
	})
	_, err := s.client(t).Whoami(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not the expected JSON") {
		t.Fatalf("err = %v", err)
	}
	assertTerminalSafe(t, "", err.Error())
}

func TestHostileRepliesAreSanitised(t *testing.T) {
	// ESC/OSC/CSI, \r, C1 and bidi in nested fields of an activity.
	const evil = `\u001b]52;c;cm0gLXJmIC8=\u0007\u001b[2J\rX\u009b\u202e`
	reply := `{"activity":{"id":"act\u202e1","organizationId":"` + testOrg + `","status":"ACTIVITY_STATUS_FAILED\u001b[5m","type":"ACTIVITY_TYPE_CREATE_POLICY_V3",` +
		`"intent":{"createPolicyIntentV3":{"policyName":"p` + evil + `","effect":"EFFECT_ALLOW","notes":"n` + evil + `"}},` +
		`"result":{},"votes":[{"id":"v-1","userId":"u-1","user":{"userId":"u-1","userName":"mallory` + evil + `"},"selection":"VOTE_SELECTION_APPROVED","message":"m` + evil + `"}],` +
		`"fingerprint":"sha256:aa","failure":{"code":7,"message":"denied` + evil + `"}}}`
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, reply) })
	a, err := s.client(t).GetActivity(context.Background(), "act\u202e1")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]string{
		"votes[].user.userName": a.Votes[0].User.UserName,
		"intent policyName":     a.Intent.CreatePolicyIntentV3.PolicyName,
		"intent notes":          a.Intent.CreatePolicyIntentV3.Notes,
		"failure.message":       a.Failure.Message,
		"status":                a.Status,
	} {
		assertTerminalSafe(t, name, got)
		if !strings.Contains(got, `\u001b]52;c`) && !strings.Contains(got, `\u001b[5m`) {
			t.Errorf("%s = %q: escape sequence not shown escaped", name, got)
		}
	}
	// A vote's message is the body its signature covers: kept exactly as
	// sent (sanitize:"exact"), so that the signature can be checked; whoever
	// shows it cleans it.
	if want := "m\x1b]52;c;cm0gLXJmIC8=\a\x1b[2J\rX\u009b\u202e"; a.Votes[0].Message != want {
		t.Errorf("votes[].message = %q, want it exactly as sent, %q", a.Votes[0].Message, want)
	}
	if want := "mallory" + evil; a.Votes[0].User.UserName != want {
		t.Errorf("userName = %q, want %q", a.Votes[0].User.UserName, want)
	}
	if a.ID != `"act\u202e1"` {
		t.Errorf("tampered id = %q, want it quoted", a.ID)
	}
}

func TestWaitForActivity(t *testing.T) {
	statuses := []string{StatusConsensusNeeded, StatusConsensusNeeded, StatusCompleted}
	s := newTestService(t, func(n int, _ recorded, w http.ResponseWriter) {
		st := statuses[min(n, len(statuses)-1)]
		writeJSON(w, 200, `{"activity":{"id":"act-1","organizationId":"`+testOrg+`","status":"`+st+`"}}`)
	})
	c := s.client(t)
	a, err := c.WaitForActivity(context.Background(), "act-1", nil)
	if err != nil || a.Status != StatusCompleted {
		t.Fatalf("WaitForActivity = %+v, %v", a, err)
	}
	if n := len(s.requests()); n != 3 {
		t.Errorf("%d polls, want 3", n)
	}

	// A condition that never holds ends with ctx, returning the last activity
	// seen. ctx ends once a poll has answered: a deadline could pass before
	// the first reply on a loaded machine, leaving no activity to return.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err = c.WaitForActivity(ctx, "act-1", func(*Activity) bool { cancel(); return false })
	if !errors.Is(err, context.Canceled) || a == nil || a.ID != "act-1" {
		t.Errorf("WaitForActivity with cancelled ctx = %+v, %v", a, err)
	}
}

func TestJWKSUsesGETWithoutBody(t *testing.T) {
	// Guard against an http.Client whose transport would add auth: the request must
	// carry nothing the test server did not expect.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.ContentLength > 0 || r.Header.Get("X-Stamp") != "" {
			http.Error(w, "bad", 400)
			return
		}
		writeJSON(w, 200, `{"keys":[]}`)
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WebhookJWKS(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// The client's own time limit running out is said in words, not as Go's
// "context deadline exceeded (Client.Timeout exceeded while awaiting headers)".
func TestSubmitClientTimeoutIsSaidPlainly(t *testing.T) {
	release := make(chan struct{})
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { <-release })
	defer close(release)
	// The connection is dialed before the clock starts, so the timeout can
	// only pass after the request went out (a loaded machine still dialing
	// when it passed would make it "not sent", a true but other case).
	host := strings.TrimPrefix(s.srv.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	dialed := &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return conn, nil }}
	c := s.client(t, WithHTTPClient(&http.Client{Timeout: 500 * time.Millisecond, Transport: dialed}))
	_, err = c.ApproveActivity(context.Background(), "sha256:00")
	if !errors.Is(err, ErrOutcomeUnknown) || !strings.Contains(err.Error(), "no reply from "+host+" within 500ms") ||
		strings.Contains(err.Error(), "Client.Timeout") {
		t.Errorf("err = %v", err)
	}
}

func TestSubmitCancelledInFlightIsOutcomeUnknown(t *testing.T) {
	release := make(chan struct{})
	// ctx ends once the service has the request: a deadline of its own could
	// pass while a loaded machine is still dialing, which is not sent.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { cancel(); <-release })
	defer close(release)
	_, err := s.client(t).RejectActivity(ctx, "sha256:00")
	if !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want ErrOutcomeUnknown and the cancellation", err)
	}

	// Cancelled before anything was sent: the outcome is known.
	done, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	_, err = s.client(t).RejectActivity(done, "sha256:00")
	if errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want a not-sent cancellation", err)
	}
}

type failingStamper struct{}

func (failingStamper) Stamp([]byte) (string, string, error) {
	return "", "", errors.New("key file is locked")
}

func TestStamperFailureSendsNothing(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, activityReply) })
	c, err := NewClient(s.srv.URL, testOrg, failingStamper{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ApproveActivity(context.Background(), "sha256:00")
	if err == nil || errors.Is(err, ErrOutcomeUnknown) || !strings.Contains(err.Error(), "key file is locked") {
		t.Errorf("err = %v", err)
	}
	if _, err := c.ListUsers(context.Background()); err == nil {
		t.Error("query with a failing stamper succeeded")
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent without a stamp", n)
	}
}
