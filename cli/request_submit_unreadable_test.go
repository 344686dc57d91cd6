package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A raw submit answered 2xx with a page that names no activity (a proxy's)
// leaves its outcome unknown, as it does for the typed submits: exit 4,
// "look first", not 0 (done).
func TestRequestSubmitAnswered2xxWithoutActivityIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	g := e.demo.Gateway()
	g.FailSubmits.Store(true)
	g.FailStatus.Store(200) // the service handled it; the client gets HTML
	gwConfig := e.configVia(g.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	env := map[string]string{"VIGIL_CONFIG": gwConfig}

	code, out, errOut := runVigil(t, env, "", "tag", "create", "--name", "proxied-typed")
	wantExit(t, "a typed submit answered 200 with HTML", code, exitOutcomeUnknown, out, errOut)

	body := `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"` + strconv.FormatInt(time.Now().UnixMilli(), 10) +
		`","organizationId":"` + e.demo.Info.OrganizationID + `","parameters":{"userTagName":"proxied-raw","userIds":[]}}`
	code, out, errOut = runVigil(t, env, "", "request", "--path", "/public/v1/submit/create_user_tag", "--body", body)
	wantExit(t, "a raw submit answered 200 with HTML", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "outcome unknown") || !strings.Contains(errOut, "activity list") {
		t.Errorf("stderr should say the outcome is unknown and where to look:\n%s", errOut)
	}
	if !strings.Contains(out, "error code: 200") {
		t.Errorf("the reply should still be shown:\n%s", out)
	}

	// A query answered so is not a submit: nothing can have been recorded.
	g.FailSubmits.Store(false)
	code, out, errOut = runVigil(t, env, "", "request", "--path", "/public/v1/query/whoami", "--body", `{"organizationId":"`+e.demo.Info.OrganizationID+`"}`)
	wantExit(t, "a query through the gateway", code, exitOK, out, errOut)
}
