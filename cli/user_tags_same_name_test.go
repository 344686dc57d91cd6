package cli

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Two tags of one name (the service allows it) are told apart in user list
// and user get by their ids, as the console does: by name alone a reader
// cannot say which one a user holds, and a policy counts one id.
func TestUserListAndGetTellSameNameTagsApart(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	var carol string
	for _, m := range e.demo.Info.Members {
		if m.Name == "carol" {
			carol = m.UserID
		}
	}
	before, err := e.client("alice").GetUser(ctx, carol)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		act, err := e.client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "twin", UserIDs: []string{carol}})
		if err == nil && act.Status == api.StatusConsensusNeeded {
			act, err = e.client("bob").ApproveActivity(ctx, act.Fingerprint)
		}
		if err != nil || act.Status != api.StatusCompleted {
			t.Fatalf("create tag: %+v %v", act, err)
		}
	}
	after, err := e.client("alice").GetUser(ctx, carol)
	if err != nil {
		t.Fatal(err)
	}
	var twins []string
	for _, id := range after.UserTags {
		if !slices.Contains(before.UserTags, id) {
			twins = append(twins, id)
		}
	}
	if len(twins) != 2 {
		t.Fatalf("set-up: carol should hold two new tags, holds %v", after.UserTags)
	}
	for _, args := range [][]string{{"user", "list"}, {"user", "get", carol}} {
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 0, out, errOut)
		for _, id := range twins {
			if !strings.Contains(out, "twin ("+id+")") {
				t.Errorf("%v: the tag %s is not told apart from its namesake by its id:\n%s", args, id, out)
			}
		}
	}
}
