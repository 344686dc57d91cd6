package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

func TestRequestValidation(t *testing.T) {
	checkUsageErrors(t, []usageCase{
		{[]string{"request", "--body", "{}"}, `path "" must be /public/v1/query/NAME or /public/v1/submit/NAME`},
		{[]string{"request", "--path", "/v1/whoami", "--body", "{}"}, "must be /public/v1/query/NAME"},
		{[]string{"request", "--path", "/public/v1/query/whoami?x=1", "--body", "{}"}, "may hold only a-z, 0-9 and '_' (found '?')"},
		{[]string{"request", "--path", "/public/v1/query/", "--body", "{}"}, "names no operation"},
		{[]string{"request", "--path", "/public/v1/query/whoami"}, "exactly one of --body JSON or --body-file F"},
		{[]string{"request", "--path", "/public/v1/query/whoami", "--body", "{}", "--body-file", "x"}, "exactly one of"},
		{[]string{"request", "--path", "/public/v1/query/whoami", "--body", "{oops"}, "the body is not valid JSON"},
		{[]string{"request", "--path", "/public/v1/query/whoami", "--body", "{}", "extra"}, "takes no arguments"},
	})
	code, _, errOut := runVigil(t, nil, "", "request", "--path", "/public/v1/query/whoami", "--body-file", filepath.Join(t.TempDir(), "missing.json"))
	if code != 2 || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing body file: exit %d, %s", code, errOut)
	}
}

func TestRequestStampOnlyVerifiesWithStampVerify(t *testing.T) {
	e := newVerbEnv(t)
	body := fmt.Sprintf(`{"organizationId": %q,  "note":"spaces and order kept"}`+"\n", e.demo.Info.OrganizationID)
	file := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(file, []byte(body), 0o600)
	code, out, errOut := e.run("", "request", "--stamp-only", "--path", "/public/v1/query/whoami", "--body-file", file)
	wantExit(t, "stamp-only", code, 0, out, errOut)

	head, gotBody, ok := strings.Cut(out, "\n\n")
	lines := strings.Split(head, "\n")
	if !ok || gotBody != body || len(lines) != 3 || lines[0] != "POST "+e.demo.URL+"/public/v1/query/whoami" || !strings.HasPrefix(lines[1], "X-Stamp: ") {
		t.Fatalf("stamp-only output is not URL, X-Stamp line, blank line, exact body:\n%q", out)
	}
	code, out, errOut = runVigil(t, nil, gotBody, "stamp", "--verify", lines[1], "--body-file", "-")
	wantExit(t, "stamp --verify", code, 0, out, errOut)
	if !strings.Contains(out, "verdict:    valid") {
		t.Errorf("verify output:\n%s", out)
	}
	// One byte changed and the stamp no longer verifies.
	code, _, _ = runVigil(t, nil, strings.TrimSuffix(gotBody, "\n"), "stamp", "--verify", lines[1], "--body-file", "-")
	if code != 1 {
		t.Errorf("a different body verified: exit %d", code)
	}
}

func TestRequestSendsExactBytes(t *testing.T) {
	e := newVerbEnv(t)
	org := e.demo.Info.OrganizationID

	code, out, errOut := e.run("", "request", "--path", "/public/v1/query/whoami", "--body", fmt.Sprintf(`{"organizationId":%q}`, org))
	wantExit(t, "whoami", code, 0, out, errOut)
	var who api.WhoamiResponse
	if err := json.Unmarshal([]byte(out), &who); err != nil || who.UserID != e.userID("alice") || !strings.Contains(errOut, "HTTP 200 OK") {
		t.Fatalf("whoami reply %v %+v; stderr %s", err, who, errOut)
	}

	// A submit built by hand: the activity it creates is there afterwards.
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	body := fmt.Sprintf("{\"type\": \"ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION\",\n \"timestampMs\":\"%s\", \"organizationId\":\"%s\",\"parameters\":{ }}\n", ts, org)
	code, out, errOut = e.run("", "request", "--profile", "operator", "--path", "/public/v1/submit/create_read_only_session", "--body-file", "-")
	wantExit(t, "empty standard input", code, 2, out, errOut)
	code, out, errOut = e.run(body, "request", "--profile", "operator", "--path", "/public/v1/submit/create_read_only_session", "--body-file", "-")
	wantExit(t, "submit", code, 0, out, errOut)
	var reply api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("submit reply: %v\n%s", err, out)
	}
	got, err := e.client("alice").GetActivity(context.Background(), reply.Activity.ID)
	if err != nil || got.Status != api.StatusCompleted || got.Type != api.TypeCreateReadOnlySession {
		t.Fatalf("the submitted activity: %+v %v", got, err)
	}
	// The fingerprint is the SHA-256 of the body the service received: the bytes
	// given, unchanged.
	if sum := sha256.Sum256([]byte(body)); got.Fingerprint != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("fingerprint %q is not that of the body given", got.Fingerprint)
	}

	// A non-2xx reply is printed and exits 1.
	code, out, errOut = e.run("", "request", "--path", "/public/v1/query/get_activity", "--body", fmt.Sprintf(`{"organizationId":%q,"activityId":"nope"}`, org))
	wantExit(t, "404", code, 1, out, errOut)
	if !strings.Contains(errOut, "HTTP 404") || !strings.Contains(out, `"message"`) {
		t.Errorf("404: stdout %s stderr %s", out, errOut)
	}

	// A read-only profile cannot submit, not even by hand, nor through a path
	// that a server or proxy would read as a submit.
	code, out, errOut = e.run(body, "request", "--profile", "readonly", "--path", "/public/v1/submit/create_read_only_session", "--body-file", "-")
	wantExit(t, "read-only", code, 1, out, errOut)
	if !strings.Contains(errOut, "read-only") {
		t.Errorf("read-only: %s", errOut)
	}
	for _, disguised := range []string{"/public/v1/query/../submit/create_read_only_session", "/public/v1/query/%2e%2e/submit/create_read_only_session",
		"/public/v1/query//../submit/create_read_only_session", "/public/v1/query/./whoami"} {
		code, out, errOut = e.run(body, "request", "--profile", "readonly", "--path", disguised, "--body-file", "-")
		wantExit(t, "read-only, "+disguised, code, 2, out, errOut)
	}
}
