package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// TestCallerValuesAreCutInRepliesAndLogs: a path, an operation name or an id
// as long as a request may carry is quoted cut short, in the reply and in the
// log line of the refusal, so that an unauthenticated caller cannot make the
// service write much more than it sends.
func TestCallerValuesAreCutInRepliesAndLogs(t *testing.T) {
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 2, log: logs})
	proxy := httpServer(t, e.srv.AuthProxyHandler())
	long := strings.Repeat("a", 100_000)
	const maxReply, maxLogLine = 1024, 2048

	check := func(what string, r reply, status int, errorCode string, logBefore int) {
		t.Helper()
		if r.status != status || len(r.err.Details) != 1 || r.err.Details[0].ErrorCode != errorCode {
			t.Fatalf("%s: HTTP %d %.300s, want %d %s", what, r.status, r.body, status, errorCode)
		}
		if len(r.body) > maxReply {
			t.Errorf("%s: the reply is %d bytes, want at most %d", what, len(r.body), maxReply)
		}
		// Cut, but still recognisable: the value's start, then an ellipsis.
		if !strings.Contains(r.err.Message, strings.Repeat("a", 64)) || !strings.Contains(r.err.Message, "…") {
			t.Errorf("%s: message %.300q does not quote the value's start, cut", what, r.err.Message)
		}
		if grew := logs.Len() - logBefore; grew > maxLogLine {
			t.Errorf("%s: the log grew by %d bytes for one refusal, want at most %d", what, grew, maxLogLine)
		}
	}

	unauthenticated := []struct {
		what, method, url string
		status            int
		errorCode         string
	}{
		{"unknown query", "POST", e.http.URL + api.QueryPrefix + long, 400, "UNKNOWN_OPERATION"},
		{"unknown submit", "POST", e.http.URL + api.SubmitPrefix + long, 400, "UNKNOWN_OPERATION"},
		{"unknown path", "POST", e.http.URL + "/x/" + long, 404, "NOT_FOUND"},
		{"wrong method", "GET", e.http.URL + api.QueryPrefix + long, 405, "METHOD_NOT_ALLOWED"},
		{"unknown auth proxy path", "POST", proxy + "/x/" + long, 404, "NOT_FOUND"},
	}
	for _, c := range unauthenticated {
		req, err := http.NewRequest(c.method, c.url, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		before := logs.Len()
		check(c.what, do(t, req).reply, c.status, c.errorCode, before)
	}

	// Ids in the 404s of authenticated queries.
	id := long[:5000]
	authenticated := []struct {
		op        string
		body      any
		errorCode string
	}{
		{api.QueryGetActivity, api.GetActivityRequest{OrganizationID: e.org.ID, ActivityID: id}, "ACTIVITY_NOT_FOUND"},
		{api.QueryGetUser, map[string]string{"organizationId": e.org.ID, "userId": id}, "USER_NOT_FOUND"},
		{api.QueryGetMfaStatus, api.GetMfaStatusRequest{OrganizationID: e.org.ID, ActivityID: id}, "ACTIVITY_NOT_FOUND"},
		{api.QueryGetMfaPolicies, api.GetMfaPoliciesRequest{OrganizationID: e.org.ID, UserID: id}, "USER_NOT_FOUND"},
	}
	for _, c := range authenticated {
		body, err := json.Marshal(c.body)
		if err != nil {
			t.Fatal(err)
		}
		before := logs.Len()
		check(c.op, e.post(api.QueryPrefix+c.op, body, e.keys["alice"]), 404, c.errorCode, before)
	}
}

// A value is cut between characters, so the message stays valid UTF-8 and
// shows no broken character.
func TestTruncateForMessageCutsBetweenCharacters(t *testing.T) {
	for _, s := range []string{strings.Repeat("é", 300), "a" + strings.Repeat("€", 300)} {
		got := truncateForMessage(s)
		if !utf8.ValidString(got) || len(got) > maxQuotedLen+len("…") || !strings.HasSuffix(got, "…") {
			t.Errorf("truncateForMessage(%.10q…) = %q", s, got)
		}
	}
	if s := strings.Repeat("x", maxQuotedLen); truncateForMessage(s) != s {
		t.Error("a value of maxQuotedLen bytes is cut")
	}
}

