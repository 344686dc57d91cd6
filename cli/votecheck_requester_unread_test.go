package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A proxy breaks list_users and shows alice's signed request as bob's
// (vote 0's user id and user swapped). Without the user list, activity get
// cannot tell whose key signed the submission: its intent check reads
// partly checked, saying the requester is not checked to be the signer
// (not "checked", nor a warning an honest organization would also see),
// and its requester line marks bob as the vote's word, as the vote
// prompt does.
func TestActivityGetWithoutTheUserListDoesNotCheckTheRequester(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "unread-users")
	cfg := swappedRequesterWithUsers(t, e, id, `{"users":[{"userId":1}`)
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	if !strings.Contains(out, "intent check: partly checked:") || !strings.Contains(out, "user list was not read") ||
		!strings.Contains(out, "not checked to be the member who signed it") {
		t.Errorf("alice signed it, shown as bob's with no user list: the intent check does not say the requester is not checked to be the signer:\n%s", out)
	}
	if !strings.Contains(out, "bob ("+e.userID("bob")+") (as the vote says; the organization's user list could not be read)") {
		t.Errorf("the requester line does not mark bob as the vote's word:\n%s", out)
	}
	// bob's vote line agrees with the intent line: what the key signed,
	// not that its requester signed it; in --json too.
	const keySigned = "the ones that key signed; not checked to be the requester's: see the intent check"
	if strings.Contains(out, "its requester signed") || !strings.Contains(out, keySigned) {
		t.Errorf("bob's vote says its requester signed the intent, while the intent line says the requester is not checked to be the signer:\n%s", out)
	}
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "get", "--json", id)
	wantExit(t, "activity get --json", code, exitOK, out, errOut)
	_, checks := splitChecks(t, out)
	if r := checks.VoteChecks[0].Reason; !strings.Contains(r, keySigned) || checks.IntentCheck.State != api.IntentPartlyChecked {
		t.Errorf("--json: vote 0 reason %q, intent %+v: want the vote to say what the key signed, the intent partly checked", r, checks.IntentCheck)
	}
}
