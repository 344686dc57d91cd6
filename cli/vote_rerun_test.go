package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// docs/cli.md: the same vote again exits 0, "nothing to do", and after exit 4
// voting again is safe. The vote a script retries most is the last quorum
// member's, the one that ended the activity: run again, it exits 0 and shows
// the activity (with --json, only JSON on standard output), whether it was an
// approval that COMPLETED it or a rejection that REJECTED it. The opposite
// vote is still refused.
func TestActivityVoteRerunOfTheDecidingVoteExitsZero(t *testing.T) {
	e := newVerbEnv(t)
	for _, tc := range []struct{ verb, other, tag, status string }{
		{"approve", "reject", "rerun-approve", api.StatusCompleted},
		{"reject", "approve", "rerun-reject", api.StatusRejected},
	} {
		code, out, errOut := e.run("", "tag", "create", "--name", tc.tag, e.userID("operator"))
		wantExit(t, "tag create", code, 0, out, errOut)
		id := activityIDFrom(t, out)
		voters := []string{"bob"}
		if tc.verb == "reject" {
			voters = []string{"bob", "carol"} // two rejections end it REJECTED
		}
		last := ""
		for _, who := range voters {
			code, out, errOut = e.run("", "activity", tc.verb, "--yes", "--profile", who, id)
			wantExit(t, tc.verb+" by "+who, code, 0, out, errOut)
			last = who
		}
		if a, err := e.client("alice").GetActivity(context.Background(), id); err != nil || a.Status != tc.status {
			t.Fatalf("after the %s by %s: %+v %v, want %s", tc.verb, last, a, err, tc.status)
		}
		// The same vote again, by the member whose vote ended it.
		code, out, errOut = e.run("", "activity", tc.verb, "--yes", "--profile", last, id)
		if code != 0 || !strings.Contains(errOut, "nothing to do") || !strings.Contains(out, tc.status) {
			t.Errorf("%s re-run by %s, whose recorded vote ended the activity: exit %d, want 0 (\"you already ... nothing to do\") and the activity shown\nstdout: %s\nstderr: %s",
				tc.verb, last, code, out, strings.TrimSpace(errOut))
		}
		code, out, errOut = e.run("", "activity", tc.verb, "--yes", "--json", "--profile", last, id)
		var got api.ActivityResponse
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || got.Activity.ID != id || got.Activity.Status != tc.status {
			t.Errorf("%s --json re-run: exit %d, stdout not the activity as JSON (%v)\nstdout: %s\nstderr: %s", tc.verb, code, err, out, errOut)
		}
		// The opposite vote: a vote cannot be changed, ended or not.
		code, out, errOut = e.run("", "activity", tc.other, "--yes", "--profile", last, id)
		wantExit(t, tc.other+" after "+tc.verb, code, exitFailure, out, errOut)
		if !strings.Contains(errOut, "cannot be changed") {
			t.Errorf("%s by %s after their %s: the refusal does not say a vote cannot be changed:\n%s", tc.other, last, tc.verb, errOut)
		}
	}
}

// An approval re-run on an activity it made run, whose run FAILED, exits as
// that approval did: 1, saying it FAILED, so that 'approve --yes ID && deploy'
// run again does not deploy.
func TestActivityApproveRerunAfterAFailedRunExitsOne(t *testing.T) {
	e := newVerbEnv(t)
	// Through the client, which does not look users up: a sender that is no
	// user passes until the activity runs.
	act, err := e.client("alice").CreateInvitations(context.Background(), api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", act.ID)
	wantExit(t, "approve", code, exitFailure, out, errOut)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", act.ID)
	wantExit(t, "approve again", code, exitFailure, out, errOut)
	if !strings.Contains(errOut, "nothing to do") || !strings.Contains(errOut, "ran and FAILED") || !strings.Contains(out, api.StatusFailed) {
		t.Errorf("approve re-run on the FAILED activity it ran: stderr should say the vote is there and the run FAILED, stdout show it\nstdout: %s\nstderr: %s", out, errOut)
	}
}
