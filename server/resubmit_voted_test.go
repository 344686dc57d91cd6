package server

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A member's resend of someone else's submission body is their approval
// (docs/local-service.md, "Replays"): once they have voted, or once the
// activity has ended, it is refused exactly as their approve_activity is,
// not answered 200 as if that approval had been taken. Found by audit 190.
func TestResubmissionByMemberWhoVotedIsRefusedAsTheirApproval(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3, rootCount: 2})
	body := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "audit", UserIDs: []string{e.user("bob")}}, nil)
	r := e.post(e.submitPath("create_user_tag"), body, e.keys["alice"])
	if r.status != 200 || r.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: HTTP %d %s", r.status, r.body)
	}
	if rej, err := e.clients["bob"].RejectActivity(ctxT(t), r.act.Fingerprint); err != nil || rej.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's rejection: %v", err)
	}
	// Bob rejected it: his approval by resubmission is a second vote,
	// refused as his approve_activity is, but saying the body was another
	// user's request (audit 216): his may be that same request, sent in the
	// same millisecond, and nothing was recorded.
	approve := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: r.act.Fingerprint}, nil)
	viaApprove := e.post(e.submitPath("approve_activity"), approve, e.keys["bob"])
	wantError(t, viaApprove, 409, api.CodeAlreadyExists, "ALREADY_VOTED")
	viaResend := e.post(e.submitPath("create_user_tag"), body, e.keys["bob"])
	wantError(t, viaResend, viaApprove.status, viaApprove.err.Code, viaApprove.err.Details[0].ErrorCode)
	if m := viaResend.err.Message; !strings.Contains(m, "exactly this body") || !strings.Contains(m, r.act.ID) || !strings.Contains(m, "you already voted on it") {
		t.Fatalf("bob's resubmission answered HTTP %d %s, which does not say the body is another user's activity he already voted on", viaResend.status, viaResend.body)
	}

	// root1 approves by resubmission; the same resend again is that
	// approval again, not a refusal.
	first := e.post(e.submitPath("create_user_tag"), body, e.keys["root1"])
	again := e.post(e.submitPath("create_user_tag"), body, e.keys["root1"])
	if first.status != 200 || again.status != 200 || len(again.act.Votes) != len(first.act.Votes) || len(first.act.Votes) != 3 {
		t.Fatalf("root1's approval by resubmission, then its resend: HTTP %d %d, %d then %d votes", first.status, again.status, len(first.act.Votes), len(again.act.Votes))
	}

	// root2 completes it; carol, who never voted, now approves an activity
	// no longer waiting.
	done := e.post(e.submitPath("create_user_tag"), body, e.keys["root2"])
	if done.status != 200 || done.act.Status != api.StatusCompleted {
		t.Fatalf("root2's approval by resubmission: HTTP %d %s", done.status, done.body)
	}
	approve = e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: r.act.Fingerprint}, nil)
	viaApprove = e.post(e.submitPath("approve_activity"), approve, e.keys["carol"])
	wantError(t, viaApprove, 400, api.CodeFailedPrecondition, "NOT_VOTABLE")
	// Refused as her approval is, but saying the body was another user's
	// request (audit 209): hers may be that same request, sent in the same
	// millisecond, and nothing was recorded.
	viaResend = e.post(e.submitPath("create_user_tag"), body, e.keys["carol"])
	wantError(t, viaResend, viaApprove.status, viaApprove.err.Code, viaApprove.err.Details[0].ErrorCode)
	if !strings.Contains(viaResend.err.Message, "exactly this body") || !strings.Contains(viaResend.err.Message, r.act.ID) {
		t.Fatalf("resubmission after the end answered HTTP %d %s, which does not say the body is another user's activity", viaResend.status, viaResend.body)
	}

	// The requester's and the completing voter's resends (a retry after a
	// lost reply) still get the recorded activity.
	for _, who := range []string{"alice", "root2"} {
		got := e.post(e.submitPath("create_user_tag"), body, e.keys[who])
		if got.status != 200 || got.act.ID != r.act.ID || got.act.Status != api.StatusCompleted || len(got.act.Votes) != len(done.act.Votes) {
			t.Fatalf("%s's resend after completion: HTTP %d %s", who, got.status, got.body)
		}
	}
}
