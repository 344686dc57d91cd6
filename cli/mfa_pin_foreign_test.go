package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A --step pinned to an id that is no credential of the policy's user (a
// typo, or another user's passkey) would make a policy no vote can ever meet:
// mfa create refuses it before sending, naming the user's credentials, as it
// refuses a pin of the wrong type; a pin to one of the user's own credentials
// of the right type is sent.
func TestMfaCreateRefusesPinsNotTheUsers(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	op, err := e.client("alice").GetUser(ctx, e.userID("operator"))
	if err != nil || len(op.Authenticators) == 0 {
		t.Fatalf("operator should have a passkey: %v", err)
	}
	alice, err := e.client("alice").GetUser(ctx, e.userID("alice"))
	if err != nil || len(alice.APIKeys) == 0 {
		t.Fatalf("alice should have an API key: %v", err)
	}
	foreign := op.Authenticators[0].AuthenticatorID
	own := alice.APIKeys[0].APIKeyID
	before := e.mfaActivities(t)
	for _, step := range []string{"passkey:" + foreign, "passkey:0192a6c4-0000-7000-8000-00000000dead", "passkey:" + own} {
		code, out, errOut := e.run("", "mfa", "create", "--user", "alice", "--name", "pinned", "--condition", "true", "--step", step, "--order", "0")
		wantExit(t, "mfa create --step "+step, code, 2, out, errOut)
		if !strings.Contains(errOut, step) || !strings.Contains(errOut, own) {
			t.Errorf("--step %s: the error should name the step and alice's credentials (%s):\n%s", step, own, errOut)
		}
	}
	if after := e.mfaActivities(t); after != before {
		t.Errorf("a refused mfa create was sent anyway: %d create_mfa_policy activities, %d before", after, before)
	}
	code, out, errOut := e.run("", "mfa", "create", "--user", "alice", "--name", "pinned", "--condition", "true", "--step", "api_key:"+own, "--order", "0")
	wantExit(t, "mfa create --step api_key:<alice's key>", code, 0, out, errOut)
}

func (e *verbEnv) mfaActivities(t *testing.T) int {
	t.Helper()
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeCreateMfaPolicy}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return len(acts)
}

// mfa list and get flag a stored policy pinned to a credential its user no
// longer has as never met: the service refuses a pin to anything but the
// user's own credentials, but a credential pinned while it existed can be
// deleted afterwards (a lost key must be removable), and the policy then asks
// for a vote no one can cast.
func TestMfaListFlagsPinToADeletedCredential(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	pinny := e.demo.AddUserWithKeys("pinny", 2, 0)
	u, err := e.client("alice").GetUser(ctx, pinny)
	if err != nil || len(u.APIKeys) != 2 {
		t.Fatalf("pinny should have two API keys: %+v %v", u, err)
	}
	gone := u.APIKeys[1].APIKeyID
	act, err := e.client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: pinny, MfaPolicyName: "pinned to a lost key", Condition: "true", Order: 3,
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: gone}}}}})
	if err != nil {
		t.Fatal(err)
	}
	act = e.approvedByBob(act)
	if act.Result.CreateMfaPolicyResult == nil {
		t.Fatalf("MFA policy not created: %+v", act)
	}
	id := act.Result.CreateMfaPolicyResult.MfaPolicyID
	del, err := e.client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: pinny, APIKeyIDs: []string{gone}})
	if err != nil {
		t.Fatal(err)
	}
	if del = e.approvedByBob(del); del.Status != api.StatusCompleted {
		t.Fatalf("delete_api_keys is %s: %+v", del.Status, del.Failure)
	}
	for _, args := range [][]string{{"mfa", "list", "--user", pinny}, {"mfa", "list"}, {"mfa", "get", id}} {
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 0, out, errOut)
		if !strings.Contains(out, "API_KEY:"+gone+" (can never be met: not a credential of this user)") {
			t.Errorf("%s: the pin to pinny's deleted key should be flagged:\n%s", strings.Join(args, " "), out)
		}
	}
}

// approvedByBob is act once bob has approved it, if it waited for votes.
func (e *verbEnv) approvedByBob(act *api.Activity) *api.Activity {
	e.t.Helper()
	if api.IsTerminal(act.Status) {
		return act
	}
	act, err := e.client("bob").ApproveActivity(context.Background(), act.Fingerprint)
	if err != nil {
		e.t.Fatal(err)
	}
	return act
}
