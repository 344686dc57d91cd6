package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
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

// A client that skips vigil's own checks cannot store an MFA policy whose
// method is pinned to a credential of the user's that no vote of that method's
// type can come from (an API_KEY pinned to their passkey, a SESSION pinned to
// a plain API key): the step could never be met. The service judges a pin as
// get_mfa_status judges a vote, so each of pat's credentials, pinned under
// every method type, is taken exactly when a vote pat signs with it meets
// that type; a refusal says which method, the id, what the credential is,
// what the method needs, and what to do, and creates no activity.
func TestCreateMfaPolicyRefusesPinsOfTheWrongType(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.clients["bob"]
	auth, err := keys.NewSoftAuthenticator("cGF0LXBhc3NrZXk")
	if err != nil {
		t.Fatal(err)
	}
	signers := []keys.Stamper{auth}
	spec := UserSpec{Name: "pat", Authenticators: []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}}
	for _, typ := range []string{api.CredentialAPIKeyP256, api.CredentialReadWriteSessionP256, api.CredentialOauthKeyP256,
		api.CredentialEmailAuthKeyP256, api.CredentialOtpAuthKeyP256, api.CredentialRecoverUserKeyP256} {
		k := e.newKey("pat " + typ)
		signers = append(signers, k)
		spec.APIKeys = append(spec.APIKeys, APIKeySpec{Name: typ, PublicKey: k.PublicKeyHex(), CredentialType: typ})
	}
	pat, err := e.srv.CreateUser(ctx, e.org.ID, spec)
	if err != nil {
		t.Fatal(err)
	}
	// What each credential's vote proves, as the engine sees it: pat's one
	// MFA policy accepts any method, and get_mfa_status says which a vote met.
	all := api.AuthenticationStep{}
	for _, typ := range api.AuthenticationTypes() {
		all.Any = append(all.Any, api.AuthenticationMethod{Type: typ})
	}
	pol, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: pat, MfaPolicyName: "any", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{all}})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(bob.ApproveActivity(ctx, pol.Fingerprint))
	proves := map[string]string{} // credential id -> method type its vote met
	for i, st := range signers {
		act, err := e.client(st).CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "vote " + strconv.Itoa(i), UserIDs: []string{}})
		if err != nil {
			t.Fatalf("pat's credential %d: %v", i, err)
		}
		sts, err := alice.GetMfaStatus(ctx, act.ID, pat)
		if err != nil || len(sts) != 1 || len(sts[0].SatisfiedMethods) != 1 || sts[0].SatisfiedMethods[0].ID == "" {
			t.Fatalf("pat's credential %d: MFA status %+v %v, want one method met, with its id", i, sts, err)
		}
		proves[sts[0].SatisfiedMethods[0].ID] = sts[0].SatisfiedMethods[0].Type
	}
	if len(proves) != len(signers) {
		t.Fatalf("the votes met %d credentials' methods, want %d: %v", len(proves), len(signers), proves)
	}

	before, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateMfaPolicy}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	taken := 0
	for id, proved := range proves {
		for _, method := range api.AuthenticationTypes() {
			_, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: pat, MfaPolicyName: "pinned", Condition: "true",
				RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}, {Type: method, ID: id}}}}})
			if method == proved {
				if err != nil {
					t.Errorf("%s pinned to %s, whose vote meets it: %v", method, id, err)
				}
				taken++
				continue
			}
			var refused *api.Error
			if !errors.As(err, &refused) || refused.StatusCode != http.StatusBadRequest || refused.Code != api.CodeInvalidArgument {
				t.Errorf("%s pinned to %s, whose vote proves %s: %v, want a 400 INVALID_ARGUMENT", method, id, proved, err)
				continue
			}
			for _, want := range []string{"requiredAuthenticationMethods[0].any[1].id", id, pat, method, proved,
				pat + "'s " + api.CredentialKind(proved), "no vote could ever meet this step", "leave the id out"} {
				if !strings.Contains(refused.Message, want) {
					t.Errorf("%s pinned to %s: the refusal should say %q: %s", method, id, want, refused.Message)
				}
			}
		}
	}
	after, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateMfaPolicy}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before)+taken {
		t.Errorf("%d create_mfa_policy activities, %d before and %d pins taken: a refused submission created one", len(after), len(before), taken)
	}
}

// An activity submitted before pins were judged by type (by an earlier
// vigil) may still be waiting with a wrong-type pin: it fails when approved,
// saying why, and no policy is stored.
func TestCreateMfaPolicyFailsWhenItsPinIsOfTheWrongTypeAtExecution(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.clients["bob"]
	carol, err := alice.GetUser(ctx, e.user("carol"))
	if err != nil || len(carol.APIKeys) == 0 {
		t.Fatalf("carol should have an API key: %+v %v", carol, err)
	}
	key := carol.APIKeys[0]
	good := pinnedPolicy(e.user("carol"), "pinned", api.AuthenticationTypeOf(key.Credential.Type), key.APIKeyID)
	pending, err := alice.CreateMfaPolicy(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	if pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_mfa_policy is %s, want it waiting for bob's vote", pending.Status)
	}
	// As an earlier vigil stored it: the same key, pinned under PASSKEY.
	wrong := good
	wrong.RequiredAuthenticationMethods = []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}, {Type: api.AuthPasskey, ID: key.APIKeyID}}}}
	intent, err := json.Marshal(api.Intent{CreateMfaPolicyIntent: &wrong})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.srv.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE activities SET intent = ? WHERE id = ?`, string(intent), pending.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	act, err := bob.ApproveActivity(ctx, pending.Fingerprint)
	checkFailed(t, act, err, key.APIKeyID)
	for _, want := range []string{"requiredAuthenticationMethods[0].any[1].id", "is user " + e.user("carol") + "'s API key", api.AuthPasskey, "no vote could ever meet this step"} {
		if !strings.Contains(act.Failure.Message, want) {
			t.Errorf("the failure should say %q: %s", want, act.Failure.Message)
		}
	}
	if ps, err := alice.GetMfaPolicies(ctx, e.user("carol")); err != nil || len(ps) != 0 {
		t.Errorf("carol's MFA policies: %+v %v, want none", ps, err)
	}
}