// countingListener counts the bytes the server has read from its connections.
type countingListener struct {
	net.Listener
	read *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.read}, nil
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// serveCounting serves e's service on a second server whose reads are counted.
func serveCounting(t *testing.T, e *testEnv) (url string, read *atomic.Int64) {
	t.Helper()
	read = &atomic.Int64{}
	ts := httptest.NewUnstartedServer(e.srv.Handler())
	ts.Listener = countingListener{ts.Listener, read}
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL, read
}

// stalledBody opens a connection that sends a request for path with a
// 1 MiB body and the header lines extra, all of it but the last 64 bytes,
// and then waits. Its reply, if the service sends one before the connection
// is closed, arrives on replies.
func stalledBody(t *testing.T, url, path, extra string, replies chan<- *http.Response) (conn net.Conn, sent int) {
	t.Helper()
	return stalledBodyFrom(t, "127.0.0.1", url, path, extra, replies)
}

// stalledBodyFrom is stalledBody from the address src.
func stalledBodyFrom(t *testing.T, src, url, path, extra string, replies chan<- *http.Response) (conn net.Conn, sent int) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: vigil\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n",
		path, extra, api.MaxRequestBodyBytes)
	data := append([]byte(head), bytes.Repeat([]byte(" "), api.MaxRequestBodyBytes-64)...)
	go func() {
		conn.Write(data) // fails once the service has answered and closed: that is the answer
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			resp.Body.Close()
			replies <- resp
		}
	}()
	return conn, len(data)
}

// nextReply is the next reply of a stalledBody connection.
func nextReply(t *testing.T, replies <-chan *http.Response) *http.Response {
	t.Helper()
	select {
	case resp := <-replies:
		return resp
	case <-time.After(30 * time.Second):
		t.Fatal("the requests beyond the budget were not answered")
		return nil
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// TestStalledBodiesWithoutACredentialAreNotBuffered: the audit's attack.
// Connections that send a garbage X-Stamp (or none) and all but the end of a
// 1 MiB body, then stall, made the service hold each body; it now reads and
// discards them (to answer 413 or 400 first, as before), so its memory does
// not grow with their number, and a legitimate request is served meanwhile.
func TestStalledBodiesWithoutACredentialAreNotBuffered(t *testing.T) {
	e := newEnv(t)
	url, read := serveCounting(t, e)
	const conns = 64
	before := heapInUse()
	replies := make(chan *http.Response, conns)
	var sent int64
	for i := range conns {
		extra := "X-Stamp: abc\r\n"
		if i%2 == 1 {
			extra = "" // no credential at all
		}
		_, n := stalledBody(t, url, api.QueryPrefix+api.QueryWhoami, extra, replies)
		sent += int64(n)
	}
	// Once the service has read every byte sent, each of those requests has
	// been through whatever reads its body.
	for deadline := time.Now().Add(30 * time.Second); read.Load() < sent; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the service read %d of the %d bytes sent", read.Load(), sent)
		}
	}
	grew := heapInUse() - before
	if limit := int64(conns) << 20 / 4; grew > limit {
		t.Errorf("%d stalled 1 MiB bodies without a credential grew the heap by %d MiB, want under %d MiB",
			conns, grew>>20, limit>>20)
	}
	if held := e.srv.bodies.inUse(); held != 0 {
		t.Errorf("they hold %d bytes of the body budget, want none", held)
	}
	if _, err := e.clients["alice"].Whoami(ctxT(t)); err != nil {
		t.Fatalf("a legitimate request while they stall: %v", err)
	}
	select {
	case resp := <-replies:
		t.Fatalf("a stalled request was answered %s before its body ended", resp.Status)
	default:
	}
}

