package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// testEnv is a server on real HTTP with an organization of alice, bob and carol
// (root) and operator, each with a real P-256 key and a real api.Client.
type testEnv struct {
	t       testing.TB
	srv     *Server
	http    *httptest.Server
	org     *Org
	keys    map[string]*keys.Key
	clients map[string]*api.Client
	skew    atomic.Int64 // added to the server clock, in nanoseconds
	// pinned, when not zero, is the server clock's fixed time in Unix
	// nanoseconds (see pin); skew is then ignored.
	pinned atomic.Int64
}

type envOptions struct {
	threshold int
	extra     map[string][]string // more non-root users: name -> tags
	rootCount int                 // more root users named root1..N
	dataDir   string              // "" keeps the store in memory
	log       io.Writer           // the service's log (text, INFO and up); nil discards it
	webhooks  WebhookOptions
	// holdWebhooks opens the service with Config.HoldWebhooks: the test
	// calls StartWebhooks.
	holdWebhooks bool
	// maxPolicyBytes is Config.MaxPolicyBytes: 0 keeps the default.
	maxPolicyBytes int64
	// policyWork is Config.PolicyWork: 0 keeps the engine's budgets. Tests
	// of what happens when the policies outrun them set a budget of a
	// policy and a half of their costly ones (costlyBudget), so that a few
	// such policies outrun it, not hundreds, each decision stopping sooner.
	policyWork uint64
	// maxListReplyBytes is Config.MaxListReplyBytes: 0 keeps the default.
	maxListReplyBytes int
}

// costlyBudget is the work budget of a test that outruns it with policies
// of work each: more than one such policy, so one alone still fits.
func costlyBudget(work uint64) uint64 { return 3 * work / 2 }

// schemaImage is the migrated empty database, made once: each in-memory
// service a test opens starts from it (Config.MemoryImage) instead of
// migrating anew, half a second of CPU under the race detector.
var schemaImage = sync.OnceValues(SchemaImage)

// testImage is schemaImage, or the test fails.
func testImage(t testing.TB) []byte {
	t.Helper()
	image, err := schemaImage()
	if err != nil {
		t.Fatal(err)
	}
	return image
}

func newEnv(t testing.TB) *testEnv { return newEnvWith(t, envOptions{threshold: 2}) }

func newEnvWith(t testing.TB, o envOptions) *testEnv {
	t.Helper()
	e := &testEnv{t: t, keys: map[string]*keys.Key{}, clients: map[string]*api.Client{}}
	cfg := Config{DataDir: o.dataDir, Webhooks: o.webhooks, HoldWebhooks: o.holdWebhooks, MaxPolicyBytes: o.maxPolicyBytes, Now: e.clock,
		PolicyWork: o.policyWork, MaxListReplyBytes: o.maxListReplyBytes}
	if o.dataDir == "" {
		cfg.MemoryImage = testImage(t)
	}
	if o.log != nil {
		cfg.Logger = slog.New(slog.NewTextHandler(o.log, nil))
	}
	srv, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	e.http = httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		e.http.Close()
		srv.Close()
	})
	var specs []UserSpec
	for _, u := range []struct {
		name string
		root bool
		tags []string
	}{{"alice", true, nil}, {"bob", true, []string{"ops"}}, {"carol", true, []string{"ops"}}, {"operator", false, []string{"operator"}}} {
		k := e.newKey(u.name)
		specs = append(specs, UserSpec{Name: u.name, Root: u.root, Tags: u.tags, Email: u.name + "@example.com", OIDCSubject: u.name + "-sub",
			APIKeys: []APIKeySpec{{Name: u.name + " key", PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}})
	}
	for name, tags := range o.extra {
		k := e.newKey(name)
		specs = append(specs, UserSpec{Name: name, Tags: tags, APIKeys: []APIKeySpec{{Name: name, PublicKey: k.PublicKeyHex()}}})
	}
	for i := 1; i <= o.rootCount; i++ {
		name := "root" + strconv.Itoa(i)
		k := e.newKey(name)
		specs = append(specs, UserSpec{Name: name, Root: true, APIKeys: []APIKeySpec{{Name: name, PublicKey: k.PublicKeyHex()}}})
	}
	org, err := srv.CreateOrganization(context.Background(), "Test Org", o.threshold, specs)
	if err != nil {
		t.Fatal(err)
	}
	e.org = org
	for name, k := range e.keys {
		e.clients[name] = e.client(k)
	}
	return e
}

func (e *testEnv) newKey(name string) *keys.Key {
	e.t.Helper()
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		e.t.Fatal(err)
	}
	e.keys[name] = k
	return k
}

