package cli

import (
	"context"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Each exit status in docs/cli.md's table, with the real service: a script
// tells "done" (0), "refused or not sent: safe to run again" (1), "called
// wrongly" (2) and "sent, outcome unknown: look before running again" (4)
// apart by the status alone. (3, a wait that failed, is in
// cmd_activity_wait_test.go.)
func TestExitStatusesTellScriptsWhatHappened(t *testing.T) {
	e := newVerbEnv(t)

	code, out, errOut := e.run("", "tag", "create", "--name", "exit-ok")
	wantExit(t, "tag create", code, exitOK, out, errOut)

	code, out, errOut = e.run("", "tag", "create")
	wantExit(t, "tag create without --name", code, exitUsage, out, errOut)

	// Refused by the service.
	code, out, errOut = e.run("", "request", "--path", "/public/v1/submit/create_user_tag", "--body", "{}")
	wantExit(t, "a request the service refuses", code, exitFailure, out, errOut)
	if !strings.Contains(errOut, "HTTP 400") {
		t.Errorf("the refusal should be said:\n%s", errOut)
	}

	// Not sent: nothing listens where the profile points.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	downConfig := e.configVia(closed, filepath.Join(t.TempDir(), "down.toml"))
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": downConfig}, "", "tag", "create", "--name", "exit-not-sent")
	wantExit(t, "tag create with the service down", code, exitFailure, out, errOut)
	if !strings.Contains(errOut, "not sent") {
		t.Errorf("stderr should say the request was not sent:\n%s", errOut)
	}

	// Sent, and the reply lost after the service recorded it.
	g := e.demo.Gateway()
	g.FailSubmits.Store(true)
	gwConfig := e.configVia(g.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": gwConfig}, "", "tag", "create", "--name", "exit-unknown")
	wantExit(t, "tag create whose reply is lost", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "outcome unknown") || !strings.Contains(errOut, "before running the command again") {
		t.Errorf("stderr should say the outcome is unknown and where to look:\n%s", errOut)
	}

	// The same through a raw request: the gateway's 503 came after the
	// service recorded the tag, so the outcome is unknown, not a refusal.
	body := `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"` + strconv.FormatInt(time.Now().UnixMilli(), 10) +
		`","organizationId":"` + e.demo.Info.OrganizationID + `","parameters":{"userTagName":"exit-raw-unknown","userIds":[]}}`
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": gwConfig}, "", "request", "--path", "/public/v1/submit/create_user_tag", "--body", body)
	wantExit(t, "a raw submit answered 503 by a gateway", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "outcome unknown") || !strings.Contains(errOut, "activity list") {
		t.Errorf("stderr should say the outcome is unknown and where to look:\n%s", errOut)
	}
	acts, err := e.demo.Client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	recorded := slices.ContainsFunc(acts, func(a api.Activity) bool {
		p := a.Intent.CreateUserTagIntent
		return p != nil && p.UserTagName == "exit-raw-unknown"
	})
	if !recorded {
		t.Errorf("set-up: the service should have recorded the raw submit the gateway answered 503")
	}
}
