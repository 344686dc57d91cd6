package cli

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An approval that makes the activity run and the run FAILS exits 1 and says
// so, so that a script can tell; the activity is still printed.
func TestActivityApproveExitsOneWhenTheRunFailed(t *testing.T) {
	e := newVerbEnv(t)
	// Through the client, which does not look users up: a sender that is no
	// user passes until the activity runs.
	act, err := e.client("alice").CreateInvitations(context.Background(), api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("invite: %+v %v", act, err)
	}
	for _, asJSON := range []bool{false, true} {
		args := []string{"activity", "approve", "--yes", "--profile", "bob", act.ID}
		if asJSON {
			// A second pending one, as the first has run.
			act, err = e.client("alice").CreateInvitations(context.Background(), api.CreateInvitationsParams{Invitations: []api.Invitation{{
				ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
				AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
			if err != nil {
				t.Fatal(err)
			}
			args = []string{"activity", "approve", "--yes", "--json", "--profile", "bob", act.ID}
		}
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 1, out, errOut)
		if !strings.Contains(out, "ACTIVITY_STATUS_FAILED") {
			t.Errorf("the failed activity should still be printed:\n%s", out)
		}
		if want := "vigil: activity " + act.ID + ` ran and FAILED: invitations[0].senderUserId: user "bogusQ" is not a user of this organization`; !strings.Contains(errOut, want) {
			t.Errorf("stderr %q, want %q", errOut, want)
		}
	}

	// A submit verb reports an activity that ran and FAILED at once the same
	// way (printSubmitted; the demo's quorum makes every submit wait, so the
	// failed activity above stands for one).
	shown, err := getActivityShown(context.Background(), e.client("alice"), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	var es *exitStatus
	if err := printSubmitted(io.Discard, shown, nil, false); !errors.As(err, &es) || es.code != 1 || !strings.Contains(es.msg, "ran and FAILED") {
		t.Errorf("a submit that FAILED: %v, want exit 1 saying so", err)
	}
}

// An approval whose reply is lost (a gateway's 503 after the service recorded
// it) and whose run FAILED ends as when the reply arrives: exit 1 saying it
// FAILED, with --json too. Exit 0 would let 'approve --yes ID && deploy' take a
// failed run for success; the command, run again, would not be run.
func TestActivityApproveWithLostReplyExitsOneWhenTheRunFailed(t *testing.T) {
	e := newVerbEnv(t)
	g := e.demo.Gateway()
	g.FailSubmits.Store(true)
	gwConfig := e.configVia(g.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	for _, asJSON := range []bool{false, true} {
		// Through the client, which does not look users up: a sender that is
		// no user passes until the activity runs.
		act, err := e.client("alice").CreateInvitations(context.Background(), api.CreateInvitationsParams{Invitations: []api.Invitation{{
			ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
			AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("invite: %+v %v", act, err)
		}
		args := []string{"activity", "approve", "--yes", "--profile", "bob", act.ID}
		if asJSON {
			args = append(args[:3], "--json", "--profile", "bob", act.ID)
		}
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": gwConfig}, "", args...)
		if a, _ := e.client("alice").GetActivity(context.Background(), act.ID); a == nil || a.Status != api.StatusFailed {
			t.Fatalf("setup: the activity should have run and FAILED: %+v", a)
		}
		wantExit(t, strings.Join(args, " ")+" (reply lost, the run FAILED)", code, exitFailure, out, errOut)
		if !strings.Contains(errOut, "the activity shows your vote, so it counted") || !strings.Contains(errOut, "vigil: activity "+act.ID+" ran and FAILED") {
			t.Errorf("stderr should say the vote counted and the run FAILED:\n%s", errOut)
		}
		if !strings.Contains(out, "ACTIVITY_STATUS_FAILED") {
			t.Errorf("the failed activity should still be printed:\n%s", out)
		}
	}
}
