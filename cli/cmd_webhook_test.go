package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// startListener runs 'vigil webhook listen' in-process on a free port and
// returns its URL and the lines it prints; it stops when the test ends.
func startListener(t *testing.T, e *verbEnv, saveDir string) (string, *syncBuffer) {
	t.Helper()
	url, out, _ := startStoppableListener(t, e, saveDir)
	return url, out
}

// startStoppableListener is startListener, also returning a stop function
// that returns once the listener has exited (a restart: another listener
// may then save in saveDir).
func startStoppableListener(t *testing.T, e *verbEnv, saveDir string) (string, *syncBuffer, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	c := proc{stdin: strings.NewReader(""), stdout: out, stderr: errOut, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	exited := make(chan struct{})
	var code int
	go func() {
		defer close(exited)
		code = run(ctx, c, []string{"webhook", "listen", "--addr", "127.0.0.1:0", "--json", "--save", saveDir})
	}()
	stop := func() { cancel(); <-exited }
	t.Cleanup(stop)
	re := regexp.MustCompile(`on (http://[0-9.:]+/)`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(errOut.String()); m != nil {
			return m[1], out, stop
		}
		select {
		case <-exited:
			t.Fatalf("listen exited %d: %s", code, errOut.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("listener did not start: %s", errOut.String())
	return "", nil, nil
}

func reports(t *testing.T, out *syncBuffer) []deliveryReport {
	t.Helper()
	var rs []deliveryReport
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var r deliveryReport
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("listen --json printed a line that is not JSON: %q", l)
		}
		rs = append(rs, r)
	}
	return rs
}

// waitReports waits until ok holds for the reports printed so far.
func waitReports(t *testing.T, out *syncBuffer, what string, timeout time.Duration, ok func([]deliveryReport) bool) []deliveryReport {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		rs := reports(t, out)
		if ok(rs) {
			return rs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen in %s; printed:\n%s", what, timeout, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func postDelivery(t *testing.T, url string, h http.Header, body []byte) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	for k, vs := range h {
		req.Header[k] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func loadSaved(t *testing.T, base string) (http.Header, []byte) {
	t.Helper()
	body, err := os.ReadFile(base + ".body")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(base + ".headers")
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseHeaderLines(strings.Split(string(raw), "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return h, body
}

// hookAndTag points the organization's webhook at url (set by the root
// quorum: alice proposes, bob approves), then creates a user tag and returns
// that activity's id: the first delivery a test waits for.
func hookAndTag(t *testing.T, e *verbEnv, url string) (first string) {
	t.Helper()
	code, o, errOut := e.run("", "feature", "set", "--value", url, "webhook")
	wantExit(t, "feature set webhook", code, 0, o, errOut)
	code, o, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", activityIDFrom(t, o))
	wantExit(t, "approve", code, 0, o, errOut)
	code, o, errOut = e.run("", "tag", "create", "--name", "first", e.userID("bob"))
	wantExit(t, "tag create", code, 0, o, errOut)
	return activityIDFrom(t, o)
}

// Deliveries of the real local service, with the webhook set under the root
// quorum, verify; a key rotated mid-stream is picked up; tampered, re-keyed,
// stale and replayed deliveries are refused and answered non-2xx.
func TestWebhookListenVerifiesServiceDeliveriesEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	saveDir := t.TempDir()
	url, out := startListener(t, e, saveDir)

	first := hookAndTag(t, e, url)
	rs := waitReports(t, out, "a delivery of the first activity", 20*time.Second, func(rs []deliveryReport) bool {
		for _, r := range rs {
			if r.ActivityID == first {
				return true
			}
		}
		return false
	})
	oldKid := rs[0].KeyID

	newKid, err := e.demo.Server.RotateWebhookKey(context.Background())
	if err != nil || newKid == oldKid {
		t.Fatalf("rotate: %v (%s)", err, newKid)
	}
	code, o, errOut := e.run("", "tag", "create", "--name", "second", e.userID("carol"))
	wantExit(t, "tag create", code, 0, o, errOut)
	second := activityIDFrom(t, o)
	// The listener may refetch its cached key set only every few seconds: the
	// first attempts are answered 503 and the service's retry verifies.
	rs = waitReports(t, out, "a verified delivery under the rotated key", 45*time.Second, func(rs []deliveryReport) bool {
		for _, r := range rs {
			if r.ActivityID == second && r.Verified && r.KeyID == newKid {
				return true
			}
		}
		return false
	})
	var genuine deliveryReport
	for _, r := range rs {
		if r.Verified {
			genuine = r
			if r.EventID == "" || r.Type == "" || r.Status == "" || r.OrganizationID != e.demo.Info.OrganizationID {
				t.Errorf("a verified report lacks fields: %+v", r)
			}
		} else if !strings.Contains(r.Reason, "unknown webhook signature key id") {
			// Genuine deliveries are refused only while the new key is unknown.
			t.Errorf("a genuine delivery was refused: %+v", r)
		}
	}

	h, body := loadSaved(t, genuine.Saved)
	forged := func(what string, h http.Header, body []byte, wantStatus int, wantReason string) {
		t.Helper()
		before := len(reports(t, out))
		if got := postDelivery(t, url, h, body); got != wantStatus {
			t.Errorf("%s: answered %d, want %d", what, got, wantStatus)
		}
		rs := reports(t, out)
		if len(rs) != before+1 || rs[before].Verified || !strings.Contains(rs[before].Reason, wantReason) {
			t.Errorf("%s: reported %+v, want refused with %q", what, rs[before:], wantReason)
		}
	}
	tampered := bytes.Replace(body, []byte(second), []byte("0000"+second[4:]), 1)
	forged("tampered body", h, tampered, http.StatusUnauthorized, "bad webhook signature")
	wrongKid := h.Clone()
	wrongKid.Set(webhook.HeaderKeyID, oldKid)
	if oldKid == newKid {
		t.Fatal("no old key")
	}
	// The old key may be retired already (unknown) or still published (bad signature).
	if st := postDelivery(t, url, wrongKid, body); st/100 == 2 {
		t.Errorf("a delivery relabelled with the old key id was answered %d", st)
	}
	unknown := h.Clone()
	unknown.Set(webhook.HeaderKeyID, "forged-key")
	forged("unknown key id", unknown, body, http.StatusServiceUnavailable, "unknown webhook signature key id")
	stale := h.Clone()
	stale.Set(webhook.HeaderTimestamp, strconv.FormatInt(time.Now().Add(-time.Hour).UnixMilli(), 10))
	forged("re-timestamped an hour back", stale, body, http.StatusUnauthorized, "bad webhook signature")
	// The same delivery again is acknowledged as a redelivery (the service
	// sends an event again when its answer was lost), not saved again.
	before := len(reports(t, out))
	if st := postDelivery(t, url, h, body); st != http.StatusOK {
		t.Errorf("a redelivery was answered %d, want 200", st)
	}
	if rs := reports(t, out); len(rs) != before+1 || !rs[before].Redelivery || rs[before].Saved != "" {
		t.Errorf("a redelivery was reported %+v, want a redelivery, not saved", rs[before:])
	}
	for _, r := range reports(t, out) {
		if r.Verified && !r.Redelivery && r.EventID == genuine.EventID && r.Saved != genuine.Saved {
			t.Errorf("a replay was accepted as new: %+v", r)
		}
	}

	// The saved genuine delivery verifies later, from the profile or a JWKS file;
	// the same delivery past --max-age, or tampered, does not.
	code, o, errOut = e.run("", "webhook", "verify", "--body", genuine.Saved+".body", "--headers", genuine.Saved+".headers")
	wantExit(t, "verify saved", code, 0, o, errOut)
	if !strings.HasPrefix(o, "verified event="+genuine.EventID) {
		t.Errorf("verify printed %q", o)
	}
	code, o, errOut = e.run("", "webhook", "keys", "--json")
	wantExit(t, "webhook keys --json", code, 0, o, errOut)
	jwksFile := filepath.Join(t.TempDir(), "keys #1 100%?.json") // a file name is not a URL
	os.WriteFile(jwksFile, []byte(o), 0o600)
	code, o, errOut = e.run("", "webhook", "verify", "--json", "--jwks", jwksFile, "--body", genuine.Saved+".body", "--headers", genuine.Saved+".headers")
	wantExit(t, "verify with --jwks file", code, 0, o, errOut)
	time.Sleep(5 * time.Millisecond)
	code, o, errOut = e.run("", "webhook", "verify", "--max-age", "1ms", "--body", genuine.Saved+".body", "--headers", genuine.Saved+".headers")
	wantExit(t, "verify stale", code, 1, o, errOut)
	if !strings.Contains(errOut, "stale webhook delivery") {
		t.Errorf("stale verify said %q", errOut)
	}
	tamperedFile := filepath.Join(t.TempDir(), "tampered.body")
	os.WriteFile(tamperedFile, tampered, 0o600)
	args := []string{"webhook", "verify", "--body", tamperedFile}
	for k := range h {
		args = append(args, "--header", k+": "+h.Get(k))
	}
	code, o, errOut = e.run("", args...)
	wantExit(t, "verify tampered", code, 1, o, errOut)
	if !strings.Contains(errOut, "bad webhook signature") || !strings.HasPrefix(o, "REFUSED") {
		t.Errorf("tampered verify: %q %q", o, errOut)
	}
	code, o, errOut = e.run("", "webhook", "verify", "--headers", genuine.Saved+".headers")
	wantExit(t, "verify without --body", code, 2, o, errOut)

	code, o, errOut = e.run("", "webhook", "keys")
	wantExit(t, "webhook keys", code, 0, o, errOut)
	if !strings.Contains(o, newKid) || !strings.Contains(o, "EdDSA/Ed25519") || !strings.Contains(o, "max-age=86400") || !strings.Contains(o, "receivers keep it: 1d,") {
		t.Errorf("webhook keys:\n%s", o)
	}
	info, err := os.Stat(genuine.Saved + ".body")
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("saved body mode: %v %v", info, err)
	}
}

// A profile's webhook_listen feeds the console's Webhooks screen with the
// local service's deliveries, verified.
func TestConsoleWebhookFeedReceivesVerifiedDeliveries(t *testing.T) {
	e := newVerbEnv(t)
	p, err := loadProfile(proc{getenv: func(string) string { return "" }}, e.config, "alice")
	if err != nil {
		t.Fatal(err)
	}
	p.WebhookListen = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	feed, err := consoleWebhookFeed(ctx, p, discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	code, o, errOut := e.run("", "feature", "set", "--value", "http://"+feed.Addr+"/", "webhook")
	wantExit(t, "feature set webhook", code, 0, o, errOut)
	code, o, errOut = e.run("", "activity", "approve", "--yes", "--profile", "carol", activityIDFrom(t, o))
	wantExit(t, "approve", code, 0, o, errOut)
	code, o, errOut = e.run("", "tag", "create", "--name", "fed", e.userID("bob"))
	wantExit(t, "tag create", code, 0, o, errOut)
	id := activityIDFrom(t, o)
	timeout := time.After(20 * time.Second)
	for {
		select {
		case d := <-feed.Deliveries:
			if !d.Verified {
				t.Fatalf("a genuine delivery was refused: %+v", d)
			}
			if d.ActivityID == id {
				return
			}
		case <-timeout:
			t.Fatal("no delivery of the new activity reached the feed")
		}
	}
}

// Every organization's deliveries are signed with the service's keys. A
// genuine delivery of another organization, captured by its root at its own
// webhook and forwarded unchanged, is refused by 'webhook listen', the
// console's feed and 'webhook verify' of a profile of the demo organization,
// and the report names the organization it was for.
func TestWebhookReceiversRefuseAnotherOrganizationsDelivery(t *testing.T) {
	e := newVerbEnv(t)
	saveDir := t.TempDir()
	url, out := startListener(t, e, saveDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	other, err := e.demo.Server.CreateOrganization(ctx, "Other", 1, []server.UserSpec{{Name: "mallory", Root: true,
		APIKeys: []server.APIKeySpec{{Name: "m", PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}}})
	if err != nil {
		t.Fatal(err)
	}
	type capture struct {
		h http.Header
		b []byte
	}
	got := make(chan capture, 16)
	own := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- capture{r.Header.Clone(), b}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer own.Close()
	mallory, err := api.NewClient(e.demo.URL, other.ID, k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mallory.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: own.URL}); err != nil {
		t.Fatal(err)
	}
	var c capture
	select {
	case c = <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("no delivery for the other organization")
	}

	if status := postDelivery(t, url, c.h, c.b); status != http.StatusForbidden {
		t.Errorf("listener answered %d to another organization's delivery, want 403", status)
	}
	rs := waitReports(t, out, "a report", 10*time.Second, func(rs []deliveryReport) bool { return len(rs) > 0 })
	r := rs[len(rs)-1]
	if r.Verified || r.OrganizationID != other.ID || !strings.Contains(r.Reason, "another organization") {
		t.Errorf("listener reported %+v, want refused as organization %s's", r, other.ID)
	}
	if line := r.line(); !strings.HasPrefix(line, "REFUSED") || !strings.Contains(line, "org="+other.ID) {
		t.Errorf("line for people: %q, want REFUSED naming org=%s", line, other.ID)
	}

	p, err := loadProfile(proc{getenv: func(string) string { return "" }}, e.config, "alice")
	if err != nil {
		t.Fatal(err)
	}
	p.WebhookListen = "127.0.0.1:0"
	feed, err := consoleWebhookFeed(ctx, p, discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	if status := postDelivery(t, "http://"+feed.Addr+"/", c.h, c.b); status/100 == 2 {
		t.Errorf("console feed answered %d to another organization's delivery", status)
	}
	// Refused on its headers: counted, with the last as a sample, not listed.
	select {
	case u := <-feed.Unlisted:
		if u.Count != 1 || u.Last.Verified || u.Last.OrganizationID != other.ID || !strings.Contains(u.Last.Reason, "another organization") {
			t.Errorf("console feed counted %+v, want one refusal for organization %s", u, other.ID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the console feed did not count the refusal")
	}

	// 'webhook verify' refuses the saved delivery for the profile's
	// organization and accepts it for the organization it was sent to.
	body := filepath.Join(saveDir, "other.body")
	os.WriteFile(body, c.b, 0o600)
	args := []string{"webhook", "verify", "--body", body}
	for _, name := range signedHeaders {
		args = append(args, "--header", name+": "+c.h.Get(name))
	}
	code, o, errOut := e.run("", args...)
	wantExit(t, "verify another organization's delivery", code, 1, o, errOut)
	if !strings.Contains(errOut, "another organization") {
		t.Errorf("verify said %q", errOut)
	}
	code, o, errOut = e.run("", append(args, "--organization", other.ID)...)
	wantExit(t, "verify with --organization", code, 0, o, errOut)
}

// `webhook keys --json` prints the key set as published, fields vigil does not
// know included.
func TestWebhookKeysJSONIsTheSetAsPublished(t *testing.T) {
	const published = `{"keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","x5t":"abc","nbf":1700000000,"service_signature_algorithm":"ed25519","service_signature_version":"v1"}],"extraTop":true}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, published)
	}))
	defer srv.Close()
	code, out, errOut := runVigil(t, nil, "", "webhook", "keys", "--json", "--jwks", srv.URL)
	wantExit(t, "webhook keys --json", code, 0, out, errOut)
	var got, want any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(published), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("webhook keys --json printed\n%s\nwant the set as published\n%s", out, published)
	}
}

// listen and verify print verification reports, not a reply of the service:
// their --json says so.
func TestWebhookReportVerbsDescribeTheirJSON(t *testing.T) {
	for verb, want := range map[string]string{
		"listen": `print one JSON object per delivery, one a line ({"verified":…,"eventId":…}), values exact`,
		"verify": `print the report as one JSON object ({"verified":…,"eventId":…}), values exact`,
	} {
		code, out, errOut := runVigil(t, nil, "", "webhook", verb, "-h")
		wantExit(t, "webhook "+verb+" -h", code, 0, out, errOut)
		if !strings.Contains(out, want) || strings.Contains(out, "the service's reply") {
			t.Errorf("webhook %s -h should describe its own --json (%q):\n%s", verb, want, out)
		}
	}
}

// TestWebhookListenerRefusesOnHeadersBeforeReadingTheBody: a request that
// is no delivery of this organization (no headers; another organization's)
// is refused on its headers alone: its body is not read (read, 8 MiB would
// be refused as too large), and with --save nothing of it is written.
func TestWebhookListenerRefusesOnHeadersBeforeReadingTheBody(t *testing.T) {
	saveDir := t.TempDir()
	var mu sync.Mutex
	var reports []deliveryReport
	ln, serve, err := startWebhookListener("127.0.0.1:0", "http://127.0.0.1:1", "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b", webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, saveDir,
		func(r deliveryReport) error { mu.Lock(); reports = append(reports, r); mu.Unlock(); return nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	otherOrg := http.Header{}
	for k, v := range map[string]string{webhook.HeaderAlgorithm: webhook.Algorithm, webhook.HeaderVersion: webhook.Version,
		webhook.HeaderKeyID: "k1", webhook.HeaderTimestamp: strconv.FormatInt(time.Now().UnixMilli(), 10), webhook.HeaderEventID: "ev-1",
		webhook.HeaderSignature: strings.Repeat("00", 64), webhook.HeaderOrganizationID: "01a21fb6-0000-7000-8000-000000000000",
		webhook.HeaderEventType: webhook.EventTypeActivityUpdates} {
		otherOrg.Set(k, v)
	}
	for name, tc := range map[string]struct {
		header http.Header
		status int
	}{
		"no headers":         {http.Header{}, http.StatusBadRequest},
		"other organization": {otherOrg, http.StatusForbidden},
	} {
		// 8 MiB, over the 4 MiB a delivery may have: read, it would be
		// refused as too large (413), not on its headers.
		body := io.LimitReader(zeros{}, 8<<20)
		req, err := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/", body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = tc.header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", name, resp.StatusCode, tc.status)
		}
	}
	files, _ := os.ReadDir(saveDir)
	files = slices.DeleteFunc(files, func(f os.DirEntry) bool { return f.Name() == saveLockFile }) // the listener's own lock
	if len(files) != 0 {
		t.Errorf("--save kept %d files of requests refused on their headers", len(files))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 2 || reports[0].Verified || reports[1].Verified {
		t.Errorf("reports %+v, want two refusals", reports)
	}
}

// zeros is an endless body of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