// TestBufferedBodiesStayWithinTheBudget: requests whose credential is
// registered have their bodies buffered, but never more bytes at once than
// the budget; the others wait, then are answered 503 with Retry-After, and
// the service serves again once the bodies are gone.
func TestBufferedBodiesStayWithinTheBudget(t *testing.T) {
	e := newEnv(t)
	const budget, peers, conns = 8 << 20, 8, 32
	e.srv.bodies = newBodyBudget(budget, 50*time.Millisecond)
	// A registered key's stamp (of another body: these bodies never end anyway).
	name, stamp, err := e.keys["alice"].Stamp(whoamiBody(e.org.ID))
	if err != nil {
		t.Fatal(err)
	}
	before := heapInUse()
	replies := make(chan *http.Response, conns)
	var stalled []net.Conn
	for i := range conns {
		// From as many addresses as it takes to fill the budget with each
		// one's share.
		c, _ := stalledBodyFrom(t, loopback(t, 2+i%peers), e.http.URL, api.QueryPrefix+api.QueryWhoami, name+": "+stamp+"\r\n", replies)
		stalled = append(stalled, c)
	}
	held := conns - budget/api.MaxRequestBodyBytes
	for range held {
		if resp := nextReply(t, replies); resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" {
			t.Fatalf("a request beyond the budget: %s, Retry-After %q; want 503 with Retry-After 1", resp.Status, resp.Header.Get("Retry-After"))
		}
	}
	if inUse := e.srv.bodies.inUse(); inUse != budget {
		t.Errorf("the budget holds %d bytes, want all %d", inUse, budget)
	}
	if grew := heapInUse() - before; grew > budget+budget {
		t.Errorf("%d stalled 1 MiB bodies grew the heap by %d MiB; the budget is %d MiB", conns, grew>>20, budget>>20)
	}
	// Meanwhile a request is told to come back...
	r := e.post(api.QueryPrefix+api.QueryWhoami, whoamiBody(e.org.ID), e.keys["bob"])
	wantError(t, r, 503, api.CodeUnavailable, "BUSY")
	// ... and served once the stalled bodies are gone.
	for _, c := range stalled {
		c.Close()
	}
	for deadline := time.Now().Add(30 * time.Second); e.srv.bodies.inUse() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the budget still holds %d bytes after the connections closed", e.srv.bodies.inUse())
		}
	}
	if _, err := e.clients["bob"].Whoami(ctxT(t)); err != nil {
		t.Fatalf("a request after the stalled bodies are gone: %v", err)
	}
}

// loopback is the address 127.0.0.i, a peer of its own to the service; the
// test is skipped where the system does not route all of 127/8 to itself.
func loopback(t *testing.T, i int) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.%d", i)
	ln, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Skipf("no loopback address %s here: %v", addr, err)
	}
	ln.Close()
	return addr
}

// countingProgress serves h on a server of its own, counting the requests
// that have begun to read their body or been answered.
func countingProgress(t *testing.T, h http.Handler) (url string, progressed *atomic.Int64) {
	t.Helper()
	progressed = &atomic.Int64{}
	url = httpServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var once sync.Once
		mark := func() { once.Do(func() { progressed.Add(1) }) }
		defer mark()
		r.Body = firstRead{r.Body, mark}
		h.ServeHTTP(w, r)
	}))
	return url, progressed
}

// firstRead calls f when it is read from.
type firstRead struct {
	io.ReadCloser
	f func()
}

func (r firstRead) Read(p []byte) (int, error) {
	r.f()
	return r.ReadCloser.Read(p)
}

// settled waits until each of n stalled requests has begun to read its
// body, waits for budget, or has been answered.
func settled(t *testing.T, n int64, progressed *atomic.Int64, budgets ...*bodyBudget) {
	t.Helper()
	count := func() int64 {
		c := progressed.Load()
		for _, b := range budgets {
			b.mu.Lock()
			c += int64(len(b.waiters))
			b.mu.Unlock()
		}
		return c
	}
	for deadline := time.Now().Add(30 * time.Second); count() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of the %d stalled requests reached the budget", count(), n)
		}
	}
}

// whoamiStatusAt posts a whoami stamped by k to the service at url and
// returns the reply's status and errorCode.
func whoamiStatusAt(t *testing.T, e *testEnv, url string, k *keys.Key) (int, string) {
	t.Helper()
	body := whoamiBody(e.org.ID)
	name, stamp, err := k.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(ctxT(t), "POST", url+api.QueryPrefix+api.QueryWhoami, bytes.NewReader(body))
	req.Header.Set(name, stamp)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var eb api.ErrorBody
	json.NewDecoder(resp.Body).Decode(&eb)
	code := ""
	if len(eb.Details) > 0 {
		code = eb.Details[0].ErrorCode
	}
	return resp.StatusCode, code
}

