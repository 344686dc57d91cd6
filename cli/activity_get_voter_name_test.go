package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// relabelBobsVote has a proxy change bob's vote in get_activity's reply
// (change gets the vote and the environment); its key, message and
// signature stay as signed.
func relabelBobsVote(t *testing.T, change func(e *verbEnv, v map[string]any)) (via *verbEnv, id string) {
	t.Helper()
	_, via, id = keyOwnerEnv(t, func(e *verbEnv, op string, reply map[string]any) {
		if op != "query/"+api.QueryGetActivity {
			return
		}
		act, _ := reply["activity"].(map[string]any)
		for _, v := range act["votes"].([]any) {
			if v := v.(map[string]any); v["userId"] == e.userID("bob") {
				change(e, v)
			}
		}
	})
	return via, id
}

// Audit 195: a proxy renames bob's vote "carol". Its signature verifies
// and the key is bob's in the user list: activity get names the voter
// from the list, bob, and warns that the vote itself names carol.
func TestActivityGetNamesAVoterFromTheUserListNotTheVotesOwnLabel(t *testing.T) {
	via, id := relabelBobsVote(t, func(_ *verbEnv, v map[string]any) {
		v["user"].(map[string]any)["userName"] = "carol"
	})
	code, out, errOut := via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	if strings.Contains(out, "carol approved") {
		t.Errorf("bob's vote, renamed carol by the reply, is printed as carol's:\n%s", out)
	}
	bob := voteLine(t, out, `bob (WARNING: the vote itself names its voter "carol"; the organization's user list names this user id "bob" (renamed since the vote, or relabeled on the way): the name shown is the list's)`)
	if !strings.Contains(bob, "by bob's API key") {
		t.Errorf("bob's renamed vote does not name his key:\n%s", bob)
	}
}

// A vote whose userId the user list read does not hold: its own name is
// printed with that id, marked as the vote's word.
func TestActivityGetMarksAVoterTheUserListDoesNotHold(t *testing.T) {
	var unlisted string
	via, id := relabelBobsVote(t, func(e *verbEnv, v map[string]any) {
		unlisted = strings.ToUpper(e.userID("bob"))
		v["userId"] = unlisted
	})
	code, out, errOut := via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	line := voteLine(t, out, "bob ("+unlisted+") (as the vote says; not in the organization's user list)")
	if !strings.Contains(line, "not checked to be this voter's: the organization's user list does not hold them") {
		t.Errorf("the unlisted voter's key check misstates why:\n%s", line)
	}
}
