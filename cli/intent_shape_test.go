package cli

import (
	"context"
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
