package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An invitation's sender and tags are ids in its intent; the approve prompt
// and activity get name them from the organization's users and tags, as the
// console's vote dialog does, and warn of a sender or tag that is not the
// organization's: the service fails an invitation from no user of it only
// after the quorum has voted. Against the local service.
func TestApprovePromptNamesAnInvitationsSenderAndTags(t *testing.T) {
	e := newVerbEnv(t)
	const noUser, noTag = "01a22a4c-0000-7000-8000-00000000dead", "01a22a4c-0000-7000-8000-00000000beef"
	bob, auditors := e.userID("bob"), e.demoTagID("auditors")
	act, err := e.client("alice").CreateInvitations(context.Background(), api.CreateInvitationsParams{Invitations: []api.Invitation{
		{ReceiverUserName: "dave", ReceiverUserEmail: "dave@example.com", ReceiverUserTags: []string{auditors}, AccessType: api.AccessTypeAll, SenderUserID: bob},
		{ReceiverUserName: "mallory", ReceiverUserEmail: "m@example.com", ReceiverUserTags: []string{noTag}, AccessType: api.AccessTypeAll, SenderUserID: noUser},
	}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: a pending invitation: %v %+v", err, act)
	}
	want := []string{
		`[1] sender: "bob" (` + bob + ")",
		`[1] tag: "auditors" (` + auditors + ")",
		"WARNING: [2] sender " + noUser + " is not a user of this organization",
		"WARNING: [2] tag " + noTag + " is not a tag of this organization",
	}

	carol := e.client("carol")
	a, err := getActivityShown(t.Context(), carol, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	prompt := voteDetails(t.Context(), proc{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &strings.Builder{}, getenv: func(string) string { return "" }}, carol, a)
	for _, w := range want {
		if !strings.Contains(prompt, w) {
			t.Errorf("carol's approve prompt lacks %q:\n%s", w, prompt)
		}
	}

	code, out, errOut := e.run("", "activity", "get", act.ID)
	wantExit(t, "activity get", code, 0, out, errOut)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("activity get lacks %q:\n%s", w, out)
		}
	}

	// Printed after a vote (as by wait), the invitation names them too; the
	// service failed it for its unknown sender, and a decided invitation is
	// warned of no more: the service will do nothing further with it.
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "carol", act.ID)
	wantExit(t, "activity approve --yes", code, 1, out, errOut)
	for _, w := range []string{
		want[0], want[1],
		"[2] sender: " + noUser + " (not in the organization's user list now)",
		"[2] tag: " + noTag + " (not a tag of this organization now)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("the activity printed after carol's vote lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "WARNING: [") {
		t.Errorf("the failed invitation printed after carol's vote warns of what the service will do:\n%s", out)
	}
}

// A key deletion's user and keys are named as the console's dialog names
// them ("operator CI key (old)" of operator), and a key that is not among
// the user's keys is warned of.
func TestApprovePromptNamesAKeyDeletionsUserAndKeys(t *testing.T) {
	e := newVerbEnv(t)
	const noKey = "01a22a4c-0000-7000-8000-0000000000ff"
	operator, old := e.userID("operator"), e.keyNamed("operator", "operator CI key (old)")
	act, err := e.client("bob").DeleteAPIKeys(context.Background(), api.DeleteAPIKeysParams{UserID: operator, APIKeyIDs: []string{old, noKey}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: a pending key deletion: %v %+v", err, act)
	}
	carol := e.client("carol")
	a, err := getActivityShown(t.Context(), carol, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	prompt := voteDetails(t.Context(), proc{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &strings.Builder{}, getenv: func(string) string { return "" }}, carol, a)
	for _, w := range []string{
		`user: "operator" (` + operator + ")",
		`API key: "operator CI key (old)" (` + old + ")",
		"WARNING: API key " + noKey + ` is not among "operator"'s API keys`,
	} {
		if !strings.Contains(prompt, w) {
			t.Errorf("carol's approve prompt lacks %q:\n%s", w, prompt)
		}
	}
}
