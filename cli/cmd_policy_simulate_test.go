package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// vigil policy simulate on the demo's pending delete_api_keys (bob's, waiting
// for the root quorum): a deny on credentials would deny it outright; an allow
// for bob alone would let it through; the words of the outcomes are printed.
func TestPolicySimulateEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	pending, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
		Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("the demo has one pending delete_api_keys: %v %v", pending, err)
	}
	id := pending[0].ID

	code, out, errOut := e.run("", "policy", "simulate", "--activity", id, "--effect", "deny", "--condition", "activity.resource == 'CREDENTIAL'")
	wantExit(t, "deny", code, 0, out, errOut)
	for _, want := range []string{"today:", "OUTCOME_REQUIRES_CONSENSUS", "with draft: OUTCOME_DENY_EXPLICIT — FAILS at its next approval: denied explicitly by policy \"draft\"",
		"locks out:  YES", `DENY_EXPLICIT        "draft" (draft) — condition matched; consensus met`} {
		if !strings.Contains(out, want) {
			t.Errorf("deny draft: output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = e.run("", "policy", "simulate", "--json", "--activity", id, "--effect", "EFFECT_ALLOW",
		"--condition", "activity.resource == 'CREDENTIAL'", "--consensus", "approvers.any(u, u.name == 'bob')")
	wantExit(t, "allow --json", code, 0, out, errOut)
	var rep simulationReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if rep.Today.Outcome != api.OutcomeRequiresConsensus || rep.WithDraft.Outcome != api.OutcomeAllow || rep.LocksOut ||
		rep.WithDraft.DecidedBy != "policy \"draft\"" || rep.ActivityID != id {
		t.Errorf("allow draft: %+v", rep)
	}

	// The demo's rejected activity: settled by its rejection, so today is
	// REJECTED (not 'waiting' from its approvals), and a deny locks nothing out.
	rejected, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusRejected}, Limit: 1})
	if err != nil || len(rejected) != 1 {
		t.Fatalf("the demo has a rejected activity: %v %v", rejected, err)
	}
	code, out, errOut = e.run("", "policy", "simulate", "--activity", rejected[0].ID, "--effect", "deny", "--condition", "true")
	wantExit(t, "deny over a rejected activity", code, 0, out, errOut)
	if !strings.Contains(out, "today:      ACTIVITY_STATUS_REJECTED") || !strings.Contains(out, "with draft: ACTIVITY_STATUS_REJECTED") ||
		!strings.Contains(out, "locks out:  no") {
		t.Errorf("deny over a rejected activity:\n%s", out)
	}

	// A draft that does not compile: its position, and nothing decided.
	code, out, errOut = e.run("", "policy", "simulate", "--activity", id, "--effect", "allow", "--consensus", "approvers.count() >=")
	wantExit(t, "broken draft", code, 1, out, errOut)
	if !strings.Contains(errOut, "consensus: line 1") || strings.Contains(out, "OUTCOME_") {
		t.Errorf("broken draft:\n%s\n%s", out, errOut)
	}
	// An activity that does not exist.
	code, out, errOut = e.run("", "policy", "simulate", "--activity", "no-such-activity", "--effect", "allow")
	wantExit(t, "unknown activity", code, 1, out, errOut)
	if !strings.Contains(errOut, "no-such-activity") {
		t.Errorf("unknown activity: %s", errOut)
	}
}

