package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// One reading of a clock that ran ahead (an RTC glitch, a VM restored with a
// wrong date, corrected a moment later) must not date every later activity of
// the organization in the future: the requester's approval, cast with the
// submission, must expire 24 hours after it was really cast, as
// docs/local-service.md says, not 24 hours after the glitch's date.
func TestClockGlitchAheadDoesNotExtendLaterApprovals(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	at := e.skewed
	e.skew.Store(int64(30 * 24 * time.Hour)) // thirty days ahead, for one submission
	if _, err := at("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "glitch", UserIDs: []string{e.user("carol")}}); err != nil {
		t.Fatal(err)
	}
	e.skew.Store(0) // corrected
	late, err := at("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "late", UserIDs: []string{e.user("bob")}})
	if err != nil || late.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, late)
	}
	// 25 hours later alice's approval has expired: bob's alone must not
	// complete the activity.
	e.skew.Store(int64(25 * time.Hour))
	afterBob, err := at("bob").ApproveActivity(ctx, late.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if afterBob.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's approval 25 h after alice's completed the activity with her expired approval: status %s, %d votes", afterBob.Status, len(afterBob.Votes))
	}
}
