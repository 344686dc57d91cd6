package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The vote dialog of a delete_api_keys names each key as the list's row
// does, quoted, with its id, where the console's user list knows it; an id
// it cannot name says so. Against the local service: the demo's pending
// deletion of the operator's old key.
func TestKeyDeletionVoteDialogNamesTheKeys(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	acts, err := d.Client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(acts) != 1 {
		t.Fatalf("set-up: want the demo's one pending key deletion: %v %d", err, len(acts))
	}
	p := acts[0].Intent.DeleteAPIKeysIntent
	users, err := d.Client("alice").ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	name := ""
	for _, u := range users {
		for _, k := range u.APIKeys {
			if u.UserID == p.UserID && k.APIKeyID == p.APIKeyIDs[0] {
				name = k.APIKeyName
			}
		}
	}
	if name == "" {
		t.Fatalf("set-up: the key %s is not among its owner's keys", p.APIKeyIDs[0])
	}

	h := memberConsole(t, d.Client("alice"))
	h.selectActivityID(acts[0].ID)
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	dialog := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if want := api.Quote(name) + " (id " + p.APIKeyIDs[0] + ")"; !strings.Contains(dialog, want) {
		t.Errorf("the dialog does not name the key as %s:\n%s", want, h.frame())
	}
	h.key("esc")

	// A deletion naming a key the console does not know (none has its id).
	const unknown = "01a229c3-0000-7000-8000-000000000000"
	other, err := d.Client("bob").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: p.UserID, APIKeyIDs: []string{p.APIKeyIDs[0], unknown}})
	if err != nil || other.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: a pending deletion naming an unknown key: %v %+v", err, other)
	}
	h = memberConsole(t, d.Client("alice"))
	h.selectActivityID(other.ID)
	h.key("a")
	body, _ = dialogBody(t, h.frame(), "Approve this activity?")
	dialog = strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if want := unknown + " (not named: "; !strings.Contains(dialog, want) || !strings.Contains(dialog, api.Quote(name)) {
		t.Errorf("the dialog does not name the known key and say it cannot name %s:\n%s", unknown, h.frame())
	}
}
