package server

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func pinnedPolicy(userID, name, method, id string) api.CreateMfaPolicyParams {
	return api.CreateMfaPolicyParams{UserID: userID, MfaPolicyName: name, Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}, {Type: method, ID: id}}}}}
}

// A client that skips vigil's own checks (curl, the official TypeScript
// client) cannot store an MFA policy pinned to a credential its user does
// not have (another user's key, an id that is no one's): the user votes with
// their own credentials only, so the step could never be met and would lock
// them out of what the policy covers. The submission is refused with a 400
// that names the method and the id, and no activity is created; a pin to one
// of the user's own credentials is taken.
func TestCreateMfaPolicyRefusesPinsNotTheUsers(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	bob, err := alice.GetUser(ctx, e.user("bob"))
	if err != nil || len(bob.APIKeys) == 0 {
		t.Fatalf("bob should have an API key: %+v %v", bob, err)
	}
	carol, err := alice.GetUser(ctx, e.user("carol"))
	if err != nil || len(carol.APIKeys) == 0 {
		t.Fatalf("carol should have an API key: %+v %v", carol, err)
	}
	before, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateMfaPolicy}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, pin := range []struct{ method, id string }{
		{api.AuthAPIKey, bob.APIKeys[0].APIKeyID},
		{api.AuthPasskey, "0192a6c4-0000-7000-8000-00000000dead"},
		{api.AuthSession, "0192a6c4-0000-7000-8000-00000000beef"},
	} {
		_, err := alice.CreateMfaPolicy(ctx, pinnedPolicy(e.user("carol"), "pinned", pin.method, pin.id))
		var refused *api.Error
		if !errors.As(err, &refused) || refused.StatusCode != http.StatusBadRequest || refused.Code != api.CodeInvalidArgument {
			t.Fatalf("%s pinned to %s: %v, want a 400 INVALID_ARGUMENT", pin.method, pin.id, err)
		}
		for _, want := range []string{"requiredAuthenticationMethods[0].any[1].id", pin.id, e.user("carol"), "get_user"} {
			if !strings.Contains(refused.Message, want) {
				t.Errorf("%s pinned to %s: the refusal should say %q: %s", pin.method, pin.id, want, refused.Message)
			}
		}
	}
	after, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateMfaPolicy}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("a refused submission created an activity: %d create_mfa_policy activities, %d before", len(after), len(before))
	}
	own := carol.APIKeys[0]
	act, err := alice.CreateMfaPolicy(ctx, pinnedPolicy(e.user("carol"), "pinned to her own", api.AuthenticationTypeOf(own.Credential.Type), own.APIKeyID))
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(e.clients["bob"].ApproveActivity(ctx, act.Fingerprint))
}

// The pins are checked again when the policy is created, inside the write
// transaction: a credential deleted while the policy waited for votes makes
// the activity fail, saying which pin and why, and no policy is stored.
func TestCreateMfaPolicyFailsWhenItsPinWasDeletedMeanwhile(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.clients["bob"]
	carol, err := alice.GetUser(ctx, e.user("carol"))
	if err != nil || len(carol.APIKeys) == 0 {
		t.Fatalf("carol should have an API key: %+v %v", carol, err)
	}
	key := carol.APIKeys[0]
	pending, err := alice.CreateMfaPolicy(ctx, pinnedPolicy(e.user("carol"), "pinned", api.AuthenticationTypeOf(key.Credential.Type), key.APIKeyID))
	if err != nil {
		t.Fatal(err)
	}
	if pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_mfa_policy is %s, want it waiting for bob's vote", pending.Status)
	}
	e.oauthKeyOf("carol") // so that carol keeps a key once this one is gone
	del, err := alice.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("carol"), APIKeyIDs: []string{key.APIKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(bob.ApproveActivity(ctx, del.Fingerprint))
	act, err := bob.ApproveActivity(ctx, pending.Fingerprint)
	checkFailed(t, act, err, key.APIKeyID)
	if !strings.Contains(act.Failure.Message, "not one of user "+e.user("carol")+"'s credentials") {
		t.Errorf("the failure should say the key is not carol's: %s", act.Failure.Message)
	}
	if ps, err := alice.GetMfaPolicies(ctx, e.user("carol")); err != nil || len(ps) != 0 {
		t.Errorf("carol's MFA policies: %+v %v, want none", ps, err)
	}
}
