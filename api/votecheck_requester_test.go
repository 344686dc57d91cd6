package api_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// The intent check must not say "checked: ... the ones its requester signed" when
// the verified submission is not the requester's vote the console and CLI
// name (policy.SubmitterOf: the first vote), or its key is, by the user
// list CheckActivityVotes holds, another member's than the vote's user.
func TestIntentNotCheckedWhenTheSubmissionIsNotTheRequestersVote(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	act := votedTag(t, demo, "who-asked")
	operator, alice, carol := memberID(t, demo, "operator"), memberID(t, demo, "alice"), memberID(t, demo, "carol")
	users := honestlyChecked(t, demo, act.ID)
	for _, c := range []struct {
		name   string
		change func(a map[string]any)
	}{
		{"requester not first (alice's approval first)", func(a map[string]any) {
			vs := a["votes"].([]any)
			slices.Reverse(vs)
		}},
		{"requester's vote under carol's user id", func(a map[string]any) {
			for _, v := range a["votes"].([]any) {
				if v := v.(map[string]any); v["userId"] == operator {
					v["userId"] = carol
					v["user"].(map[string]any)["userId"] = carol
				}
			}
		}},
		{"requester's vote under alice's user id (two votes by alice)", func(a map[string]any) {
			for _, v := range a["votes"].([]any) {
				if v := v.(map[string]any); v["userId"] == operator {
					v["userId"] = alice
					v["user"].(map[string]any)["userId"] = alice
				}
			}
		}},
	} {
		proxy := activityRewritten(demo, c.change)
		got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, in := api.CheckActivityVotes(*got, users)
		if in.State != api.IntentNotChecked || !strings.Contains(in.Reason, "requester") {
			t.Errorf("%s: requester shown %q (operator signed the submission): intent %q: %s", c.name, policy.SubmitterOf(*got), in.State, in.Reason)
		}
	}
}

// "checked" says the member named as requester signed the intent shown: it
// needs the user list to hold the submission's key as theirs. carol's
// submission shown as alice's (vote 0's user id swapped, as a proxy that
// also broke list_users would) must not read checked when the list was
// not read, nor when it holds keys of alice's vigil cannot read; it reads
// partly checked, saying why, as does the honest activity without the
// list (no alarm for an organization whose list cannot be read).
func TestIntentPartlyCheckedWhenTheRequestersKeyIsNotProven(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	reader := demo.ClientAt(demo.URL, "alice", api.WithExactStrings())
	act, err := demo.Client("carol").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "carol's tag"})
	if err != nil {
		t.Fatal(err)
	}
	users := honestlyChecked(t, demo, act.ID)
	honest, err := reader.GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	swapped, err := reader.GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	alice := memberID(t, demo, "alice")
	swapped.Votes[0].UserID, swapped.Votes[0].User.UserID, swapped.Votes[0].User.UserName = alice, alice, "alice"
	if _, in := api.CheckActivityVotes(*swapped, users); in.State != api.IntentNotChecked {
		t.Fatalf("set-up: with the list read, the swapped submission's intent is %q, want %q: %s", in.State, api.IntentNotChecked, in.Reason)
	}
	// alice also holds a key of a credential type vigil cannot read
	unreadable := slices.Clone(users)
	for i := range unreadable {
		if unreadable[i].UserID == alice {
			k := unreadable[i].APIKeys[0]
			k.Credential.Type = "CREDENTIAL_TYPE_API_KEY_P384"
			k.Credential.PublicKey = "04aa"
			unreadable[i].APIKeys = append(slices.Clone(unreadable[i].APIKeys), k)
		}
	}
	for _, c := range []struct {
		name  string
		a     *api.Activity
		users []api.User
		why   string
	}{
		{"swapped, the list not read", swapped, nil, "user list was not read"},
		{"swapped, alice holding an unreadable key", swapped, unreadable, "of a type vigil cannot read"},
		{"honest, the list not read", honest, nil, "user list was not read"},
	} {
		checks, in := api.CheckActivityVotes(*c.a, c.users)
		if in.State != api.IntentPartlyChecked || !strings.Contains(in.Reason, c.why) || !strings.Contains(in.Reason, "not checked to be the member who signed it") {
			t.Errorf("%s: intent %q: %s; want %q saying %q and that the requester is not checked to be the signer", c.name, in.State, in.Reason, api.IntentPartlyChecked, c.why)
		}
		// The submission's own reason agrees: what the key signed, never
		// that the requester signed it.
		if r := checks[0].Reason; checks[0].State != api.VoteVerified || strings.Contains(r, "its requester signed") ||
			!strings.Contains(r, "the ones that key signed; not checked to be the requester's: see the intent check") {
			t.Errorf("%s: the submission reads %s: %s; want verified, saying what the key signed and that it is not checked to be the requester's", c.name, checks[0].State, r)
		}
	}
}

// dana submits with her key "old", which is deleted since: the intent
// reads NOT checked (the list no longer holds the key as hers), and her
// verified submission's reason says so in one sentence: signed with the
// key shown, not checked to be hers; never "the ones its requester
// signed", nor the approvals' reason run into it.
func TestSubmissionReasonWhenItsKeyIsNotTheRequesters(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	org := demo.Info.OrganizationID
	oldKey, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	newKey, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	id, err := demo.Server.CreateUser(ctx, org, server.UserSpec{Name: "dana", Email: "dana@example.com",
		APIKeys: []server.APIKeySpec{{Name: "old", PublicKey: oldKey.PublicKeyHex(), CredentialType: oldKey.CredentialType()},
			{Name: "new", PublicKey: newKey.PublicKeyHex(), CredentialType: newKey.CredentialType()}}})
	if err != nil {
		t.Fatal(err)
	}
	withOld, err := api.NewClient(demo.URL, org, oldKey)
	if err != nil {
		t.Fatal(err)
	}
	withNew, err := api.NewClient(demo.URL, org, newKey)
	if err != nil {
		t.Fatal(err)
	}
	act, err := withOld.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "dana's tag"})
	if err != nil {
		t.Fatal(err)
	}
	dana, err := withNew.GetUser(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var oldID string
	for _, k := range dana.APIKeys {
		if k.APIKeyName == "old" {
			oldID = k.APIKeyID
		}
	}
	del, err := withNew.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: id, APIKeyIDs: []string{oldID}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"alice", "bob"} {
		if del.Status == api.StatusConsensusNeeded {
			if del, err = demo.Client(m).ApproveActivity(ctx, del.Fingerprint); err != nil {
				t.Fatal(err)
			}
		}
	}
	if del.Status != api.StatusCompleted {
		t.Fatalf("set-up: deleting dana's old key: %s", del.Status)
	}
	reader := demo.ClientAt(demo.URL, "alice", api.WithExactStrings())
	a, err := reader.GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	users, err := reader.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checks, in := api.CheckActivityVotes(*a, users)
	if in.State != api.IntentNotChecked {
		t.Fatalf("set-up: intent %q, want %q: %s", in.State, api.IntentNotChecked, in.Reason)
	}
	got := checks[0]
	if got.State != api.VoteVerified || !strings.HasPrefix(got.Reason, "signed the activity's submission with the key shown, but it is not checked to be the requester's") ||
		strings.Contains(got.Reason, "the ones its requester signed") || strings.Contains(got.Reason, "fingerprint") {
		t.Errorf("dana's submission vote: %s: %q; want verified, signed with the key shown and not checked to be the requester's", got.State, got.Reason)
	}
}
