package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// shownWithIntent is a get_activity reply holding intent (as a service, or a
// proxy rewriting its replies, could send it), decoded as the CLI reads it.
func shownWithIntent(t *testing.T, intent string) shownActivity {
	t.Helper()
	raw := `{"activity":{"id":"act-1","organizationId":"org-1","status":"ACTIVITY_STATUS_CONSENSUS_NEEDED","type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":` + intent + `,"result":{},"votes":[],"fingerprint":"sha256:00","canApprove":true,"canReject":true,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`
	shown, err := decodeShownActivity("query/get_activity", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return shown
}

// The approve prompt on a known intent with a field vigil does not know
// shows that field, and says vigil does not know this shape.
func TestVotePromptShowsAFieldVigilDoesNotKnowInsideAKnownIntent(t *testing.T) {
	shown := shownWithIntent(t, `{"createUserTagIntent":{"userTagName":"harmless","userIds":[],"alsoGrantRoot":true}}`)
	prompt := voteDetails(context.Background(), proc{stderr: io.Discard}, nil, shown)
	for _, want := range []string{"alsoGrantRoot", "not in this shape"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the approve prompt lacks %q:\n%s", want, prompt)
		}
	}
}

// `vigil activity get` on an intent holding a key vigil knows and one it
// does not: both are printed, field by field, after a warning.
func TestActivityGetShowsEveryOperationOfAnIntent(t *testing.T) {
	shown := shownWithIntent(t, `{"createUserTagIntent":{"userTagName":"harmless","userIds":[]},"deleteUsersIntent":{"userIds":["u-alice"]}}`)
	var out bytes.Buffer
	if err := printActivity(&out, shown); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 operations", "createUserTagIntent:", "harmless", "deleteUsersIntent:", "u-alice", "WARNING"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("activity get lacks %q:\n%s", want, out.String())
		}
	}
}

// The approve prompt on an intent with two operations vigil knows shows
// both, and warns. It has no requester's vote, so the prompt reads the
// local service's user list to name the key deletion's user.
func TestVotePromptShowsEveryOperationOfAnIntent(t *testing.T) {
	shown := shownWithIntent(t, `{"createUserTagIntent":{"userTagName":"harmless","userIds":[]},"deleteApiKeysIntent":{"userId":"u-alice","apiKeyIds":["k-root"]}}`)
	prompt := voteDetails(context.Background(), proc{stderr: io.Discard}, newVerbEnv(t).client("carol"), shown)
	for _, want := range []string{"2 operations", "harmless", "k-root", "WARNING"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the approve prompt lacks %q:\n%s", want, prompt)
		}
	}
}

// The approve prompt on an intent nested deeper than vigil shows: bounded,
// and it says the intent is not shown whole.
func TestVotePromptOnADeeplyNestedIntentIsBounded(t *testing.T) {
	depth := 9000
	intent := `{"unknownOp":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
	shown := shownWithIntent(t, intent)
	prompt := voteDetails(context.Background(), proc{stderr: io.Discard}, nil, shown)
	if len(prompt) > 100*len(intent) || !strings.Contains(prompt, "WARNING") {
		t.Errorf("a %d-byte intent gives a %d-byte prompt; warned: %v", len(intent), len(prompt), strings.Contains(prompt, "WARNING"))
	}
}

// Approving an intent vigil cannot show whole (two operations, or one
// nested too deep) is refused without --yes, as for an intent it cannot
// show at all; with --yes it counts.
func TestApproveAnIntentNotShownWholeNeedsYes(t *testing.T) {
	e := newVerbEnv(t)
	for i, intent := range []string{
		`{"createUserTagIntent":{"userTagName":"harmless","userIds":[]},"deleteApiKeysIntent":{"userId":"u-alice","apiKeyIds":["k-root"]}}`,
		`{"unknownOp":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
	} {
		approveNeedsYes(t, e, fmt.Sprint("not-whole-", i), intent, "faithfully and whole")
	}
}

// Approving an activity whose intent is not of its type (a create-policy
// intent in a create-user-tag activity, rewritten by a proxy in front of the
// service) is refused without --yes: what it does is the service's choice.
func TestApproveAnIntentNotOfItsTypeNeedsYes(t *testing.T) {
	e := newVerbEnv(t)
	approveNeedsYes(t, e, "not-of-its-type",
		`{"createPolicyIntentV3":{"policyName":"allow all","effect":"EFFECT_ALLOW","condition":"true","consensus":"","notes":""}}`,
		"not of its type")
}

// An intent whose two keys would read the same once one is quoted for
// display (a tampered key, and a key spelled as its quoted form): both
// operations are printed, after the warning that there are 2.
func TestActivityGetShowsLookAlikeOperationKeysApart(t *testing.T) {
	shown := shownWithIntent(t, `{"\"foo\\u202eIntent\"":{"y":"clean-op"},"foo\u202eIntent":{"z":"tampered-op"}}`)
	var out bytes.Buffer
	if err := printActivity(&out, shown); err != nil {
		t.Fatal(err)
	}
	if line := lineOf(t, out.String(), "intent:"); strings.Count(line, `"foo\u202eIntent"`) > 1 {
		t.Errorf("the intent line shows the two keys alike: %s", line)
	}
	for _, want := range []string{"2 operations", "clean-op", "tampered-op", "WARNING"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("activity get lacks %q:\n%s", want, out.String())
		}
	}
}