// TestStalledStrangerStampsLeaveMembersServed: the review's attack. As many
// connections as the budget has 1 MiB bodies, from several addresses, send
// a well-formed stamp of a key they made themselves, registered nowhere,
// declare a 1 MiB body and send none of it. They held the whole budget, and
// every member's request was answered 503 BUSY; now their bodies are held
// within a budget of their own, and a member is served.
func TestStalledStrangerStampsLeaveMembersServed(t *testing.T) {
	e := newEnv(t)
	url, done := countingProgress(t, e.srv.Handler())
	stranger, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	name, stamp, err := stranger.Stamp([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	const conns = defaultBodyBudget / api.MaxRequestBodyBytes
	for i := range conns {
		stalledPart(t, loopback(t, 2+i%peerShare), url, api.QueryPrefix+api.QueryWhoami, name+": "+stamp+"\r\n", 0)
	}
	settled(t, conns, done, e.srv.bodies, e.srv.strangers)
	if held := e.srv.bodies.inUse(); held != 0 {
		t.Errorf("stamps of an unregistered key hold %d bytes of the members' budget", held)
	}
	if st, code := whoamiStatusAt(t, e, url, e.keys["alice"]); st != http.StatusOK {
		t.Fatalf("alice's whoami while strangers stall: HTTP %d %s, want 200", st, code)
	}
}

// TestOnePeerHoldsAtMostItsShare: a client with a registered key that stalls
// as many bodies as the budget holds, from one address, holds only that
// address's share of it, and the others are served.
func TestOnePeerHoldsAtMostItsShare(t *testing.T) {
	e := newEnv(t)
	url, done := countingProgress(t, e.srv.Handler())
	name, stamp, err := e.keys["alice"].Stamp(whoamiBody(e.org.ID))
	if err != nil {
		t.Fatal(err)
	}
	const conns = defaultBodyBudget / api.MaxRequestBodyBytes
	src := loopback(t, 2)
	for range conns {
		stalledPart(t, src, url, api.QueryPrefix+api.QueryWhoami, name+": "+stamp+"\r\n", 0)
	}
	settled(t, conns, done, e.srv.bodies)
	if held, share := e.srv.bodies.inUse(), int64(defaultBodyBudget/peerShare); held > share {
		t.Errorf("one address holds %d bytes of the budget, more than its share %d", held, share)
	}
	if st, code := whoamiStatusAt(t, e, url, e.keys["bob"]); st != http.StatusOK {
		t.Fatalf("bob's whoami, from another address: HTTP %d %s, want 200", st, code)
	}
}

// TestCredentialRefusedBeforeTheBodyAnswersAsBefore: refusing a credential
// before reading the body changes no answer: a body over 1 MiB is still a
// 413 and a body that breaks off a 400, whatever the credential; then the
// credential's 401.
func TestCredentialRefusedBeforeTheBodyAnswersAsBefore(t *testing.T) {
	e := newEnv(t)
	path := e.http.URL + api.QueryPrefix + api.QueryWhoami
	big := bytes.Repeat([]byte(" "), api.MaxRequestBodyBytes+1)
	small := whoamiBody(e.org.ID)
	_, good, err := e.keys["alice"].Stamp(small)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		stamps    []string
		body      io.Reader
		status    int
		errorCode string
	}{
		{"no credential, body over 1 MiB", nil, bytes.NewReader(big), 413, "REQUEST_TOO_LARGE"},
		{"garbage X-Stamp, body over 1 MiB", []string{"abc"}, bytes.NewReader(big), 413, "REQUEST_TOO_LARGE"},
		{"two X-Stamps, body over 1 MiB", []string{good, good}, bytes.NewReader(big), 413, "REQUEST_TOO_LARGE"},
		{"garbage X-Stamp, chunked body over 1 MiB", []string{"abc"}, io.MultiReader(bytes.NewReader(big)), 413, "REQUEST_TOO_LARGE"},
		{"well-formed X-Stamp, chunked body over 1 MiB", []string{good}, io.MultiReader(bytes.NewReader(big)), 413, "REQUEST_TOO_LARGE"},
		{"garbage X-Stamp", []string{"abc"}, bytes.NewReader(small), 401, "INVALID_STAMP"},
		{"no credential", nil, bytes.NewReader(small), 401, "MISSING_STAMP"},
		{"two X-Stamps", []string{good, good}, bytes.NewReader(small), 401, "AMBIGUOUS_STAMP"},
		{"X-Stamp of another body", []string{good}, bytes.NewReader(append(small, ' ')), 401, "INVALID_STAMP"},
		{"good, chunked", []string{good}, io.MultiReader(bytes.NewReader(small)), 200, ""},
	}
	for _, c := range cases {
		req, err := http.NewRequest("POST", path, c.body)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.stamps {
			req.Header.Add(keys.HeaderStamp, s)
		}
		r := do(t, req)
		if c.status == 200 {
			if r.status != 200 {
				t.Errorf("%s: HTTP %d %s", c.name, r.status, r.body)
			}
			continue
		}
		if r.status != c.status || len(r.err.Details) != 1 || r.err.Details[0].ErrorCode != c.errorCode {
			t.Errorf("%s: HTTP %d %s, want %d %s", c.name, r.status, r.body, c.status, c.errorCode)
		}
	}

	// A body that breaks off before its Content-Length: 400 BAD_BODY, with
	// a garbage credential as with a good one.
	for _, stamp := range []string{"abc", good} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(e.http.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: vigil\r\nX-Stamp: %s\r\nContent-Length: 100\r\n\r\n{\"organizationId\"", api.QueryPrefix+api.QueryWhoami, stamp)
		conn.(*net.TCPConn).CloseWrite()
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(b), "BAD_BODY") {
			t.Errorf("X-Stamp %.8s… and a body cut short: %s %s, want 400 BAD_BODY", stamp, resp.Status, b)
		}
	}
}

