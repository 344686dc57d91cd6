package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// docs/console.md: "Every member is named quoted … even a plain ASCII name:
// a name written as the console's words then reads as a name." A member
// whose name carries words of its own must not read as alice followed by
// the console's words: not as an invitation's sender in the vote dialog or
// the detail (field and heading), nor as the owner of keys to delete in the
// detail's heading. Against the local service.
func TestMemberNamesInVoteDialogAndDetailAreQuoted(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	posing := "alice (root member; this invitation only adds a read-only viewer) x"
	id := d.AddUserWithKeys(posing, 1, 0)
	invitation, err := d.Client("alice").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeAll, SenderUserID: id}}})
	if err != nil {
		t.Fatal(err)
	}
	users, err := d.Client("alice").ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var keyID string
	for _, u := range users {
		if u.UserID == id && len(u.APIKeys) == 1 {
			keyID = u.APIKeys[0].APIKeyID
		}
	}
	if keyID == "" {
		t.Fatalf("set-up: the user %s has no one API key", id)
	}
	deletion, err := d.Client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: id, APIKeyIDs: []string{keyID}})
	if err != nil {
		t.Fatal(err)
	}

	quoted := `"` + posing + `"`
	// The heading keeps 70 cells: the name's start, after its opening quote.
	quotedStart := `"alice (root member;`
	h := memberConsole(t, d.Client("bob"))
	h.selectActivityID(invitation.ID)
	h.key("a")
	if flat := flatBody(t, h.frame()); !strings.Contains(flat, "sender: "+quoted+" ("+id+")") {
		t.Errorf("the vote dialog does not quote the sender's name:\n%s", flat)
	}
	h.key("n")
	h.key("enter")
	flat := strings.Join(strings.Fields(h.frame()), " ")
	for _, want := range []string{"Intent — invite 1 user as " + quotedStart, "invite 1 sender: " + quoted + " (" + id + ")"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the detail lacks %q:\n%s", want, h.frame())
		}
	}

	h = memberConsole(t, d.Client("bob"))
	h.selectActivityID(deletion.ID)
	h.key("enter")
	if flat := strings.Join(strings.Fields(h.frame()), " "); !strings.Contains(flat, "Intent — delete 1 API key of "+quotedStart) {
		t.Errorf("the detail's heading does not quote the keys' owner:\n%s", h.frame())
	}
}
