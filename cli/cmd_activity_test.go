package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// usageCase is a call that must be refused as a usage error (exit 2) with a
// message containing want, before any profile or network is needed.
type usageCase struct {
	args []string
	want string
}

func checkUsageErrors(t *testing.T, cases []usageCase) {
	t.Helper()
	for _, tc := range cases {
		code, out, errOut := runVigil(t, nil, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("vigil %s: exit %d, stderr %q; want exit 2 and %q (stdout %q)", strings.Join(tc.args, " "), code, errOut, tc.want, out)
		}
	}
}

func TestActivityVerbsValidation(t *testing.T) {
	checkUsageErrors(t, []usageCase{
		{[]string{"activity"}, "activity needs a subcommand"},
		{[]string{"activity", "vote"}, `unknown activity subcommand "vote"`},
		{[]string{"activity", "list", "--status", "done"}, `--status "done" is not an activity status; use one of created, pending, completed`},
		{[]string{"activity", "list", "--type", "launch rocket!"}, `--type "launch rocket!" is not an activity type`},
		{[]string{"activity", "list", "--limit", "101"}, "--limit 101: use 1 to 100"},
		{[]string{"activity", "list", "--limit", "0"}, "--limit 0: use 1 to 100"},
		{[]string{"activity", "list", "extra"}, "takes no arguments"},
		{[]string{"activity", "list", "--before", "a", "--after", "b"}, "give --before or --after, not both"},
		{[]string{"activity", "get"}, "activity get takes one argument, the activity id"},
		{[]string{"activity", "get", "a", "b"}, "takes one argument"},
		{[]string{"activity", "approve"}, "activity approve takes one argument"},
		{[]string{"activity", "reject", "--bogus", "x"}, "flag provided but not defined: -bogus"},
		{[]string{"activity", "wait", "--timeout", "-1s", "x"}, "--timeout -1s is negative"},
		{[]string{"activity", "wait", "--timeout", "soon", "x"}, `invalid value "soon" for flag -timeout`},
		{[]string{"activity", "evaluations"}, "takes one argument, the activity id"},
		{[]string{"activity", "proofs"}, "takes one argument, the activity id"},
	})
	if code, out, _ := runVigil(t, nil, "", "activity", "wait", "-h"); code != 0 || !strings.Contains(out, "Exit status: 0 when it COMPLETED") {
		t.Errorf("wait -h: exit %d\n%s", code, out)
	}
}

