package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// demoTagID is the id of the demo's completed tag named name, as the
// service's create_user_tag activities say.
func (e *verbEnv) demoTagID(name string) string {
	e.t.Helper()
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{
		Types: []string{api.TypeCreateUserTag}, Statuses: []string{api.StatusCompleted}, Limit: 100})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, a := range acts {
		if a.Intent.CreateUserTagIntent.UserTagName == name {
			return a.Result.CreateUserTagResult.UserTagID
		}
	}
	e.t.Fatalf("the demo has no completed tag %q", name)
	return ""
}

// invitation create refuses a sender that is no user and a tag that is no
// tag before anything is sent (the service fails the first only after the
// quorum voted, and takes the second as it is); a tag or sender given by
// name is sent by id.
func TestInvitationCreateChecksSenderAndTags(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	before, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateInvitations}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	invite := []string{"invitation", "create", "--name", "eve", "--email", "eve@example.com", "--access", "web"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sender", "bogusQ"}, `--sender "bogusQ" is neither the id nor the name of a user of this organization (known: "alice" (id ` + e.userID("alice")},
		{[]string{"--sender", e.userID("bob") + "Q"}, "is neither the id nor the name of a user of this organization"},
		{[]string{"--tag", "nosuch"}, `--tag "nosuch" is neither the id nor the name of a user tag of this organization (known: "auditors" (id ` + e.demoTagID("auditors") + ")"},
	} {
		code, out, errOut := e.run("", append(invite[:len(invite):len(invite)], tc.args...)...)
		wantExit(t, strings.Join(tc.args, " "), code, 2, out, errOut)
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errOut, tc.want)
		}
	}
	after, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateInvitations}, Limit: 100})
	if err != nil || len(after) != len(before) {
		t.Fatalf("a refused invitation was sent: %d invitations before, %d after (%v)", len(before), len(after), err)
	}

	a := e.submitAndApprove("", append(invite[:len(invite):len(invite)], "--tag", "auditors", "--sender", "carol")...)
	inv := a.Intent.CreateInvitationsIntent.Invitations[0]
	if inv.SenderUserID != e.userID("carol") || len(inv.ReceiverUserTags) != 1 || inv.ReceiverUserTags[0] != e.demoTagID("auditors") {
		t.Errorf("names should be sent as ids: %+v", inv)
	}
	if a.Status != api.StatusCompleted {
		t.Errorf("the invitation %s: %+v", a.Status, a.Failure)
	}
}
