package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// givesBobMfaPolicy has alice propose, and bob approve, an MFA policy of bob's
// applying to every activity and asking for steps.
func (e *verbEnv) givesBobMfaPolicy(name string, steps ...api.AuthenticationStep) {
	e.t.Helper()
	ctx := context.Background()
	act, err := e.client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.userID("bob"), MfaPolicyName: name,
		Condition: "true", RequiredAuthenticationMethods: steps})
	if err != nil {
		e.t.Fatal(err)
	}
	if !api.IsTerminal(act.Status) {
		act, err = e.client("bob").ApproveActivity(ctx, act.Fingerprint)
	}
	if err != nil || act.Status != api.StatusCompleted {
		e.t.Fatalf("create_mfa_policy: %+v %v", act, err)
	}
}

// pendingTag has alice propose a tag for bob, left waiting for his vote.
func (e *verbEnv) pendingTag(name string) string {
	e.t.Helper()
	tag, err := e.client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: name, UserIDs: []string{e.userID("bob")}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		e.t.Fatalf("create_user_tag: %+v %v", tag, err)
	}
	return tag.ID
}

// Bob's MFA policy asks for a PASSKEY; 'activity approve' signs with an API
// key, which cannot meet it: stderr says so, naming the policy and what it
// requires, before the vote, and the vote itself goes on (exit 0).
func TestActivityApproveWarnsOfVotersMfaPolicy(t *testing.T) {
	e := newVerbEnv(t)
	e.givesBobMfaPolicy("passkey always", api.AuthenticationStep{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}})
	id := e.pendingTag("mfa-needed")
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve", code, 0, out, errOut)
	for _, want := range []string{`your MFA policy "passkey always" applies`, "PASSKEY", "cannot meet it", api.StatusAuthenticatorsNeeded, "local service lets the votes decide"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("approve does not warn %q of bob's MFA policy; stderr:\n%s", want, errOut)
		}
	}
	if strings.Contains(out, "MFA policy") {
		t.Errorf("the MFA warning went to standard output:\n%s", out)
	}
}

// A policy that one API-key vote meets, and a rejection, warn of nothing.
func TestActivityVoteNoMfaWarningWhenMet(t *testing.T) {
	e := newVerbEnv(t)
	e.givesBobMfaPolicy("api key will do", api.AuthenticationStep{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}})
	for _, verb := range []string{"approve", "reject"} {
		code, out, errOut := e.run("", "activity", verb, "--yes", "--profile", "bob", e.pendingTag("mfa-met-"+verb))
		wantExit(t, verb, code, 0, out, errOut)
		if strings.Contains(errOut, "MFA") {
			t.Errorf("%s warns of an MFA policy one API-key vote meets:\n%s", verb, errOut)
		}
	}
}
