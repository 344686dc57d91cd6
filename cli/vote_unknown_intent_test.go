package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// intentRewriter is a gateway in front of the local service whose
// get_activity replies carry the intent it holds instead of the service's:
// the real service has operations vigil does not know, which the local
// service never produces.
type intentRewriter struct {
	config string                          // a CLI config whose profiles go through it
	intent atomic.Pointer[json.RawMessage] // nil: replies pass unchanged
}

func newIntentRewriter(t *testing.T, e *verbEnv) *intentRewriter {
	t.Helper()
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	rw := &intentRewriter{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		intent := rw.intent.Load()
		if intent == nil || !strings.HasSuffix(resp.Request.URL.Path, "/"+api.QueryGetActivity) || resp.StatusCode != 200 {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		var reply map[string]map[string]json.RawMessage
		if err := json.Unmarshal(body, &reply); err != nil {
			return err
		}
		reply["activity"]["intent"] = *intent
		if body, err = json.Marshal(reply); err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	rw.config = e.configVia(srv.URL, filepath.Join(t.TempDir(), "rewriter.toml"))
	return rw
}

func (rw *intentRewriter) set(intent string) {
	raw := json.RawMessage(intent)
	rw.intent.Store(&raw)
}

func (rw *intentRewriter) run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runVigil(t, map[string]string{"VIGIL_CONFIG": rw.config}, "", args...)
}

// An activity of a type the real service has and vigil does not know
// (ACTIVITY_TYPE_CREATE_USERS_V3): its intent reaches the vote prompt and
// `vigil activity get` field by field, escaped, never as "(none)".
func TestVotePromptShowsAnIntentOfATypeVigilDoesNotKnow(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "unknown-intent", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	rw := newIntentRewriter(t, e)
	rw.set(`{"createUsersIntentV3":{"users":[{"userName":"mallory\u001b[2J","userEmail":"m@evil.example",
	 "apiKeys":[{"apiKeyName":"k","publicKey":"02aa` + strings.Repeat("b", 400) + `"}]}]}}`)

	code, out, errOut = rw.run(t, "activity", "get", "--profile", "bob", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	for _, want := range []string{"createUsersIntentV3", `"mallory\u001b[2J"`, `"m@evil.example"`, "02aa" + strings.Repeat("b", 400)} {
		if !strings.Contains(out, want) {
			t.Errorf("activity get lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("activity get prints a raw escape:\n%q", out)
	}

	raw, err := e.client("bob").QueryRaw(context.Background(), api.QueryGetActivity, api.GetActivityRequest{OrganizationID: e.demo.Info.OrganizationID, ActivityID: id})
	if err != nil {
		t.Fatal(err)
	}
	var reply map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &reply); err != nil {
		t.Fatal(err)
	}
	reply["activity"]["intent"] = *rw.intent.Load()
	raw, _ = json.Marshal(reply)
	shown, err := decodeShownActivity("query/get_activity", raw)
	if err != nil {
		t.Fatal(err)
	}
	prompt := voteDetails(context.Background(), proc{stderr: io.Discard}, e.client("bob"), shown)
	for _, want := range []string{"createUsersIntentV3", "a type vigil does not know", `"mallory\u001b[2J"`, "02aa" + strings.Repeat("b", 400)} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the vote prompt lacks %s:\n%s", want, prompt)
		}
	}
}

// When the reply holds no intent at all, approving is refused unless the
// member says, with --yes, that they approve without seeing it; rejecting
// is not (it can do no harm).
func TestApproveWithoutAnIntentToShowNeedsYes(t *testing.T) {
	approveNeedsYes(t, newVerbEnv(t), "no-intent", `{}`, "no intent vigil can show")
}

// approveNeedsYes has bob approve a tag created as name while the service's
// replies carry intent instead of its own: refused (exit 2, saying why
// and how to read the reply) without counting, then counted with --yes.
func approveNeedsYes(t *testing.T, e *verbEnv, name, intent, why string) {
	t.Helper()
	ctx := context.Background()
	code, out, errOut := e.run("", "tag", "create", "--name", name, e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	rw := newIntentRewriter(t, e)
	rw.set(intent)

	code, out, errOut = rw.run(t, "activity", "approve", "--profile", "bob", id)
	wantExit(t, "approve "+name, code, 2, out, errOut)
	for _, want := range []string{why, "vigil activity get --json " + id, "--yes"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, errOut)
		}
	}
	if a, err := e.client("alice").GetActivity(ctx, id); err != nil || a.Status == api.StatusCompleted {
		t.Fatalf("the refused approval counted: %v %+v", err, a)
	}
	code, out, errOut = rw.run(t, "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve with --yes", code, 0, out, errOut)
	if a, err := e.client("alice").GetActivity(ctx, id); err != nil || a.Status != api.StatusCompleted {
		t.Fatalf("the approval with --yes did not count: %v %+v", err, a)
	}
}
