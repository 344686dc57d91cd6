package cli

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The CLI's requester column names the first vote's member only when that
// vote is of the activity's first voting round: after it ended, the service
// sends only the current round's votes, whose first voter did not ask.
func TestRequesterIsNotALaterRoundsFirstVoter(t *testing.T) {
	created := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	vote := func(name string, at time.Time) api.Vote {
		return api.Vote{UserID: "u-" + name, User: api.User{UserName: name}, Selection: api.VoteApproved, CreatedAt: api.NewTime(at)}
	}
	first := api.Activity{CreatedAt: api.NewTime(created), Votes: []api.Vote{vote("bob", created)}}
	if got := activityRequester(&first); got == "?" {
		t.Errorf("first round: requester %q, want bob", got)
	}
	later := api.Activity{CreatedAt: api.NewTime(created), Votes: []api.Vote{vote("carol", created.Add(25*time.Hour))}}
	if got := activityRequester(&later); got != "?" {
		t.Errorf("a later round's first voter is shown as the requester: %q", got)
	}
}
