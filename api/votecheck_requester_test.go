package api_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
)

// The intent check must not say "checked: ... the ones its requester signed" when
// the verified submission is not the requester's vote the console and CLI
// name (policy.SubmitterOf: the first vote), or its key is, by the user
// list CheckActivityVotes holds, another member's than the vote's user.
func TestIntentNotCheckedWhenTheSubmissionIsNotTheRequestersVote(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	act := votedTag(t, demo, "who-asked")
	operator, alice, carol := memberID(t, demo, "operator"), memberID(t, demo, "alice"), memberID(t, demo, "carol")
	users := honestlyChecked(t, demo, act.ID)
	for _, c := range []struct {
		name   string
		change func(a map[string]any)
	}{
		{"requester not first (alice's approval first)", func(a map[string]any) {
			vs := a["votes"].([]any)
			slices.Reverse(vs)
		}},
		{"requester's vote under carol's user id", func(a map[string]any) {
			for _, v := range a["votes"].([]any) {
				if v := v.(map[string]any); v["userId"] == operator {
					v["userId"] = carol
					v["user"].(map[string]any)["userId"] = carol
				}
			}
		}},
		{"requester's vote under alice's user id (two votes by alice)", func(a map[string]any) {
			for _, v := range a["votes"].([]any) {
				if v := v.(map[string]any); v["userId"] == operator {
					v["userId"] = alice
					v["user"].(map[string]any)["userId"] = alice
				}
			}
		}},
	} {
		proxy := activityRewritten(demo, c.change)
		got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, in := api.CheckActivityVotes(*got, users)
		if in.State != api.IntentNotChecked || !strings.Contains(in.Reason, "requester") {
			t.Errorf("%s: requester shown %q (operator signed the submission): intent %q: %s", c.name, policy.SubmitterOf(*got), in.State, in.Reason)
		}
	}
}