// The policies' names are escaped once: a real newline in one and a typed \n
// in another print differently, in the text and with --json (which keeps them
// exact).
func TestPolicySimulateShowsPolicyNamesEscapedOnce(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	const real, typed = "n\n1\u202e", `n\n1\u202e`
	for _, name := range []string{real, typed} {
		a, err := e.client("carol").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: name, Effect: api.EffectAllow, Condition: "activity.action == 'NOPE'"})
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", a.ID)
		wantExit(t, "approve the policy", code, 0, out, errOut)
	}
	pending, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
		Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("the demo has one pending delete_api_keys: %v %v", pending, err)
	}
	args := []string{"policy", "simulate", "--activity", pending[0].ID, "--effect", "deny", "--condition", "false"}
	code, out, errOut := e.run("", args...)
	wantExit(t, "simulate", code, 0, out, errOut)
	wantOnlyEscaped(t, "simulate", out)
	if !strings.Contains(out, `"n\n1\u202e" (`) || !strings.Contains(out, `"n\\n1\\u202e" (`) {
		t.Errorf("want each name quoted once:\n%s", out)
	}
	code, out, errOut = e.run("", append(args, "--json")...)
	wantExit(t, "simulate --json", code, 0, out, errOut)
	wantOnlyEscaped(t, "simulate --json", out)
	var rep simulationReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, l := range rep.WithDraft.Policies {
		names[l.PolicyName] = true
	}
	if !names[real] || !names[typed] {
		t.Errorf("--json should keep the names exact: %v", names)
	}
}

// An activity whose intent's params vigil cannot read (here the demo's
// pending delete_api_keys with a member vigil does not know, as a newer
// service or a proxy would send it) is not simulated on empty params: a
// draft denying on those params would read as locking nothing out. The
// command says it cannot tell and exits 1, printing no outcome.
func TestPolicySimulateOnAnIntentItCannotReadSaysItCannotTell(t *testing.T) {
	e := newVerbEnv(t)
	pending, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
		Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("the demo has one pending delete_api_keys: %v %v", pending, err)
	}
	behindRewritingGateway(t, e, "/public/v1/query/get_activity", func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"deleteApiKeysIntent":{`), []byte(`"deleteApiKeysIntent":{"reason":"rotation",`), 1)
	})
	for _, args := range [][]string{
		{"policy", "simulate", "--activity", pending[0].ID, "--effect", "deny", "--condition", "activity.params.userId == '" + pending[0].Intent.DeleteAPIKeysIntent.UserID + "'"},
		{"policy", "simulate", "--json", "--activity", pending[0].ID, "--effect", "deny", "--condition", "true"},
	} {
		code, out, errOut := e.run("", args...)
		wantExit(t, "simulate over an intent vigil cannot read", code, 1, out, errOut)
		if strings.Contains(out, "OUTCOME_") || !strings.Contains(errOut, "cannot tell: vigil cannot read this intent's parameters") || !strings.Contains(errOut, "deleteApiKeysIntent") {
			t.Errorf("%v:\n%s\n%s", args, out, errOut)
		}
	}
}

// An activity the service completed by an allow policy this vigil cannot
// read (a newer service's) replays as not allowed: a deny draft over it is
// still a possible lock-out, and the CLI says the service completed it
// rather than that nothing the organization does today is lost.
func TestPolicySimulateDenyOverActivityCompletedByUnreadablePolicyLocksOut(t *testing.T) {
	e := newVerbEnv(t)
	done, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Statuses: []string{api.StatusCompleted},
		Types: []string{api.TypeCreateReadOnlySession}, Limit: 1})
	if err != nil || len(done) != 1 {
		t.Fatalf("the demo has a completed read-only session: %v %v", done, err)
	}
	// The policy that allowed it, as a newer service would send it: with a
	// function this vigil does not know.
	behindRewritingGateway(t, e, "/public/v1/query/list_policies", func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'"`), []byte(`"newerFunction(activity)"`), 1)
	})
	args := []string{"policy", "simulate", "--activity", done[0].ID, "--effect", "deny", "--condition", "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'"}
	code, out, errOut := e.run("", args...)
	wantExit(t, "simulate", code, 0, out, errOut)
	if !strings.Contains(errOut, "newerFunction") {
		t.Fatalf("the premise is gone: the policy should be unreadable:\n%s", errOut)
	}
	if !strings.Contains(out, "locks out:  YES") || !strings.Contains(out, "the service completed it") {
		t.Errorf("a deny over an activity the service completed should be flagged as a possible lock-out, saying it was completed:\n%s", out)
	}
	code, out, errOut = e.run("", append(args, "--json")...)
	wantExit(t, "simulate --json", code, 0, out, errOut)
	var rep simulationReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.LocksOut || rep.WithDraft.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("--json: locksOut %v, with draft %s", rep.LocksOut, rep.WithDraft.Outcome)
	}
}
