package cli

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// tag create refuses a user id that is no user of the organization (the
// service takes it, costs a quorum vote, and then FAILS the activity) and a
// flag passed after -- as a user id, before anything is sent; a user given
// by name is sent by id.
func TestTagCreateChecksUsersBeforeSending(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	tagActivities := func() int {
		t.Helper()
		acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateUserTag}, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(acts)
	}
	before := tagActivities()
	const typo = "01a221d8-63fb-7a04-af44-e5adf773b999" // shaped like an id, no user's
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--name", "typo-tag", typo}, `user "` + typo + `" is neither the id nor the name of a user of this organization (known: "alice" (id ` + e.userID("alice")},
		{[]string{"--name", "typo-tag", e.userID("bob"), "nosuch"}, `user "nosuch" is neither the id nor the name of a user of this organization`},
		{[]string{"--name", "x y", "--", "--json"}, `"--json" looks like a flag, not a user: put flags before the users`},
	} {
		code, out, errOut := e.run("", append([]string{"tag", "create"}, tc.args...)...)
		wantExit(t, "tag create "+strings.Join(tc.args, " "), code, exitUsage, out, errOut)
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errOut, tc.want)
		}
	}
	if after := tagActivities(); after != before {
		t.Fatalf("a refused tag was sent: %d create_user_tag activities before, %d after", before, after)
	}

	a := e.submitAndApprove("", "tag", "create", "--name", "by-name", "carol", e.userID("operator"))
	if a.Status != api.StatusCompleted {
		t.Fatalf("tag create with a name and an id: %s %+v", a.Status, a.Failure)
	}
	if got, want := a.Intent.CreateUserTagIntent.UserIDs, []string{e.userID("carol"), e.userID("operator")}; !slices.Equal(got, want) {
		t.Errorf("sent user ids %v, want %v (carol by id)", got, want)
	}
}
