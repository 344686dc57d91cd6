package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A proxy shows, on activity A, bob's signed approval of activity B as his
// vote: 'activity get' marks it FAILED (and alice's own submission
// verified, by her key), in its text and in --json's voteChecks beside the activity as
// sent.
func TestActivityGetShowsAForeignVoteFailed(t *testing.T) {
	e := newVerbEnv(t)
	alice := e.client("alice")
	idB := openTag(t, e, "check-b")
	bobsVoteOnB := bobApproves(t, e, alice, idB).(map[string]any)
	idA := openTag(t, e, "check-a")
	bobID := e.userID("bob")
	proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity || !strings.Contains(string(request), idA) {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		forged := map[string]any{}
		for k, v := range bobsVoteOnB {
			forged[k] = v
		}
		forged["activityId"] = idA
		m["activity"]["votes"] = append(m["activity"]["votes"].([]any), forged)
		out, _ := json.Marshal(m)
		return out
	})
	cfg := e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))
	env := map[string]string{"VIGIL_CONFIG": cfg}
	code, out, errOut := runVigil(t, env, "", "activity", "get", idA)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	var aliceLine, bobLine string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, "alice approved"):
			aliceLine = l
		case strings.Contains(l, "bob approved"):
			bobLine = l
		}
	}
	if !strings.Contains(bobLine, "[FAILED") {
		t.Errorf("bob's vote copied from another activity is not marked FAILED:\n%s", out)
	}
	if !strings.Contains(aliceLine, "[verified: ") || !strings.Contains(aliceLine, "by alice's API key") {
		t.Errorf("alice's own submission is not marked verified, by her key:\n%s", out)
	}

	code, out, errOut = runVigil(t, env, "", "activity", "get", "--json", idA)
	wantExit(t, "activity get --json", code, exitOK, out, errOut)
	var reply struct {
		Activity struct {
			Votes []struct {
				ID string `json:"id"`
			} `json:"votes"`
		} `json:"activity"`
		VoteChecks []struct {
			VoteID string `json:"voteId"`
			UserID string `json:"userId"`
			State  string `json:"state"`
			Reason string `json:"reason"`
		} `json:"voteChecks"`
	}
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(reply.VoteChecks) != len(reply.Activity.Votes) || len(reply.VoteChecks) != 2 {
		t.Fatalf("--json: %d checks for %d votes, want one per vote (2):\n%s", len(reply.VoteChecks), len(reply.Activity.Votes), out)
	}
	for _, c := range reply.VoteChecks {
		want := api.VoteVerified
		if c.UserID == bobID {
			want = api.VoteFailed
		}
		if c.State != want {
			t.Errorf("--json: the check of %s's vote is %q (%s), want %q", c.UserID, c.State, c.Reason, want)
		}
	}
}
