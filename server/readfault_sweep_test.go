package server

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// failNthRead makes the nth SELECT of the write transactions fail with
// ioFault, counting from when it is called; seen counts the SELECTs.
func failNthRead(c *cachedDB, n int64) (seen *atomic.Int64) {
	seen = &atomic.Int64{}
	c.faults.set(func(query string, args []any) error {
		if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(query)), "SELECT") {
			return nil
		}
		if seen.Add(1) == n {
			return ioFault()
		}
		return nil
	})
	return seen
}

// activityState is what a refused request must leave as it was: the
// activities of a type, with their status, failure and votes.
func activityState(t *testing.T, e *testEnv, typ string) string {
	t.Helper()
	var b strings.Builder
	for _, a := range activitiesOfType(t, e, typ) {
		fmt.Fprintf(&b, "%s %s %+v votes:", a.ID, a.Status, a.Failure)
		for _, v := range a.Votes {
			fmt.Fprintf(&b, " %s/%s", v.UserID, v.Selection)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// sweepReads sends body to path, stamped by key, once with each read of its
// write transaction failing in turn, and then with none failing. Every
// refused attempt must be the 503 that says nothing was recorded and leave
// the activities of typ as they were; the attempt no fault reached must
// succeed. It returns that reply.
func sweepReads(t *testing.T, e *testEnv, typ, path string, body []byte, key keys.Stamper) reply {
	t.Helper()
	defer e.srv.db.write.faults.set(nil)
	for n := int64(1); n < 500; n++ {
		before := activityState(t, e, typ)
		// Cold caches, so that the transaction reads what it may remember.
		e.srv.db.cache.invalidate(changedAuth | changedPolicies | changedFeatures | changedVotes)
		seen := failNthRead(e.srv.db.write, n)
		r := e.post(path, body, key)
		e.srv.db.write.faults.set(nil)
		if seen.Load() < n { // no read failed
			t.Logf("%d reads failed in turn", n-1)
			if r.status != 200 {
				t.Fatalf("with no read failing: HTTP %d %s", r.status, r.body)
			}
			return r
		}
		if r.status == 200 {
			t.Fatalf("read %d failed, yet the request was answered with activity %s %s (%+v)", n, r.act.ID, r.act.Status, r.act.Failure)
		}
		if r.status != 503 || len(r.err.Details) != 1 || r.err.Details[0].ErrorCode != "STORAGE_FAILED" {
			t.Fatalf("read %d failed: HTTP %d %s, want 503 STORAGE_FAILED", n, r.status, r.body)
		}
		if after := activityState(t, e, typ); after != before {
			t.Fatalf("read %d failed and the 503 said nothing was recorded, yet the activities changed:\nbefore:\n%safter:\n%s", n, before, after)
		}
	}
	t.Fatal("the request never got past its reads")
	return reply{}
}

// Every read of the transaction of a vote that completes an activity, made
// to fail in turn: the vote is refused with the documented 503, the
// activity stays as it was (never FAILED by the storage error, no vote
// lost), and the same vote completes it once reads succeed.
func TestReadFaultsInCompletingVoteAreNeverRecorded(t *testing.T) {
	cases := []struct {
		name, typ string
		submit    func(e *testEnv) (*api.Activity, error)
	}{
		{"read-only session", api.TypeCreateReadOnlySession, func(e *testEnv) (*api.Activity, error) {
			return e.clients["alice"].CreateReadOnlySession(ctxT(t))
		}},
		{"user tag", api.TypeCreateUserTag, func(e *testEnv) (*api.Activity, error) {
			return e.clients["alice"].CreateUserTag(ctxT(t), api.CreateUserTagParams{UserTagName: "auditors", UserIDs: []string{e.user("bob"), e.user("operator")}})
		}},
		{"policy", api.TypeCreatePolicyV3, func(e *testEnv) (*api.Activity, error) {
			return e.clients["alice"].CreatePolicy(ctxT(t), api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow,
				Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.count() >= 1"})
		}},
		{"feature", api.TypeSetOrganizationFeature, func(e *testEnv) (*api.Activity, error) {
			return e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureOtpEmailAuth, Value: "enabled"})
		}},
		{"invitations", api.TypeCreateInvitations, func(e *testEnv) (*api.Activity, error) {
			return e.clients["alice"].CreateInvitations(ctxT(t), api.CreateInvitationsParams{Invitations: []api.Invitation{{ReceiverUserName: "dan",
				ReceiverUserEmail: "dan@example.com", ReceiverUserTags: []string{}, AccessType: api.AccessTypeAPI, SenderUserID: e.user("alice")}}})
		}},
		{"delete a key", api.TypeDeleteAPIKeys, func(e *testEnv) (*api.Activity, error) {
			u, err := e.clients["alice"].GetUser(ctxT(t), e.user("operator"))
			if err != nil {
				return nil, err
			}
			return e.clients["alice"].DeleteAPIKeys(ctxT(t), api.DeleteAPIKeysParams{UserID: e.user("operator"), APIKeyIDs: []string{u.APIKeys[0].APIKeyID}})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
			pending, err := c.submit(e)
			if err != nil || pending.Status != api.StatusConsensusNeeded {
				t.Fatalf("alice's submission: %v %+v, want it waiting for consensus", err, pending)
			}
			vote := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: pending.Fingerprint}, nil)
			r := sweepReads(t, e, c.typ, e.submitPath("approve_activity"), vote, e.keys["bob"])
			if r.act.ID != pending.ID || r.act.Status != api.StatusCompleted {
				t.Fatalf("bob's vote once reads succeed: activity %s %s (%+v), want %s completed", r.act.ID, r.act.Status, r.act.Failure, pending.ID)
			}
		})
	}
}

// The same sweep for a submission that completes at once (one approval
// needed) and for a rejecting vote: a read error never records the
// activity, FAILED or otherwise, and never drops the vote.
func TestReadFaultsInSubmitAndRejectAreNeverRecorded(t *testing.T) {
	t.Run("submit", func(t *testing.T) {
		e := newEnvWith(t, envOptions{threshold: 1, dataDir: t.TempDir()})
		body := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "auditors", UserIDs: []string{e.user("bob")}}, nil)
		r := sweepReads(t, e, api.TypeCreateUserTag, e.submitPath("create_user_tag"), body, e.keys["alice"])
		if r.act.Status != api.StatusCompleted {
			t.Fatalf("alice's submission once reads succeed: %s (%+v)", r.act.Status, r.act.Failure)
		}
		if acts := activitiesOfType(t, e, api.TypeCreateUserTag); len(acts) != 1 {
			t.Fatalf("%d activities, want the one submission", len(acts))
		}
	})
	t.Run("reject", func(t *testing.T) {
		e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
		pending, err := e.clients["alice"].CreateReadOnlySession(ctxT(t))
		if err != nil || pending.Status != api.StatusConsensusNeeded {
			t.Fatalf("alice's submission: %v %+v", err, pending)
		}
		vote := e.body(api.TypeRejectActivity, api.RejectActivityParams{Fingerprint: pending.Fingerprint}, nil)
		r := sweepReads(t, e, api.TypeCreateReadOnlySession, e.submitPath("reject_activity"), vote, e.keys["bob"])
		var bobs int
		for _, v := range r.act.Votes {
			if v.UserID == e.user("bob") && v.Selection == api.VoteRejected {
				bobs++
			}
		}
		if r.act.ID != pending.ID || bobs != 1 {
			t.Fatalf("bob's rejection once reads succeed: activity %s with %d rejections by bob, want %s with one", r.act.ID, bobs, pending.ID)
		}
	})
}
