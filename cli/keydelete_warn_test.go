package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A: alice proposes deleting bob's only API key (the key profile bob signs
// with); bob's approval completes it and locks his profile out. 'vigil
// activity approve' says nothing of it (apikey delete and the console's
// Users confirm both warn "… is the key profile bob signs with").
func TestApproveDeletionOfOwnKeyWarns(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	act, err := e.client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.userID("bob"), APIKeyIDs: []string{e.onlyKeyOf("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", act.ID)
	wantExit(t, "bob approves", code, 0, out, errOut)
	if !strings.Contains(out, "COMPLETED") {
		t.Fatalf("the approval did not complete the deletion:\n%s", out)
	}
	if !strings.Contains(errOut, "signs with") {
		t.Errorf("bob's approval deleted the key his profile signs with, with no warning:\nstderr: %s", errOut)
	}
}

// B: alice deletes bob's only key (bob, a root member, is left with no
// credential: no vote). The quorum (alice, carol = threshold 2) is not short,
// so the CLI says nothing; the console's confirm of the same deletion warns
// "!! bob is a root quorum member and would be left with no credential that
// can sign: no vote."
func TestAPIKeyDeleteWarnsOfStrandedRootMember(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "apikey", "delete", "--yes", "--profile", "alice", e.onlyKeyOf("bob"))
	wantExit(t, "alice deletes bob's only key", code, 0, out, errOut)
	if !strings.Contains(errOut, "no credential") {
		t.Errorf("deleting root member bob's last credential: no warning (the console shows one):\nstderr: %s", errOut)
	}
}

// C: bob's MFA policy pins his OAuth key; bob deletes that key. Every
// activity the policy covers then asks bob for a vote he can never cast;
// neither the CLI nor the console says so before deleting.
func TestAPIKeyDeleteWarnsOfMfaPin(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	e.loginOAuthAs("bob", "bob-oauth")
	u, err := e.client("alice").GetUser(ctx, e.userID("bob"))
	if err != nil {
		t.Fatal(err)
	}
	var oauthID string
	for _, k := range u.APIKeys {
		if k.Credential.Type == api.CredentialOauthKeyP256 {
			oauthID = k.APIKeyID
		}
	}
	if oauthID == "" {
		t.Fatal("no OAuth key for bob")
	}
	e.givesBobMfaPolicy("OAuth key for everything", api.AuthenticationStep{Any: []api.AuthenticationMethod{{Type: api.AuthOauth, ID: oauthID}}})
	code, out, errOut := e.run("", "apikey", "delete", "--yes", "--profile", "bob", oauthID)
	wantExit(t, "bob deletes his pinned OAuth key", code, 0, out, errOut)
	if !strings.Contains(strings.ToLower(errOut), "mfa") {
		t.Errorf("deleting the key bob's MFA policy pins: no warning that the policy can then never be met:\nstderr: %s", errOut)
	}
}

// D: carol (root) holds her lasting demo key and an OAuth key valid 900 s.
// Deleting the lasting key passes every check (her OAuth key signs *now*),
// yet in 15 minutes she can sign nothing; with bob already stranded the
// root quorum (threshold 2) could then never act again. Nothing warns.
func TestAPIKeyDeleteWarnsWhenQuorumRestsOnExpiringKey(t *testing.T) {
	e := newVerbEnv(t)
	// carol signs in by OAuth (a key valid 900 s) and deletes her lasting key:
	// allowed, her OAuth key still signs.
	e.loginOAuthAs("carol", "carol-oauth")
	code, out, errOut := e.run("", "apikey", "delete", "--yes", "--profile", "alice", e.keyNamed("carol", "carol (vigil demo)"))
	wantExit(t, "delete carol's lasting key", code, 0, out, errOut)
	if act := activityIDFrom(t, out); !strings.Contains(out, "COMPLETED") {
		e.run("", "activity", "approve", "--yes", "--profile", "bob", act)
	}
	if !strings.Contains(errOut, "expire") {
		t.Errorf("deleting carol's last lasting key leaves her only a key that expires within 15 minutes, with no warning:\nstderr: %s", errOut)
	}
}

func (e *verbEnv) keyNamed(member, name string) string {
	e.t.Helper()
	u, err := e.client("alice").GetUser(context.Background(), e.userID(member))
	if err != nil {
		e.t.Fatal(err)
	}
	for _, k := range u.APIKeys {
		if k.APIKeyName == name {
			return k.APIKeyID
		}
	}
	e.t.Fatalf("%s has no key %q", member, name)
	return ""
}
