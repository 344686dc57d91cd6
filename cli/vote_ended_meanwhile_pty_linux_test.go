//go:build linux

package cli

import (
	"context"
	"testing"
)

// The race as a member meets it: the [y/N] prompt is open, another member
// completes the activity, the member answers y. Found by audit 209.
func TestVoteAtPromptAfterAnotherMemberEndedItSaysNotCounted(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "ended-at-prompt")
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := endingFirst(t, e, approvedBy(t, e, "carol", a.Fingerprint))
	code, out, errOut, _ := runOnPTY(t, func(k string) string {
		if k == "VIGIL_CONFIG" {
			return cfg
		}
		return ""
	}, "Reject this activity? [y/N]", "y\n", "activity", "reject", "--profile", "bob", id)
	wantNotCounted(t, "activity reject at the prompt", code, out, errOut, "your rejection")
}
