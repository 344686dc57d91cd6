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
		code, out, errOut := e.run("", "mfa", "create", "--user", "alice", "--name", "pinned", "--condition", "true", "--step", step)
		wantExit(t, "mfa create --step "+step, code, 2, out, errOut)
		if !strings.Contains(errOut, step) || !strings.Contains(errOut, own) {
			t.Errorf("--step %s: the error should name the step and alice's credentials (%s):\n%s", step, own, errOut)
		}
	}
	if after := e.mfaActivities(t); after != before {
		t.Errorf("a refused mfa create was sent anyway: %d create_mfa_policy activities, %d before", after, before)
	}
	code, out, errOut := e.run("", "mfa", "create", "--user", "alice", "--name", "pinned", "--condition", "true", "--step", "api_key:"+own)
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

// mfa list and get flag a stored policy pinned to a credential its user does
// not have (another user's passkey, of the right type) as never met.
func TestMfaListFlagsPinToAnotherUsersCredential(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	operator := e.userID("operator")
	op, err := e.client("alice").GetUser(ctx, operator)
	if err != nil || len(op.Authenticators) == 0 {
		t.Fatalf("operator should have a passkey: %v", err)
	}
	foreign := op.Authenticators[0].AuthenticatorID
	alice := e.userID("alice")
	act, err := e.client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: alice, MfaPolicyName: "pinned to operator's", Condition: "true", Order: 3,
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey, ID: foreign}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !api.IsTerminal(act.Status) {
		if act, err = e.client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	if act.Result.CreateMfaPolicyResult == nil {
		t.Fatalf("MFA policy not created: %+v", act)
	}
	id := act.Result.CreateMfaPolicyResult.MfaPolicyID
	for _, args := range [][]string{{"mfa", "list", "--user", alice}, {"mfa", "list"}, {"mfa", "get", id}} {
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 0, out, errOut)
		if !strings.Contains(out, "PASSKEY:"+foreign+" (can never be met: not a credential of this user)") {
			t.Errorf("%s: the pin to operator's passkey in alice's policy should be flagged:\n%s", strings.Join(args, " "), out)
		}
	}
}