func TestActivityListFiltersAndJSON(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "activity", "list", "--status", "consensus-needed", "--type", "delete_api_keys")
	wantExit(t, "list", code, 0, out, errOut)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "DELETE_API_KEYS") || !strings.Contains(lines[1], "bob") {
		t.Errorf("want a header and bob's one pending DELETE_API_KEYS:\n%s", out)
	}

	// A well-formed type vigil does not know (the real service's many more)
	// is sent as given, and said so: a typo must not read as "none".
	code, out, errOut = e.run("", "activity", "list", "--type", "create_users_v3")
	wantExit(t, "list --type create_users_v3", code, 0, out, errOut)
	if out != "" || !strings.Contains(errOut, "ACTIVITY_TYPE_CREATE_USERS_V3 is not a type vigil knows") {
		t.Errorf("list --type create_users_v3: stdout %q, stderr %q", out, errOut)
	}

	// "pending" is the service's PENDING; nothing waits there, and the message
	// says where what waits for votes is.
	code, out, errOut = e.run("", "activity", "list", "--status", "pending")
	wantExit(t, "list pending", code, 0, out, errOut)
	if out != "" || !strings.Contains(errOut, "--status consensus-needed") {
		t.Errorf("list --status pending: stdout %q, stderr %q", out, errOut)
	}

	// --after pages on to older activities.
	first, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 4})
	if err != nil || len(first) != 4 {
		t.Fatalf("first page: %v %v", first, err)
	}
	code, out, errOut = e.run("", "activity", "list", "--limit", "2", "--after", first[1].ID)
	wantExit(t, "list --after", code, 0, out, errOut)
	if strings.Contains(out, first[0].ID) || strings.Contains(out, first[1].ID) || !strings.Contains(out, first[2].ID) || !strings.Contains(out, first[3].ID) {
		t.Errorf("--after %s should list the next two, %s and %s:\n%s", first[1].ID, first[2].ID, first[3].ID, out)
	}

	// --json: the records as the service sent them, values exact, even those a
	// terminal could act on, which are escaped rather than written raw.
	name := "a<b>&c \u202eevil\u202c \u0085 \"q\" \u00e9"
	if _, err := e.client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: name, Effect: api.EffectAllow, Notes: "n"}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = e.run("", "activity", "list", "--json", "--type", "create_policy", "--limit", "100")
	wantExit(t, "list --json", code, 0, out, errOut)
	if strings.ContainsAny(out, "\u202e\u202c\u0085") {
		t.Errorf("raw bidi/C1 characters reached the terminal:\n%q", out)
	}
	if !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u0085`) {
		t.Errorf("want U+202E and U+0085 written as escapes:\n%s", out)
	}
	var reply struct {
		Activities []struct {
			Intent struct {
				CreatePolicyIntentV3 struct{ PolicyName string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	found := false
	for _, a := range reply.Activities {
		found = found || a.Intent.CreatePolicyIntentV3.PolicyName == name
	}
	if !found {
		t.Errorf("no activity with the exact policy name %q in:\n%s", name, out)
	}
	// The table shows the same activity with the name sanitised.
	code, out, _ = e.run("", "activity", "list", "--type", "create_policy")
	if code != 0 || strings.ContainsAny(out, "\u202e\u0085") {
		t.Errorf("table: exit %d, raw control characters in %q", code, out)
	}
}

func TestActivityApproveRejectWaitEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	operator := e.userID("operator")

	// alice (root) proposes a tag: it waits for a second root approval.
	code, out, errOut := e.run("", "tag", "create", "--name", "reviewers", operator)
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	if !strings.Contains(out, "vigil activity wait "+id) {
		t.Errorf("a pending activity should say how to follow it:\n%s", out)
	}

	// wait times out: exit 2, and says how to resume.
	code, out, errOut = e.run("", "activity", "wait", "--timeout", "300ms", id)
	wantExit(t, "wait (timeout)", code, 2, out, errOut)
	if !strings.Contains(errOut, "activity "+id+": CONSENSUS_NEEDED, 1 vote(s)\n") || !strings.Contains(errOut, "still ACTIVITY_STATUS_CONSENSUS_NEEDED") || !strings.Contains(errOut, "run the same command again") {
		t.Errorf("timeout message: %s", errOut)
	}

	// Without a terminal and without --yes, approving is refused and nothing is sent.
	code, out, errOut = e.run("y\n", "activity", "approve", "--profile", "bob", id)
	wantExit(t, "approve without --yes", code, 2, out, errOut)
	if !strings.Contains(errOut, "pass --yes") {
		t.Errorf("refusal should say --yes: %s", errOut)
	}
	if a, _ := e.client("bob").GetActivity(ctx, id); a == nil || len(a.Votes) != 1 {
		t.Fatalf("a vote was recorded without confirmation: %+v", a)
	}

	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve --yes", code, 0, out, errOut)
	a, err := e.client("alice").GetActivity(ctx, id)
	if err != nil || a.Status != api.StatusCompleted || a.Result.CreateUserTagResult == nil {
		t.Fatalf("after bob's approval: %+v %v", a, err)
	}
	if !strings.Contains(out, "status:      ACTIVITY_STATUS_COMPLETED") && !strings.Contains(out, "ACTIVITY_STATUS_COMPLETED") {
		t.Errorf("approve should print the activity after the vote:\n%s", out)
	}

	// Re-running the same wait now ends at once: exit 0.
	code, out, errOut = e.run("", "activity", "wait", "--json", id)
	wantExit(t, "wait (completed)", code, 0, out, errOut)
	var waited api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &waited); err != nil || waited.Activity.Status != api.StatusCompleted {
		t.Errorf("wait --json: %v\n%s", err, out)
	}

	// A second proposal rejected by two root users: wait exits 1.
	code, out, errOut = e.run("", "tag", "create", "--name", "rejected-tag", operator)
	wantExit(t, "tag create 2", code, 0, out, errOut)
	id2 := activityIDFrom(t, out)
	for _, who := range []string{"bob", "carol"} {
		code, out, errOut = e.run("", "activity", "reject", "--yes", "--json", "--profile", who, id2)
		wantExit(t, who+" rejects", code, 0, out, errOut)
		var after api.ActivityResponse
		if err := json.Unmarshal([]byte(out), &after); err != nil || after.Activity.ID != id2 {
			t.Errorf("reject --json prints the activity after the vote: %v\n%s", err, out)
		}
	}
	if a, _ := e.client("alice").GetActivity(ctx, id2); a == nil || a.Status != api.StatusRejected {
		t.Fatalf("want REJECTED after two root rejections: %+v", a)
	}
	code, out, errOut = e.run("", "activity", "wait", id2)
	wantExit(t, "wait (rejected)", code, 1, out, errOut)
	if !strings.Contains(errOut, "ended REJECTED") {
		t.Errorf("wait on a rejected activity: %s", errOut)
	}

	// The demo's denied treasury deletion FAILED: exit 1 too.
	failed, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusFailed}, Limit: 1})
	if err != nil || len(failed) != 1 {
		t.Fatalf("demo has a failed activity: %v %v", failed, err)
	}
	code, out, errOut = e.run("", "activity", "wait", "--timeout", "5s", failed[0].ID)
	wantExit(t, "wait (failed)", code, 1, out, errOut)
	if !strings.Contains(errOut, "ended FAILED") || !strings.Contains(out, "failure:") {
		t.Errorf("wait on a failed activity:\n%s\n%s", out, errOut)
	}

	// Voting on a finished activity is refused with the reason.
	code, out, errOut = e.run("", "activity", "reject", "--yes", "--profile", "carol", id)
	wantExit(t, "reject completed", code, 1, out, errOut)
	if !strings.Contains(errOut, "already ACTIVITY_STATUS_COMPLETED") {
		t.Errorf("vote on completed: %s", errOut)
	}
}

func TestActivityGetEvaluationsAndProofs(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()

	// An activity with app proofs: a read-only session completes at once.
	code, out, errOut := e.run("", "session", "create-read-only", "--app-proofs", "--profile", "operator")
	wantExit(t, "session", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	code, out, errOut = e.run("", "activity", "get", id)
	wantExit(t, "get", code, 0, out, errOut)
	for _, want := range []string{"ACTIVITY_STATUS_COMPLETED", "requester:", "operator", "create_read_only_session"} {
		if !strings.Contains(out, want) {
			t.Errorf("get lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = e.run("", "activity", "get", "--json", id)
	wantExit(t, "get --json", code, 0, out, errOut)
	var got api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Activity.ID != id {
		t.Fatalf("get --json: %v\n%s", err, out)
	}

	evals, err := e.client("alice").GetPolicyEvaluations(ctx, id)
	if err != nil || len(evals) == 0 {
		t.Fatalf("evaluations: %v %v", evals, err)
	}
	code, out, errOut = e.run("", "activity", "evaluations", id)
	wantExit(t, "evaluations", code, 0, out, errOut)
	if !strings.Contains(out, "Anyone may open a read-only session") || !strings.Contains(out, api.OutcomeAllow) {
		t.Errorf("evaluations should name the deciding policy and its outcome:\n%s", out)
	}

	proofs, err := e.client("alice").ListAppProofs(ctx, id)
	if err != nil || len(proofs) == 0 {
		t.Fatalf("app proofs: %v %v", proofs, err)
	}
	code, out, errOut = e.run("", "activity", "proofs", "--json", id)
	wantExit(t, "proofs --json", code, 0, out, errOut)
	parsed, err := parseAppProofs([]byte(out))
	if err != nil || len(parsed) != len(proofs) || parsed[0].Signature != proofs[0].Signature {
		t.Errorf("proofs --json is not what list_app_proofs returns (%v):\n%s", err, out)
	}

	code, out, errOut = e.run("", "activity", "get", "00000000-0000-0000-0000-000000000000")
	wantExit(t, "get unknown", code, 1, out, errOut)
	if !strings.Contains(errOut, "activity get 00000000-0000-0000-0000-000000000000: ") || !strings.Contains(errOut, "not found") {
		t.Errorf("unknown id: %s", errOut)
	}
}

// An activity's app proofs exist once it completes: before that, `activity
// proofs` says so, and verifying its empty list fails instead of passing.
func TestAppProofsOfAPendingActivity(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--app-proofs", "--name", "auditors", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "proofs", id)
	wantExit(t, "activity proofs", code, 0, out, errOut)
	if !strings.Contains(errOut, "no app proofs yet: the activity is ACTIVITY_STATUS_CONSENSUS_NEEDED") {
		t.Errorf("activity proofs of a pending activity: %s", errOut)
	}
	code, out, errOut = e.run("", "activity", "proofs", "--json", id)
	wantExit(t, "activity proofs --json", code, 0, out, errOut)
	empty := filepath.Join(t.TempDir(), "proofs.json")
	os.WriteFile(empty, []byte(out), 0o600)
	code, out, errOut = e.run("", "proof", "verify", "--boot-proof", proofFixtures+"turnkey_boot_proof_1.json", "--app-proofs", empty)
	wantExit(t, "proof verify with no app proofs", code, 1, out, errOut)
	if !strings.Contains(errOut, "holds no app proofs") {
		t.Errorf("proof verify with no app proofs: %s", errOut)
	}
}

