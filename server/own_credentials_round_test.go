package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// The own-credentials permission belongs to the activity's submitter. Bob
// (root) asks to delete carol's key: it waits for the root quorum
// (threshold 2). Once the first round of votes has ended, carol's approval
// is the first vote of the next round; it must not make her the requester,
// or bob's request would complete with one root approval where it needs two.
func TestOwnCredentialRequesterIsTheSubmitterNotTheFirstVoteOfALaterRound(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	u, err := e.clients["carol"].GetUser(ctx, e.user("carol"))
	if err != nil || len(u.APIKeys) != 1 {
		t.Fatalf("carol: %v %+v", err, u)
	}
	act, err := e.clients["bob"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("carol"), APIKeyIDs: []string{u.APIKeys[0].APIKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's request on carol's key: %s, want CONSENSUS_NEEDED", act.Status)
	}
	later := api.ApprovalLifetime + time.Hour
	e.skew.Store(int64(later))
	c, err := api.NewClient(e.http.URL, e.org.ID, e.keys["carol"], api.WithClock(func() time.Time { return time.Now().Add(later) }))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status == api.StatusCompleted {
		t.Fatalf("bob's request on carol's key completed with carol's approval alone (%d vote(s) in the round): she was taken for the requester", len(got.Votes))
	}
}

// A root member deleting their own keys: the own-credentials permission
// lets them do it alone while they keep a credential that can sign, but not
// when the deletion would leave them with none (docs/policy-language.md):
// that one waits for the root quorum, even though the others could still
// reach the threshold. Three root members, threshold 2.
func TestRootMemberDeletingOwnLastKeyWaitsForTheQuorum(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	// A second organization in the same service, where carol has two keys.
	var specs []UserSpec
	signers := map[string]*keys.Key{}
	for _, name := range []string{"alice", "bob", "carol"} {
		k := e.newKey(name + "-2")
		signers[name] = k
		specs = append(specs, UserSpec{Name: name, Root: true, APIKeys: []APIKeySpec{{Name: name, PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}})
	}
	spare := e.newKey("carol-spare")
	specs[2].APIKeys = append(specs[2].APIKeys, APIKeySpec{Name: "carol spare", PublicKey: spare.PublicKeyHex(), CredentialType: spare.CredentialType()})
	org, err := e.srv.CreateOrganization(ctx, "Two keys", 2, specs)
	if err != nil {
		t.Fatal(err)
	}
	carol, err := api.NewClient(e.http.URL, org.ID, signers["carol"])
	if err != nil {
		t.Fatal(err)
	}
	carolID := org.UserIDs["carol"]
	keyIDs := func() []string {
		t.Helper()
		u, err := carol.GetUser(ctx, carolID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, k := range u.APIKeys {
			ids = append(ids, k.APIKeyID)
		}
		return ids
	}
	ids := keyIDs()
	if len(ids) != 2 {
		t.Fatalf("carol's keys: %v, want 2", ids)
	}
	// Keep the key carol signs with; delete the spare one.
	var spareID string
	u, _ := carol.GetUser(ctx, carolID)
	for _, k := range u.APIKeys {
		if k.Credential.PublicKey == spare.PublicKeyHex() {
			spareID = k.APIKeyID
		}
	}
	one, err := carol.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: carolID, APIKeyIDs: []string{spareID}})
	if err != nil {
		t.Fatal(err)
	}
	if one.Status != api.StatusCompleted {
		t.Fatalf("carol deleting one of her two keys alone: %s, want COMPLETED (own-credentials permission)", one.Status)
	}

	last := keyIDs()
	if len(last) != 1 {
		t.Fatalf("carol's keys after deleting the spare: %v, want 1", last)
	}
	all, err := carol.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: carolID, APIKeyIDs: last})
	if err != nil {
		t.Fatal(err)
	}
	if all.Status != api.StatusConsensusNeeded {
		t.Fatalf("carol deleting her last key alone: %s (%d vote(s)), want CONSENSUS_NEEDED: the root quorum decides", all.Status, len(all.Votes))
	}
	if got := keyIDs(); len(got) != 1 {
		t.Fatalf("carol's last key is gone before the quorum decided: %v", got)
	}
}