func (e *testEnv) client(st keys.Stamper) *api.Client {
	e.t.Helper()
	c, err := api.NewClient(e.http.URL, e.org.ID, st)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func (e *testEnv) user(name string) string { return e.org.UserIDs[name] }

// body builds a submit body by hand (the client would refuse bad input).
func (e *testEnv) body(typ string, params any, extra map[string]any) []byte {
	e.t.Helper()
	m := map[string]any{"type": typ, "timestampMs": strconv.FormatInt(time.Now().UnixMilli(), 10), "organizationId": e.org.ID, "parameters": params}
	for k, v := range extra {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

type reply struct {
	status int
	body   []byte
	err    api.ErrorBody
	act    api.Activity
}

// post sends body to path stamped by st (nil: no stamp).
func (e *testEnv) post(path string, body []byte, st keys.Stamper) reply {
	e.t.Helper()
	req, err := http.NewRequest("POST", e.http.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if st != nil {
		name, value, err := st.Stamp(body)
		if err != nil {
			e.t.Fatal(err)
		}
		req.Header.Set(name, value)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode}
	r.body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode == 200 {
		var ar api.ActivityResponse
		json.Unmarshal(r.body, &ar)
		r.act = ar.Activity
	} else if err := json.Unmarshal(r.body, &r.err); err != nil {
		e.t.Fatalf("error reply is not an error body: %s", r.body)
	}
	return r
}

func (e *testEnv) submitPath(op string) string { return api.SubmitPrefix + op }

// wantError checks an error reply's status, gRPC code and errorCode detail.
func wantError(t *testing.T, r reply, status, code int, errorCode string) {
	t.Helper()
	if r.status != status || r.err.Code != code {
		t.Fatalf("got HTTP %d code %d (%s), want HTTP %d code %d", r.status, r.err.Code, r.body, status, code)
	}
	if errorCode != "" && (len(r.err.Details) != 1 || r.err.Details[0].ErrorCode != errorCode || r.err.Details[0].Type != api.ErrorDetailType) {
		t.Fatalf("details = %+v, want errorCode %s", r.err.Details, errorCode)
	}
	if r.err.Message == "" {
		t.Fatal("error without a message")
	}
}

func ctxT(t testing.TB) context.Context {
	return ctxWithin(t, 30*time.Second)
}

// ctxWithin is ctxT for a test whose requests run up to a work budget on
// purpose: a guard against a hang, wide enough for the race detector on a
// busy machine, not a measure of speed.
func ctxWithin(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// fingerprintSHA256 computes the expected fingerprint independently.
func fingerprintSHA256(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func httpServer(t testing.TB, h http.Handler) string {
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// clock is the server's clock: pinned, or the real one moved by skew.
func (e *testEnv) clock() time.Time {
	if at := e.pinned.Load(); at != 0 {
		return time.Unix(0, at)
	}
	return time.Now().Add(time.Duration(e.skew.Load()))
}

// pin stops the server's clock at t, for tests of an exact instant; unlike
// replacing srv.now, it is safe while the service's own goroutines read it.
func (e *testEnv) pin(t time.Time) { e.pinned.Store(t.UnixNano()) }

// skewed is a client of user name whose clock follows the server's injected
// one (e.skew), so its stamps stay fresh as a test moves time on.
func (e *testEnv) skewed(name string) *api.Client {
	e.t.Helper()
	c, err := api.NewClient(e.http.URL, e.org.ID, e.keys[name], api.WithClock(func() time.Time {
		return time.Now().Add(time.Duration(e.skew.Load()))
	}))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// later is a client of user name whose clock is a second ahead: its bodies differ
// from those of e.clients[name] even within one millisecond (identical bodies
// are the same activity).
func (e *testEnv) later(name string) *api.Client {
	e.t.Helper()
	c, err := api.NewClient(e.http.URL, e.org.ID, e.keys[name], api.WithClock(func() time.Time { return time.Now().Add(time.Second) }))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// allMfaPolicies lists every user's MFA policies with list_mfa_policies, the
// local service's earlier name, which api.Client does not offer (the service
// has only get_mfa_policies, per user).
func allMfaPolicies(t testing.TB, c *api.Client) []api.MfaPolicy {
	t.Helper()
	raw, err := c.QueryRaw(context.Background(), api.QueryListMfaPolicies, api.ListMfaPoliciesRequest{OrganizationID: c.OrganizationID()})
	if err != nil {
		t.Fatal(err)
	}
	var r api.ListMfaPoliciesResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	return r.MfaPolicies
}

// logBuffer collects a service's log; safe for concurrent use.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// Len is the number of bytes logged so far.
func (l *logBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

// String is everything logged so far.
func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