// A vote answered by a gateway's 503 after the service recorded it: the CLI
// looks, says the vote counted and exits 0; voting again says it was already
// cast; the opposite vote is refused with the reason, and a non-voter is told
// so instead of a guess.
func TestActivityVoteWithLostReplyIsSettledByLooking(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	code, out, errOut := e.run("", "tag", "create", "--name", "lost-reply", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	g := e.demo.Gateway()
	g.FailSubmits.Store(true)
	gwConfig := e.configVia(g.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	viaGateway := func(args ...string) (int, string, string) {
		return runVigil(t, map[string]string{"VIGIL_CONFIG": gwConfig}, "", args...)
	}

	code, out, errOut = viaGateway("activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve through a failing gateway", code, 0, out, errOut)
	if !strings.Contains(errOut, "HTTP 503") || !strings.Contains(errOut, "the activity shows your vote, so it counted") {
		t.Errorf("stderr should say the reply failed and the vote counted:\n%s", errOut)
	}
	if !strings.Contains(out, "ACTIVITY_STATUS_COMPLETED") {
		t.Errorf("the activity after the vote should be printed:\n%s", out)
	}
	if a, _ := e.client("alice").GetActivity(ctx, id); a == nil || a.Status != api.StatusCompleted {
		t.Fatalf("bob's vote did not count: %+v", a)
	}

	// A policy change, which only the root quorum decides.
	code, out, errOut = e.run("", "policy", "create", "--name", "root only", "--effect", "deny", "--condition", "false")
	wantExit(t, "policy create", code, 0, out, errOut)
	id2 := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "operator", id2)
	wantExit(t, "operator may not vote", code, 1, out, errOut)
	if !strings.Contains(errOut, "you are not one of this activity's voters") {
		t.Errorf("a non-voter should be told so: %s", errOut)
	}
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "alice", id2)
	wantExit(t, "the requester approves again", code, 0, out, errOut)
	if !strings.Contains(errOut, "you already approved this activity") || !strings.Contains(out, "CONSENSUS_NEEDED") {
		t.Errorf("approving again should say it was done already:\n%s\n%s", out, errOut)
	}
	code, out, errOut = e.run("", "activity", "reject", "--yes", "--profile", "alice", id2)
	wantExit(t, "the requester rejects after approving", code, 1, out, errOut)
	if !strings.Contains(errOut, "you already approved this activity") || !strings.Contains(errOut, "a vote cannot be changed") {
		t.Errorf("changing a vote should be refused with the reason: %s", errOut)
	}

	// Any other submit with a lost reply says where to look before a new run.
	code, out, errOut = viaGateway("tag", "create", "--name", "lost-reply-3", e.userID("operator"))
	wantExit(t, "tag create through a failing gateway", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "whether the service recorded it") || !strings.Contains(errOut, "'vigil activity list --limit 10' before running the command again") {
		t.Errorf("an unknown outcome should say where to look:\n%s", errOut)
	}
}

