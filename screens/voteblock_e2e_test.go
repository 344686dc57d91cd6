package screens

import (
	"context"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A vote key that cannot act says the one reason that holds, not a list of
// possible ones: you voted (and how), it is settled, or you are not a voter.
func TestEndToEndVoteKeySaysWhyItCannotVote(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := d.Client("alice"), d.Client("bob")
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "why-not", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	press := func(t *testing.T, c *api.Client, id, key, want string) {
		t.Helper()
		h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 0)
		h.key("v") // All: settled activities too
		h.selectActivityID(id)
		h.key(key)
		if h.root.dialogs.Len() != 0 {
			t.Fatalf("%s opened a dialog on an activity you cannot vote on:\n%s", key, h.frame())
		}
		if !h.toasted(want) {
			t.Errorf("%s does not say %q; messages:\n%v", key, want, h.msgs)
		}
	}
	t.Run("requested it", func(t *testing.T) {
		press(t, alice, act.ID, "x", "you cannot reject this activity: you already approved it (a request counts as its requester's approval)")
	})
	t.Run("approved another's request", func(t *testing.T) {
		// The demo's TVC deletion is the operator's request, which bob approved:
		// no request of bob's counted as his approval.
		tvc, err := bob.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
			Types: []string{api.TypeDeleteTvcDeployment}, Limit: 1})
		if err != nil || len(tvc) == 0 {
			t.Fatalf("no pending TVC deletion in the demo: %v", err)
		}
		press(t, bob, tvc[0].ID, "a", "you cannot approve this activity: you already approved it, and a vote cannot be changed")
	})
	t.Run("not a voter", func(t *testing.T) {
		// A feature change is root-only: no policy makes the operator a voter.
		feats, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
			Types: []string{api.TypeSetOrganizationFeature}, Limit: 1})
		if err != nil || len(feats) == 0 {
			t.Fatalf("no pending feature change in the demo: %v", err)
		}
		press(t, d.Client("operator"), feats[0].ID, "a", "you cannot approve this activity: you are not one of its voters")
	})
	t.Run("rejected it", func(t *testing.T) {
		other, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "why-not-2", UserIDs: []string{d.Info.Members[0].UserID}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bob.RejectActivity(ctx, other.Fingerprint); err != nil {
			t.Fatal(err)
		}
		got, err := bob.GetActivity(ctx, other.ID)
		if err != nil || got.Status != api.StatusConsensusNeeded {
			t.Fatalf("bob's reject settled it (%+v %v): the case needs a pending activity", got, err)
		}
		press(t, bob, other.ID, "a", "you cannot approve this activity: you already rejected it")
	})
	t.Run("settled", func(t *testing.T) {
		done, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusCompleted}, Limit: 1})
		if err != nil || len(done) == 0 {
			t.Fatalf("no completed activity in the demo: %v", err)
		}
		press(t, alice, done[0].ID, "a", "you cannot approve this activity: it is no longer pending (COMPLETED)")
	})
}
