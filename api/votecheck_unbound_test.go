package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
)

// A proxy shows the operator's tag request under another name and, so
// that the requester's vote cannot FAIL the intent check, makes that vote
// uncheckable or leaves it out. Then nothing binds the intent shown, and
// the checks must say so: the intent NOT checked, and no approval's
// verified reason reading as if it vouched for the intent. A passkey
// label on a key the user list holds as her API key FAILS.
func TestIntentCheckNotSwitchedOffByAnUncheckableRequesterVote(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	act := votedTag(t, demo, "benign-name")
	operator := memberID(t, demo, "operator")
	users := honestlyChecked(t, demo, act.ID)
	for _, c := range []struct {
		name     string
		neuter   func(v map[string]any) bool // false: drop the vote
		relabels bool                        // FAILS with the user list
	}{
		{"scheme relabelled a passkey's", func(v map[string]any) bool { v["scheme"] = keys.SchemeWebAuthn; return true }, true},
		{"scheme unknown", func(v map[string]any) bool { v["scheme"] = "SIGNATURE_SCHEME_TK_API_P256_V2"; return true }, true},
		{"message blanked", func(v map[string]any) bool { v["message"] = ""; return true }, false},
		{"public key unreadable", func(v map[string]any) bool { v["publicKey"] = "zz" + v["publicKey"].(string); return true }, false},
		{"vote left out", func(v map[string]any) bool { return false }, false},
	} {
		proxy := activityRewritten(demo, func(a map[string]any) {
			a["intent"].(map[string]any)["createUserTagIntent"].(map[string]any)["userTagName"] = "attacker-chosen"
			var kept []any
			for _, v := range a["votes"].([]any) {
				if v := v.(map[string]any); v["userId"] != operator || c.neuter(v) {
					kept = append(kept, v)
				}
			}
			a["votes"] = kept
		})
		got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Intent.CreateUserTagIntent == nil || got.Intent.CreateUserTagIntent.UserTagName != "attacker-chosen" {
			t.Fatalf("%s: set-up: intent %+v", c.name, got.Intent)
		}
		for _, list := range [][]api.User{nil, users} {
			checks, in := api.CheckActivityVotes(*got, list)
			if in.State != api.IntentNotChecked || !strings.Contains(in.Reason, "cannot check") {
				t.Errorf("%s (users read: %t): intent %+v, want %q", c.name, list != nil, in, api.IntentNotChecked)
			}
			for i, chk := range checks {
				v := got.Votes[i]
				if chk.State == api.VoteVerified && v.Selection == api.VoteApproved && !strings.Contains(chk.Reason, "NOT checked") {
					t.Errorf("%s: %s's approval reads %q beside an intent nothing binds", c.name, v.UserID, chk.Reason)
				}
				if v.UserID == operator && c.relabels && list != nil && chk.State != api.VoteFailed {
					t.Errorf("%s: the requester's vote, her listed API key relabelled: %+v, want FAILED", c.name, chk)
				}
			}
			if plain := api.CheckVotes(*got); len(plain) != len(checks) {
				t.Fatalf("%s: CheckVotes has %d checks, CheckActivityVotes %d", c.name, len(plain), len(checks))
			}
		}
	}
}

// honestlyChecked reads the demo's users and activity id as carol, exact,
// through no proxy, and fails unless the activity's intent is checked
// there: the honest reply the rewrites are measured against. It returns
// the users, for the checks of the rewritten replies.
func honestlyChecked(t *testing.T, demo *servertest.Demo, id string) []api.User {
	t.Helper()
	ctx := context.Background()
	carol := demo.ClientAt(demo.URL, "carol", api.WithExactStrings())
	users, err := carol.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	honest, err := carol.GetActivity(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, in := api.CheckActivityVotes(*honest, users); in.State != api.IntentChecked {
		t.Fatalf("set-up: the honest reply's intent is %q, want %q: %s", in.State, api.IntentChecked, in.Reason)
	}
	return users
}
