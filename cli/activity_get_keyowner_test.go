package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// keyOwnerEnv is a tag activity alice requested and bob approved, read
// through a proxy that passes get_activity's and list_users' replies
// through rewrite (the JSON decoded; returning it changed).
func keyOwnerEnv(t *testing.T, rewrite func(e *verbEnv, op string, reply map[string]any)) (e *verbEnv, via *verbEnv, id string) {
	t.Helper()
	e = newVerbEnv(t)
	id = openTag(t, e, "key-owner")
	bobApproves(t, e, e.client("alice"), id)
	via = e.via(servertest.Rewrite(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity && op != "query/"+api.QueryListUsers {
			return reply
		}
		var m map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		rewrite(e, op, m)
		out, _ := json.Marshal(m)
		return out
	}))
	return e, via, id
}

// voteLine is the line of activity get's votes that starts with who's vote.
func voteLine(t *testing.T, out, who string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, who+" approved") {
			return l
		}
	}
	t.Fatalf("no vote by %s in:\n%s", who, out)
	return ""
}

// keyOwnerOf runs activity get --json and returns the voteChecks entry of
// userID's vote.
func keyOwnerOf(t *testing.T, e *verbEnv, id, userID string) (state, owner, reason string) {
	t.Helper()
	code, out, errOut := e.run("", "activity", "get", "--json", id)
	wantExit(t, "activity get --json", code, exitOK, out, errOut)
	var reply struct {
		VoteChecks []struct {
			UserID         string `json:"userId"`
			State          string `json:"state"`
			KeyOwner       string `json:"keyOwner"`
			KeyOwnerReason string `json:"keyOwnerReason"`
		} `json:"voteChecks"`
	}
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	for _, c := range reply.VoteChecks {
		if c.UserID == userID {
			return c.State, c.KeyOwner, c.KeyOwnerReason
		}
	}
	t.Fatalf("--json: no check of %s's vote:\n%s", userID, out)
	return "", "", ""
}

// bobsKeyName is the name of bob's one API key, as the service holds it.
func bobsKeyName(t *testing.T, e *verbEnv) string {
	t.Helper()
	u, err := e.client("alice").GetUser(context.Background(), e.userID("bob"))
	if err != nil || len(u.APIKeys) != 1 {
		t.Fatalf("set-up: bob has one API key in the demo: %v %+v", err, u)
	}
	return u.APIKeys[0].APIKeyName
}

// usersOf is the users of a list_users reply.
func usersOf(reply map[string]any) []any {
	us, _ := reply["users"].([]any)
	return us
}

// An honest approval reads as signed by the voter's own key, named as the
// user list names it, even when the list spells the key in upper-case hex
// (the same key); --json says "listed".
func TestActivityGetNamesTheVotersKey(t *testing.T) {
	_, via, id := keyOwnerEnv(t, func(e *verbEnv, op string, reply map[string]any) {
		if op != "query/"+api.QueryListUsers {
			return
		}
		for _, u := range usersOf(reply) {
			for _, k := range u.(map[string]any)["apiKeys"].([]any) {
				cred := k.(map[string]any)["credential"].(map[string]any)
				cred["publicKey"] = strings.ToUpper(cred["publicKey"].(string))
			}
		}
	})
	code, out, errOut := via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	bob := voteLine(t, out, "bob")
	if !strings.Contains(bob, "[verified: ") || !strings.Contains(bob, "by bob's API key") || !strings.Contains(bob, bobsKeyName(t, via)) {
		t.Errorf("bob's honest approval does not say it was signed by his API key %q:\n%s", bobsKeyName(t, via), bob)
	}
	if strings.Contains(out, "not checked to be") || strings.Contains(out, "WARNING") {
		t.Errorf("an honest activity's votes read as unchecked or suspect:\n%s", out)
	}
	if state, owner, reason := keyOwnerOf(t, via, id, via.userID("bob")); state != api.VoteVerified || owner != api.KeyListed {
		t.Errorf("--json: bob's vote is %q with keyOwner %q (%s), want verified and %q", state, owner, reason, api.KeyListed)
	}
}

