package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote the service recorded whose printing fails (stdout full) must not
// exit 1 as if nothing happened: it is exit 4 (look first), and standard
// error, the only place left, names the activity and the vote that counted.
func TestVoteRecordedButStdoutFullNamesTheActivity(t *testing.T) {
	e := newVerbEnv(t)
	for _, tc := range []struct {
		verb, vote string
		json       bool
	}{{"approve", "approval", false}, {"reject", "rejection", true}} {
		act, err := e.client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "vote-full-" + tc.verb, UserIDs: []string{}})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("propose: %+v %v", act, err)
		}
		args := []string{"activity", tc.verb, "--yes", "--profile", "bob", act.ID}
		if tc.json {
			args = append(args[:3], append([]string{"--json"}, args[3:]...)...)
		}
		code, errOut := runWithFullStdout(map[string]string{"VIGIL_CONFIG": e.config}, args...)
		after, err := e.client("alice").GetActivity(context.Background(), act.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Votes) < 2 {
			t.Fatalf("%v: set-up: bob's vote was not recorded: %+v\n%s", args, after.Votes, errOut)
		}
		if code != exitOutcomeUnknown {
			t.Errorf("%v: the vote was recorded, yet exit %d, want %d (look first):\n%s", args, code, exitOutcomeUnknown, errOut)
		}
		if !strings.Contains(errOut, act.ID) || !strings.Contains(errOut, tc.vote) || !strings.Contains(errOut, "recorded") || !strings.Contains(errOut, "no space left") {
			t.Errorf("%v: stderr should name the activity %s, the %s recorded and why printing failed:\n%s", args, act.ID, tc.vote, errOut)
		}
	}
}
