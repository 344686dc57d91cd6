package api_test

import (
	"context"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A client that sanitises what it decodes (the default: strings safe to
// print) still checks an honest vote as verified when the signed body holds
// characters the sanitiser escapes (a zero-width space, a line separator, a
// bidi control): the check must not mistake its own escaping for tampering.
func TestHonestVotesVerifyThroughASanitisingClient(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "a\u200bb\u2028c\u202ed")
	for _, client := range []*api.Client{demo.Client("alice"), demo.ClientAt(demo.URL, "alice", api.WithExactStrings())} {
		got, err := client.GetActivity(context.Background(), act.ID)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range api.CheckVotes(*got) {
			if c.State != api.VoteVerified {
				t.Errorf("vote %d of an honest activity: %s (%s), want verified", i, c.State, c.Reason)
			}
		}
	}
}