// A real bidi override in a name and the same six characters typed as text
// print differently: the intent is escaped at output from the exact strings,
// not JSON-encoded from already escaped ones.
func TestActivityGetTellsRealControlsFromTypedEscapes(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	real, err := e.client("carol").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "Deny \u202eevil", Effect: api.EffectDeny, Condition: "false"})
	if err != nil {
		t.Fatal(err)
	}
	typed, err := e.client("carol").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: `Deny \u202eevil`, Effect: api.EffectDeny, Condition: "false"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ id, want string }{{real.ID, `policyName: "Deny \u202eevil"`}, {typed.ID, `policyName: "Deny \\u202eevil"`}} {
		code, out, errOut := e.run("", "activity", "get", c.id)
		wantExit(t, "activity get", code, 0, out, errOut)
		if !strings.Contains(out, c.want) || strings.ContainsRune(out, '\u202e') {
			t.Errorf("want %s in:\n%s", c.want, out)
		}
	}
}

// A page of large activities (refused interfaces of 400 kB, kept in the
// history) comes back shorter than asked; the list says that older ones follow
// and where to go on from, and --json gives a page that parses. The service
// ends a page by comparing it with its bound, so interfaces a fraction of the
// largest under a bound the same fraction of the real one
// (server.Config.MaxListReplyBytes) show the same at a fraction of the bytes.
func TestActivityListSaysWhenAPageOfLargeActivitiesWasShortened(t *testing.T) {
	const scale = 32
	e := newVerbEnvWith(t, server.Config{MaxListReplyBytes: (8 << 20) / scale}) // the service's bound is 8 MiB
	e.demo.SubmitInterfaces(12, servertest.InterfaceOfSize(servertest.LargeInterfaceBytes/scale), "operator")
	code, out, errOut := e.run("", "activity", "list", "--limit", "100")
	wantExit(t, "list --limit 100", code, 0, out, errOut)
	rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(rows) == 0 || len(rows) >= 12 {
		t.Fatalf("want a page shorter than the 12 large activities, got %d rows:\n%s", len(rows), out)
	}
	last := strings.Fields(rows[len(rows)-1])[0]
	if !strings.Contains(errOut, "older ones follow: --after "+last) {
		t.Errorf("stderr does not say where to go on from (%s):\n%s", last, errOut)
	}
	code, out, errOut = e.run("", "activity", "list", "--limit", "100", "--json")
	wantExit(t, "list --json", code, 0, out, errOut)
	var page api.ListActivitiesResponse
	if err := json.Unmarshal([]byte(out), &page); err != nil || len(page.Activities) == 0 {
		t.Fatalf("--json: %d activities, %v", len(page.Activities), err)
	}
	// A script reading --json is told too (on stderr, so stdout stays JSON).
	if last := page.Activities[len(page.Activities)-1].ID; len(page.Activities) >= 12 || !strings.Contains(errOut, "older ones follow: --after "+last) {
		t.Errorf("--json: %d activities; stderr does not say where to go on from (%s):\n%s", len(page.Activities), last, errOut)
	}
}

