package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An approval cast with a key deleted since: the service recorded which key
// cast it, vigil can no longer name it. A draft whose consensus reads which
// credential approved then cannot be predicted for sure, and policy simulate
// says so (text and --json) instead of predicting silently.
func TestPolicySimulateSaysADeletedKeyMakesItUncertain(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	operatorID := e.userID("operator")
	users, err := e.client("alice").ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var keyID string
	for _, u := range users {
		for _, k := range u.APIKeys {
			if u.UserID == operatorID && k.APIKeyName == "operator (vigil demo)" {
				keyID = k.APIKeyID
			}
		}
	}
	if keyID == "" {
		t.Fatal("the operator's demo key is not listed")
	}
	act, err := e.client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "doubt", UserIDs: []string{operatorID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("operator's proposal: %v %+v", err, act)
	}
	del, err := e.client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: operatorID, APIKeyIDs: []string{keyID}})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := e.client("bob").ApproveActivity(ctx, del.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("deleting the operator's key: %v %+v", err, done)
	}
	args := []string{"policy", "simulate", "--activity", act.ID, "--effect", "allow",
		"--condition", "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", "--consensus", "credentials.any(c, c.id == '" + keyID + "')"}
	code, out, errOut := e.run("", args...)
	wantExit(t, "simulate", code, 0, out, errOut)
	if !strings.Contains(out, "uncertain:") || !strings.Contains(out, "operator") || !strings.Contains(out, "key deleted since") {
		t.Errorf("the simulation does not say its prediction is uncertain:\n%s", out)
	}
	code, out, errOut = e.run("", append(args, "--json")...)
	wantExit(t, "simulate --json", code, 0, out, errOut)
	var rep simulationReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if !strings.Contains(rep.Uncertain, "key deleted since") {
		t.Errorf("--json has no uncertain: %+v", rep)
	}
	// A draft that does not read credentials is not in doubt.
	code, out, errOut = e.run("", "policy", "simulate", "--activity", act.ID, "--effect", "deny", "--condition", "true")
	wantExit(t, "simulate a plain deny", code, 0, out, errOut)
	if strings.Contains(out, "uncertain") {
		t.Errorf("a draft reading no credential is called uncertain:\n%s", out)
	}
}
