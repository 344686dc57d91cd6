package cli

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// stampGateway is a gateway in front of the service that keeps every
// stamp it sees: any element on the way could replay one.
type stampGateway struct {
	mu     sync.Mutex
	stamps []string
	config string // the env's config, every profile through the gateway
}

func newStampGateway(t *testing.T, e *verbEnv) *stampGateway {
	t.Helper()
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	g := &stampGateway{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s := r.Header.Get("X-Stamp"); s != "" {
			g.mu.Lock()
			g.stamps = append(g.stamps, s)
			g.mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	g.config = e.configVia(srv.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	return g
}

// take returns the stamps seen since the last take.
func (g *stampGateway) take() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.stamps
	g.stamps = nil
	return s
}

// submitWith posts body with stamp to the service's create_user_tag, as
// whoever holds the stamp would, and fails the test when the service takes it.
func submitWith(t *testing.T, e *verbEnv, how, stamp string, body []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", e.demo.URL+api.SubmitPrefix+"create_user_tag", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Stamp", stamp)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	reply, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Errorf("%s: a stamp made under the read-only profile submitted an activity:\n%s", how, reply)
	}
}

// stampLine is the X-Stamp value of request --stamp-only's output, "" for none.
func stampLine(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "X-Stamp: "); ok {
			return v
		}
	}
	return ""
}

// A read-only profile makes no stamp that the service takes at a submit
// path: a stamp signs the body, not the path, so neither a printed stamp nor
// one sent to a query path may cover an activity's body.
func TestReadOnlyProfileMakesNoSubmitStamp(t *testing.T) {
	e := newVerbEnv(t)
	g := newStampGateway(t, e)
	org := e.demo.Info.OrganizationID
	n := 0
	// Spellings of an activity that the service takes at create_user_tag.
	bodies := func() map[string][]byte {
		n++
		ts := time.Now().UnixMilli()
		return map[string][]byte{
			"plain":   fmt.Appendf(nil, `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"%d","organizationId":%q,"parameters":{"userTagName":"ro-plain-%d","userIds":[]}}`, ts, org, n),
			"spaced":  fmt.Appendf(nil, "{\n  \"organizationId\" : %q ,\n  \"parameters\" : { \"userIds\" : [ ] , \"userTagName\" : \"ro-spaced-%d\" } ,\n  \"timestampMs\" : \"%d\" ,\n  \"type\" : \"ACTIVITY_TYPE_CREATE_USER_TAG\"\n}\n", org, n, ts),
			"escaped": fmt.Appendf(nil, `{"\u0074ype":"ACTIVITY_TYPE_CREATE_USER_TAG","\u0074imestampMs":"%d","organizationId":%q,"\u0070arameters":{"userTagName":"ro-escaped-%d","userIds":[]}}`, ts, org, n),
		}
	}

	for name, body := range bodies() {
		code, out, errOut := e.run("", "request", "--profile", "readonly", "--stamp-only", "--path", "/public/v1/query/whoami", "--body", string(body))
		if s := stampLine(out); s != "" {
			submitWith(t, e, "request --stamp-only, "+name, s, body)
		}
		if code == exitOK || !strings.Contains(errOut, "read-only") || !strings.Contains(errOut, "profile that may submit") {
			t.Errorf("request --stamp-only, %s: exit %d, want a refusal that says why and what to do\nstdout:\n%s\nstderr:\n%s", name, code, out, errOut)
		}
	}

	for name, body := range bodies() {
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": g.config}, "", "request", "--profile", "readonly", "--path", "/public/v1/query/whoami", "--body", string(body))
		for _, s := range g.take() {
			submitWith(t, e, "request to a query path, "+name, s, body)
		}
		if code == exitOK || !strings.Contains(errOut, "read-only") || !strings.Contains(errOut, "nothing was stamped or sent") {
			t.Errorf("request to a query path, %s: exit %d, want a refusal\nstdout:\n%s\nstderr:\n%s", name, code, out, errOut)
		}
	}

	for _, how := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"--profile readonly", map[string]string{"VIGIL_CONFIG": e.config}, []string{"--profile", "readonly"}},
		{"VIGIL_PROFILE=readonly", map[string]string{"VIGIL_CONFIG": e.config, "VIGIL_PROFILE": "readonly"}, nil},
	} {
		body := bodies()["plain"]
		args := append([]string{"stamp", "--key", "alice", "--body", string(body)}, how.args...)
		code, out, errOut := runVigil(t, how.env, "", args...)
		if s := strings.TrimSpace(out); s != "" {
			submitWith(t, e, "stamp "+how.name, s, body)
		}
		if code == exitOK || !strings.Contains(errOut, "read-only") {
			t.Errorf("stamp %s: exit %d, want a refusal\nstdout:\n%s\nstderr:\n%s", how.name, code, out, errOut)
		}
	}
}