// An evaluation in which no policy ran (the root quorum decided) is still a
// line of `activity evaluations`, saying how the activity was allowed; --json
// stays the service's reply, which has it with no policy outcomes.
func TestActivityEvaluationsShowRootQuorumDecision(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	code, out, errOut := e.run("", "tag", "create", "--name", "quorum-made", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve", code, 0, out, errOut)

	evals, err := e.client("alice").GetPolicyEvaluations(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var deciding *api.PolicyEvaluation
	for i := range evals {
		if len(evals[i].PolicyEvaluations) == 0 {
			deciding = &evals[i]
		}
	}
	if deciding == nil {
		t.Fatalf("the service stored no evaluation without policies (root quorum): %+v", evals)
	}

	code, out, errOut = e.run("", "activity", "evaluations", id)
	wantExit(t, "evaluations", code, 0, out, errOut)
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, deciding.ID) {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no line for the evaluation %s in which no policy ran:\n%s", deciding.ID, out)
	}
	for _, want := range []string{deciding.VoteID, api.OutcomeAllow, `(no policy ran) allowed by root quorum ("alice", "bob")`} {
		if !strings.Contains(line, want) {
			t.Errorf("the root quorum's evaluation should show %q:\n%s", want, line)
		}
	}

	code, out, errOut = e.run("", "activity", "evaluations", "--json", id)
	wantExit(t, "evaluations --json", code, 0, out, errOut)
	var raw api.GetPolicyEvaluationsResponse
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(raw.PolicyEvaluations) != len(evals) {
		t.Errorf("--json has %d evaluations, the service %d:\n%s", len(raw.PolicyEvaluations), len(evals), out)
	}
}
