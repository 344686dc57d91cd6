package cli

import (
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
	tagActivities := func() int { return e.countActivities(t, api.TypeCreateUserTag) }
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

// tag create warns on stderr, naming the existing tag's id, when the
// organization already has a tag of that name: the service allows a second
// one, which by name cannot be told from the first.
func TestTagCreateWarnsOfATagOfTheSameName(t *testing.T) {
	e := newVerbEnv(t)
	ops := e.demoTagID("ops")
	code, out, errOut := e.run("", "tag", "create", "--name", "ops")
	wantExit(t, "tag create --name ops", code, 0, out, errOut)
	if !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, "already has a user tag named") || !strings.Contains(errOut, ops) {
		t.Errorf("a second tag named ops is proposed without a warning naming %s:\n%s", ops, errOut)
	}
	code, out, errOut = e.run("", "tag", "create", "--name", "brand new")
	wantExit(t, "tag create --name \"brand new\"", code, 0, out, errOut)
	if strings.Contains(errOut, "already has") {
		t.Errorf("a new tag name is warned of:\n%s", errOut)
	}
}

// A user given twice, once by name and once by id, is a usage mistake named
// in the words typed, found before anything is sent.
func TestTagCreateRefusesOneUserByNameAndByID(t *testing.T) {
	e := newVerbEnv(t)
	bob := e.userID("bob")
	code, out, errOut := e.run("", "tag", "create", "--name", "x", "bob", bob)
	wantExit(t, "tag create bob <bob's id>", code, exitUsage, out, errOut)
	if !strings.Contains(errOut, `"bob" and "`+bob+`" are the same user`) {
		t.Errorf("the refusal does not say bob and %s are the same user:\n%s", bob, errOut)
	}
}
