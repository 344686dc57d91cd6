package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A request padded to the 1 MiB body limit fills the room the service
// keeps for vote messages, so bob's approval is shown without its signed
// message: vigil cannot check it. It is still his, recorded: 'activity
// approve' run again is "nothing to do" (exit 0), and the same approval sent
// again through 'vigil request' (a 409 from the service) is no failure
// (exit 0, not "nothing was recorded"); both note that it was not checked.
func TestVoteAgainOverOwnUncheckedVoteIsAlreadyRecorded(t *testing.T) {
	e := newVerbEnv(t)
	body := fmt.Sprintf(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"%d","organizationId":%q,"parameters":{"userTagName":"big","userIds":[]}}`,
		time.Now().UnixMilli(), e.demo.Info.OrganizationID)
	body = "{" + strings.Repeat(" ", api.MaxRequestBodyBytes-len(body)-100) + body[1:]
	code, out, errOut := e.run(body, "request", "--profile", "alice", "--path", "/public/v1/submit/create_user_tag", "--body-file", "-")
	wantExit(t, "padded submit", code, exitOK, out, errOut)
	var resp api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("%v\n%.500s", err, out)
	}
	id := resp.Activity.ID
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "bob's first approval", code, exitOK, out, errOut)
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	bobs := a.VoteOf(e.userID("bob"))
	if bobs == nil || bobs.Message != "" {
		t.Fatalf("the read shows bob's vote %+v; the test needs it without its message", bobs)
	}

	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve run again", code, exitOK, out, errOut)
	for _, want := range []string{"you already approved this activity", "nothing to do", "without a signed message", "could not check it"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("approve run again: stderr lacks %q:\n%s", want, errOut)
		}
	}

	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": e.config}, voteBody(e, a.Fingerprint),
		"request", "--profile", "bob", "--path", "/public/v1/submit/approve_activity", "--body-file", "-")
	wantExit(t, "the approval sent again", code, exitOK, out, errOut)
	for _, want := range []string{"refused the vote as a second one", "you already approved", "without a signed message", "could not check it"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("request sent again: stderr lacks %q:\n%s", want, errOut)
		}
	}
}