// A proxy shows bob's signed approval under carol's user id: the signature
// verifies, but the key is not carol's, and activity get warns, in text
// and in --json.
func TestActivityGetWarnsOfAVoteNotSignedByItsVotersKey(t *testing.T) {
	_, via, id := keyOwnerEnv(t, func(e *verbEnv, op string, reply map[string]any) {
		if op != "query/"+api.QueryGetActivity {
			return
		}
		act, _ := reply["activity"].(map[string]any)
		for _, v := range act["votes"].([]any) {
			v := v.(map[string]any)
			if v["userId"] == e.userID("bob") {
				v["userId"] = e.userID("carol")
				if u, ok := v["user"].(map[string]any); ok {
					u["userId"], u["userName"] = e.userID("carol"), "carol"
				}
			}
		}
	})
	code, out, errOut := via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	carol := voteLine(t, out, "carol")
	if !strings.Contains(carol, "WARNING") || !strings.Contains(carol, "not among carol's") || !strings.Contains(carol, "may not be theirs") {
		t.Errorf("a vote signed by bob's key shown as carol's does not warn:\n%s", carol)
	}
	if alice := voteLine(t, out, "alice"); strings.Contains(alice, "WARNING") {
		t.Errorf("alice's own approval warns:\n%s", alice)
	}
	if _, owner, reason := keyOwnerOf(t, via, id, via.userID("carol")); owner != api.KeyNotListed {
		t.Errorf("--json: the vote shown as carol's has keyOwner %q (%s), want %q", owner, reason, api.KeyNotListed)
	}
}

// A user list that leaves the voter out (cut short, say) does not make
// the vote suspect: it is not checked.
func TestActivityGetLeavesAVoterMissingFromTheListUnchecked(t *testing.T) {
	_, via, id := keyOwnerEnv(t, func(e *verbEnv, op string, reply map[string]any) {
		if op != "query/"+api.QueryListUsers {
			return
		}
		var kept []any
		for _, u := range usersOf(reply) {
			if u.(map[string]any)["userId"] != e.userID("bob") {
				kept = append(kept, u)
			}
		}
		reply["users"] = kept
	})
	code, out, errOut := via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	// Named as its vote names it, marked so (the list does not name bob).
	if bob := voteLine(t, out, "bob ("+via.userID("bob")+")"+unlistedNote); strings.Contains(bob, "WARNING") || !strings.Contains(bob, "not checked to be this voter's") || !strings.Contains(bob, "does not hold") {
		t.Errorf("bob's vote, with bob missing from the user list, is not left unchecked saying why:\n%s", bob)
	}
	if _, owner, reason := keyOwnerOf(t, via, id, via.userID("bob")); owner != api.KeyUnchecked {
		t.Errorf("--json: bob's vote has keyOwner %q (%s), want %q", owner, reason, api.KeyUnchecked)
	}
}

// A user list that reads two ways is not used: the votes stay "not
// checked to be this voter's", a note says why, and the command succeeds.
func TestActivityGetFallsBackWhenTheUsersCannotBeRead(t *testing.T) {
	_, via, id := keyOwnerEnv(t, func(e *verbEnv, op string, reply map[string]any) {
		if op == "query/"+api.QueryListUsers {
			reply["Users"] = []any{} // Go reads one, jq the other
		}
	})
	code, out, errOut := via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	if bob := voteLine(t, out, "bob"); !strings.Contains(bob, "[verified: ") || !strings.Contains(bob, "not checked to be this voter's") || strings.Contains(bob, "WARNING") {
		t.Errorf("bob's vote does not fall back to the unchecked wording:\n%s", bob)
	}
	if !strings.Contains(errOut, "users could not be read") || !strings.Contains(errOut, "two ways") {
		t.Errorf("stderr does not say why the keys are not checked:\n%s", errOut)
	}
	if _, owner, reason := keyOwnerOf(t, via, id, via.userID("bob")); owner != api.KeyUnchecked || !strings.Contains(reason, "could not be read") {
		t.Errorf("--json: bob's vote has keyOwner %q (%s), want %q saying the users could not be read", owner, reason, api.KeyUnchecked)
	}
}
