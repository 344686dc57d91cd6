package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Several --name/--email pairs go in one create_invitations (one quorum
// round), each e-mail with the name next to it; none is dropped.
func TestInvitationCreateInvitesSeveral(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "invitation", "create", "--json",
		"--name", "dave", "--email", "dave@example.com",
		"--email", "erin@example.com", "--name", "erin", "--access", "api")
	wantExit(t, "invitation create with two invitees", code, 0, out, errOut)
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeCreateInvitations}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		in := a.Intent.CreateInvitationsIntent
		if in == nil {
			continue
		}
		got := map[string]string{}
		for _, inv := range in.Invitations {
			got[inv.ReceiverUserName] = inv.ReceiverUserEmail
		}
		if _, ours := got["erin"]; !ours {
			continue // an earlier invitation of the demo
		}
		for _, inv := range in.Invitations {
			if inv.AccessType != "ACCESS_TYPE_API" || inv.SenderUserID != e.userID("alice") {
				t.Errorf("invitation %+v: want access api, sent by alice", inv)
			}
		}
		if len(in.Invitations) != 2 || got["dave"] != "dave@example.com" || got["erin"] != "erin@example.com" {
			t.Errorf("sent %+v, want dave and erin with their own addresses", in.Invitations)
		}
		return
	}
	t.Fatalf("no create_invitations submitted:\n%s\n%s", out, errOut)
}

// Names and addresses that do not sit in pairs are refused: which address is
// whose would be a guess.
func TestInvitationCreateRefusesUnpairedInvitees(t *testing.T) {
	e := newVerbEnv(t)
	invitations := func() int { return e.countActivities(t, api.TypeCreateInvitations) }
	before := invitations()
	for _, args := range [][]string{
		{"--name", "dave", "--name", "erin", "--email", "dave@example.com", "--email", "erin@example.com"},
		{"--name", "dave", "--email", "dave@example.com", "--name", "erin"},
	} {
		cmd := append([]string{"invitation", "create", "--access", "api"}, args...)
		code, out, errOut := e.run("", cmd...)
		wantExit(t, strings.Join(cmd, " "), code, 2, out, errOut)
		if !strings.Contains(errOut, "--name NAME --email ADDRESS") {
			t.Errorf("%v: the refusal does not say how to pair them:\n%s", args, errOut)
		}
	}
	if after := invitations(); after != before {
		t.Errorf("%d create_invitations submitted anyway", after-before)
	}
}

// One address given twice (in any case) is refused before anything is sent:
// the quorum would be asked to invite one mailbox under two names, and a
// --per-invitee setting for that address would reach both invitations.
func TestInvitationCreateRefusesOneAddressTwice(t *testing.T) {
	e := newVerbEnv(t)
	invitations := func() int { return e.countActivities(t, api.TypeCreateInvitations) }
	before := invitations()
	for _, second := range []string{"dave@example.com", "dave@EXAMPLE.com", "Dave@example.com"} {
		cmd := []string{"invitation", "create", "--access", "api", "--name", "dave", "--email", "dave@example.com", "--name", "david", "--email", second}
		code, out, errOut := e.run("", cmd...)
		wantExit(t, strings.Join(cmd, " "), code, 2, out, errOut)
		if !strings.Contains(errOut, "invitations[1].receiverUserEmail") || !strings.Contains(errOut, "invitations[0]") || !strings.Contains(errOut, "invite each address once") {
			t.Errorf("%s: the refusal does not name both invitations and what to do:\n%s", second, errOut)
		}
	}
	if after := invitations(); after != before {
		t.Errorf("%d create_invitations submitted anyway", after-before)
	}
}
