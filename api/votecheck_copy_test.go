package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Alice's signed approval shown a second time as bob's, its publicKey and
// signature spelt in upper-case hex (the same key and signature: the
// verifier reads hex in either case): one signature is one vote, so both
// copies must fail.
func TestCopiedVoteInUpperCaseHexFails(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "copied-vote")
	got, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	alice := got.VoteOf(memberID(t, demo, "alice"))
	if alice == nil {
		t.Fatal("no vote of alice's")
	}
	cp := *alice
	cp.ID = alice.ID + "-copy"
	cp.UserID = memberID(t, demo, "bob")
	cp.PublicKey = strings.ToUpper(alice.PublicKey)
	cp.Signature = strings.ToUpper(alice.Signature)
	if c := api.CheckVotes(api.Activity{Fingerprint: got.Fingerprint, OrganizationID: got.OrganizationID, Type: got.Type, CreatedAt: got.CreatedAt, Intent: got.Intent, Votes: []api.Vote{cp}}); c[0].State != api.VoteVerified {
		t.Fatalf("set-up: the upper-case copy alone = %+v, want verified (the verifier reads either case)", c[0])
	}
	got.Votes = append(got.Votes, cp)
	checks := api.CheckVotes(*got)
	for i, v := range got.Votes {
		if (v.UserID == alice.UserID || v.ID == cp.ID) && checks[i].State != api.VoteFailed {
			t.Errorf("CheckVotes: vote %s of %s (one signature shown under two users) = %+v, want FAILED", v.ID, v.UserID, checks[i])
		}
	}
	for _, v := range []api.Vote{*alice, cp} {
		if c := api.CheckVote(*got, v); c.State != api.VoteFailed {
			t.Errorf("CheckVote of %s = %+v, want FAILED", v.ID, c)
		}
	}
}
