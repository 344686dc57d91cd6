package server

import (
	"encoding/json"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// Seeded votes carry a real signature, so they carry the body it signed:
// every vote of a seeded list verifies over its message, bound to its
// activity.
func TestSeededVotesCarryTheirSignedMessage(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	err := e.srv.SeedActivities(ctxT(t), e.org.ID, SeedSpec{Activities: 20, Pending: 5,
		Requester: SeedMember{UserID: e.user("alice"), Key: e.keys["alice"]},
		Approver:  SeedMember{UserID: e.user("bob"), Key: e.keys["bob"]}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(api.ListActivitiesRequest{OrganizationID: e.org.ID, PaginationOptions: &api.PaginationOptions{Limit: "100"}})
	body, err := api.CheckStrict(raw)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := e.srv.queryListActivities(ctxT(t), &caller{OrgID: e.org.ID, UserID: e.user("carol")}, body)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := reply.(encodedReply)
	if !ok {
		t.Fatalf("list reply of type %T", reply)
	}
	var page api.ListActivitiesResponse
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	votes := 0
	for _, a := range page.Activities {
		for _, v := range a.Votes {
			votes++
			if _, err := keys.VerifyFields(keys.Stamp{PublicKey: v.PublicKey, Scheme: v.Scheme, Signature: v.Signature}, []byte(v.Message)); err != nil {
				t.Errorf("seeded vote %s on %s: %v (message %q)", v.ID, a.ID, err, v.Message)
			}
			if c := api.CheckVote(a, v); c.State != api.VoteVerified {
				t.Errorf("seeded vote %s on %s: %+v", v.ID, a.ID, c)
			}
		}
	}
	if votes < 20 {
		t.Fatalf("set-up: %d votes listed, want at least 20", votes)
	}
}