// TestBusyReachesUsersAsARefusal: the service's own 503 BUSY (no budget for
// the body) reaches a client as what it is — the request was not processed
// and may be sent again — not as a failure to report, and a submit answered
// so is not an unknown outcome.
func TestBusyReachesUsersAsARefusal(t *testing.T) {
	e := newEnv(t)
	e.srv.bodies = newBodyBudget(1, 10*time.Millisecond) // no body fits
	_, err := e.clients["alice"].CreateReadOnlySession(ctxT(t))
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a submit with no budget for its body: %v; want the service's 503", err)
	}
	var unknown *api.OutcomeUnknownError
	if errors.As(err, &unknown) {
		t.Errorf("a BUSY submit is reported as an unknown outcome: %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "did not process the request; it asks to wait 1s before trying again") || strings.Contains(msg, "report it") {
		t.Errorf("a BUSY reply reads %q; want the busy hint, not the failure's", msg)
	}
}

// TestStalledAuthProxyRequestsHoldNothing: the review's attack on the auth
// proxy, which takes no credential: requests that declare a 1 MiB body and
// send none of it filled its 8 MiB budget, and everyone's wallet_kit_config
// was answered 503. Its body is an empty object: no more than 1 KiB of one is
// held, and a longer one is read to its end, not held, and refused as any
// other body that is not an empty object.
func TestStalledAuthProxyRequestsHoldNothing(t *testing.T) {
	e := newEnv(t)
	info, err := SeedDemo(context.Background(), e.srv, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proxy, progressed := countingProgress(t, e.srv.AuthProxyHandler())
	const conns = 2 * proxyBodyBudget / api.MaxRequestBodyBytes
	for i := range conns {
		stalledPart(t, loopback(t, 2+i%peerShare), proxy, api.WalletKitConfigPath, api.AuthProxyConfigIDHeader+": "+info.AuthProxyConfigID+"\r\n", 0)
	}
	settled(t, conns, progressed, e.srv.proxyBodies)
	if held := e.srv.proxyBodies.inUse(); held != 0 {
		t.Errorf("stalled proxy requests hold %d bytes of its budget", held)
	}
	c, err := api.NewClient(e.http.URL, info.OrganizationID, nil, api.WithAuthProxy(proxy, info.AuthProxyConfigID))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WalletKitConfig(ctxT(t)); err != nil {
		t.Fatalf("wallet_kit_config while proxy requests stall: %v", err)
	}
	// Bodies longer than it holds are answered as before.
	for _, c := range []struct {
		body      string
		status    int
		errorCode string
	}{
		{"{" + strings.Repeat(`"x":1,`, 1000) + `"x":1}`, 400, "BAD_BODY"},
		{strings.Repeat(" ", api.MaxRequestBodyBytes+1), 413, "REQUEST_TOO_LARGE"},
	} {
		req, _ := http.NewRequest("POST", proxy+api.WalletKitConfigPath, strings.NewReader(c.body))
		req.Header.Set(api.AuthProxyConfigIDHeader, info.AuthProxyConfigID)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(b), c.errorCode) {
			t.Errorf("a %d-byte proxy body: HTTP %d %s, want %d %s", len(c.body), resp.StatusCode, b, c.status, c.errorCode)
		}
	}
	if held := e.srv.proxyBodies.inUse(); held != 0 {
		t.Errorf("answered proxy requests hold %d bytes of its budget", held)
	}
}
