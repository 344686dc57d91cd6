package cli

import (
	"strings"
	"testing"
)

// A condition on the tags an invitation gives, or on who sends it, holds
// tag and user ids too: `policy create` warns of a mistyped one there, as
// of any unknown id not provably a wallet's, key's or account's (audit 142).
func TestPolicyCreateWarnsOfAnUnknownTagInAnInvitation(t *testing.T) {
	e := newVerbEnv(t)
	typo := "01a2c0de-0000-7000-8000-000000000002"
	sender := "01a2c0de-0000-7000-8000-000000000003"
	code, out, errOut := e.run("", "policy", "create", "--json", "--name", "no ops invitations", "--effect", "deny",
		"--condition", "activity.params.invitations.exists(i, i.receiver_user_tags.contains('"+typo+"') || i.sender_user_id == '"+sender+"')")
	wantExit(t, "policy create", code, 0, out, errOut)
	for _, id := range []string{typo, sender} {
		if !strings.Contains(errOut, "warning: "+id+" is not a tag or user") {
			t.Errorf("the unknown id %s in an invitation's tags or sender is not warned of:\n%s", id, errOut)
		}
	}
}
