package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// The approve warning (the console's vote dialog and `vigil activity
// approve`, both policy.APIKeyVoteShortOfMfa) judges the voter's stored MFA
// conditions as the service's get_mfa_status does (CompileStored): a stored
// condition that only the checks for new submissions refuse — one an
// earlier vigil stored, or another service took — must not make the warning
// say an MFA policy holds an activity the service says it does not cover.
func TestApproveMfaWarningJudgesStoredConditionsAsTheServiceDoes(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	cond := "activity.type == 'ACTIVITY_TYPE_INIT_OTP' && activity.params.otp_length == '6'"
	// Stored as an earlier vigil stored it (the demo seeds MFA policies the same way).
	if _, err := insertMfaPolicy(ctx, e.srv.db.write, e.org.ID, &api.CreateMfaPolicyParams{UserID: e.user("carol"), MfaPolicyName: "passkey for OTP",
		Condition: cond, RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}}, time.Now().UnixNano()); err != nil {
		t.Fatal(err)
	}
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	pols, err := alice.GetMfaPolicies(ctx, e.user("carol"))
	if err != nil || len(pols) != 1 {
		t.Fatalf("carol's MFA policies: %+v %v", pols, err)
	}
	// What carol's approve dialog tells her before she votes.
	own := policy.SigningKey{Known: true, ID: e.apiKeyID(e.user("carol")), Proves: api.AuthAPIKey}
	warned, _ := policy.APIKeyVoteShortOfMfa(pols, *act, time.Now(), own)
	// What the service says once she has.
	if _, err := e.clients["carol"].ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	st, err := alice.GetMfaStatus(ctx, act.ID, e.user("carol"))
	if err != nil {
		t.Fatal(err)
	}
	if warned != nil && len(st) == 0 {
		t.Errorf("the approve warning says carol's MFA policy %q applies to a create_user_tag and her vote cannot meet it; get_mfa_status says no MFA policy of hers applies (%+v)", warned.MfaPolicyName, st)
	}
}
