package cli

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A CDN's 524 (the origin took the request and did not answer in time) after
// the service recorded a submit: like a gateway's 503, the outcome is
// unknown (exit 4, "look first"), and a vote is settled by reading the
// activity, not reported as failed and sent again.
func TestGatewayAny5xxAfterASubmitIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "cdn-524", e.userID("operator"))
	wantExit(t, "tag create", code, exitOK, out, errOut)
	id := activityIDFrom(t, out)

	g := e.demo.Gateway()
	g.FailSubmits.Store(true)
	g.FailStatus.Store(524)
	gwConfig := e.configVia(g.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	viaGateway := func(args ...string) (int, string, string) {
		return runVigil(t, map[string]string{"VIGIL_CONFIG": gwConfig}, "", args...)
	}

	code, out, errOut = viaGateway("tag", "create", "--name", "cdn-524-again")
	wantExit(t, "tag create answered 524", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "outcome unknown") {
		t.Errorf("stderr should say the outcome is unknown:\n%s", errOut)
	}

	body := `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"` + strconv.FormatInt(time.Now().UnixMilli(), 10) +
		`","organizationId":"` + e.demo.Info.OrganizationID + `","parameters":{"userTagName":"cdn-524-raw","userIds":[]}}`
	code, out, errOut = viaGateway("request", "--path", "/public/v1/submit/create_user_tag", "--body", body)
	wantExit(t, "a raw submit answered 524", code, exitOutcomeUnknown, out, errOut)

	code, out, errOut = viaGateway("activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve answered 524", code, exitOK, out, errOut)
	if !strings.Contains(errOut, "the activity shows your vote, so it counted") {
		t.Errorf("the vote should be settled by reading the activity:\n%s", errOut)
	}
	if a, err := e.client("alice").GetActivity(context.Background(), id); err != nil || a.Status != api.StatusCompleted {
		t.Errorf("bob's vote did not count: %+v, %v", a, err)
	}
}