// The read-only stamper refuses every body that some reader of JSON could
// take as an activity, not only those this service takes: another case,
// another spelling of the same field, a duplicate key, a body that is not an
// object, an envelope nested inside. None reaches the network.
func TestReadOnlyProfileSendsNoActivityLikeBody(t *testing.T) {
	e := newVerbEnv(t)
	g := newStampGateway(t, e)
	org := e.demo.Info.OrganizationID
	ts := time.Now().UnixMilli()
	for name, body := range map[string]string{
		"upper case":     fmt.Sprintf(`{"TYPE":"ACTIVITY_TYPE_CREATE_USER_TAG","organizationId":%q}`, org),
		"mixed case":     fmt.Sprintf(`{"organizationId":%q,"TimestampMS":"%d"}`, org, ts),
		"snake case":     fmt.Sprintf(`{"organizationId":%q,"timestamp_ms":"%d"}`, org, ts),
		"long s":         fmt.Sprintf(`{"organizationId":%q,"timeſtampMs":"%d"}`, org, ts),
		"parameters":     fmt.Sprintf(`{"organizationId":%q,"Parameters":{}}`, org),
		"duplicate key":  fmt.Sprintf(`{"organizationId":%q,"organizationId":%q}`, org, org),
		"nested":         fmt.Sprintf(`{"organizationId":%q,"request":[{"type":"ACTIVITY_TYPE_CREATE_USER_TAG"}]}`, org),
		"not an object":  fmt.Sprintf(`[{"organizationId":%q}]`, org),
		"invalid UTF-8":  fmt.Sprintf("{\"organizationId\":%q,\"x\":\"\xff\"}", org),
		"lone surrogate": fmt.Sprintf(`{"organizationId":%q,"x":"\ud800"}`, org),
	} {
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": g.config}, body, "request", "--profile", "readonly", "--path", "/public/v1/query/whoami", "--body-file", "-")
		if sent := g.take(); len(sent) != 0 || code == exitOK {
			t.Errorf("%s: exit %d, %d stamped requests sent; want a refusal before anything is sent\nstdout:\n%s\nstderr:\n%s", name, code, len(sent), out, errOut)
		}
	}

	// Queries still work, typed and raw; vigil stamp with a keys directory
	// outside any profile still stamps.
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": g.config}, "", "request", "--profile", "readonly", "--path", "/public/v1/query/whoami", "--body", fmt.Sprintf(`{"organizationId":%q}`, org))
	wantExit(t, "whoami", code, exitOK, out, errOut)
	if !strings.Contains(out, org) {
		t.Errorf("whoami does not name the organization:\n%s", out)
	}
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": g.config}, "", "activity", "list", "--profile", "readonly")
	wantExit(t, "activity list", code, exitOK, out, errOut)
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": e.config, "VIGIL_PROFILE": "readonly"}, "", "stamp", "--dir", e.demo.KeysDir, "--key", "alice", "--body", "{}")
	wantExit(t, "stamp --dir", code, exitOK, out, errOut)
}
