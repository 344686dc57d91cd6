package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Replies that come late — fetched before something newer was shown, answered
// after it — never replace what is newer (audit34).

// A record of the open activity fetched before your vote and answered after
// the vote's reply must not put the old status back on the list row: the row
// would offer the vote again.
func TestLateDetailRecordKeepsYourVoteOnTheRow(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	a := h.activities()
	if a.detail == nil {
		t.Fatal("no detail opened")
	}
	before := a.detail.activity // what a record fetch sent now brings back
	h.key("a")
	h.key("y")
	if a.detail.activity.Status != api.StatusCompleted {
		t.Fatalf("setup: the approval did not complete it: %s", a.detail.activity.Status)
	}
	h.send(activityDetailMsg{id: before.ID, activity: &before})
	if a.detail.activity.Status != api.StatusCompleted {
		t.Errorf("the detail shows your vote undone: %s", a.detail.activity.Status)
	}
	h.key("esc")
	for _, it := range a.items {
		if it.ID == before.ID && it.Status != api.StatusCompleted {
			t.Errorf("the row of %s shows %s after your approval completed it", it.ID, shortStatus(it.Status))
		}
	}
	if sel := a.selected(); sel != nil && sel.ID == before.ID && a.voteBlock(sel, true) == "" {
		t.Errorf("approve is offered again on the row you just approved:\n%s", h.frame())
	}
}

// An app proof's verdict is shown only beside the proof it was computed for.
// A verification sent by an earlier opening of the same activity (its boot
// proof slow to come) and answered after the activity was opened again, now
// listing another proof, must not put its verdict beside that other proof.
func TestReopenedActivityNeverShowsAnEarlierOpeningsProofVerdict(t *testing.T) {
	bp, genuine := fixtureBootProof(t), fixtureAppProof(t)
	forged := genuine // same key, payload changed: its signature fails
	forged.ProofPayload = strings.Replace(genuine.ProofPayload, "m/44'", "m/45'", 1)
	fake := &fakeClient{activities: fixtureOrgActivities(), appProofs: []api.AppProof{genuine},
		bootByKey: map[string]*api.BootProof{genuine.PublicKey: bp}}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	a := h.activities()
	id := a.detail.activity.ID
	// The first opening's verification, still in flight.
	late := collect(verifyAppProofsCmd(a.c, id, a.detail.proofGen, genuine.PublicKey, []int{0}, []api.AppProof{genuine}, nil))
	h.key("esc")
	fake.mu.Lock()
	fake.appProofs = []api.AppProof{forged}
	fake.mu.Unlock()
	a.bootCache = nil
	h.key("enter")
	if before := appProofsSection(t, h); !strings.Contains(before, "FAILED") {
		t.Fatalf("setup: the forged proof does not fail:\n%s", before)
	}
	for _, m := range late {
		h.send(m)
	}
	if after := appProofsSection(t, h); strings.Contains(after, "✓ signed by the attested ephemeral key") {
		t.Errorf("the forged proof shows the verdict of the genuine one listed at the earlier opening:\n%s", after)
	}
	// Even a verification numbered as the current one is shown only beside
	// the proof it verified.
	for _, m := range collect(verifyAppProofsCmd(a.c, id, a.detail.proofGen, genuine.PublicKey, []int{0}, []api.AppProof{genuine}, nil)) {
		h.send(m)
	}
	if after := appProofsSection(t, h); strings.Contains(after, "✓ signed by the attested ephemeral key") {
		t.Errorf("the forged proof shows the genuine one's verdict, delivered under the current generation:\n%s", after)
	}
}

// The MFA status asked for while the activity was pending, answered after
// your vote settled it, is not shown: a settled activity has no MFA status
// left to show, and this one would say a voter still misses a step.
func TestLateMfaStatusNotShownOnSettledActivity(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	a := h.activities()
	id, openedGen := a.detail.activity.ID, a.detail.extrasGen
	h.key("a")
	h.key("y")
	if a.detail.activity.Status != api.StatusCompleted || a.detail.mfa != nil {
		t.Fatalf("setup: %s, MFA status %v", a.detail.activity.Status, a.detail.mfa)
	}
	late := activityMfaMsg{id: id, gen: openedGen, statuses: []api.MfaStatus{{MfaPolicyID: "mfa-1", UserID: "u-bob"}}}
	h.send(late)
	if out := h.detailText(); strings.Contains(out, "MFA status") {
		t.Errorf("a COMPLETED activity shows the MFA status fetched while it was pending:\n%s", out)
	}
	// Nor while it is pending, once a newer fetch was sent.
	late.gen = a.detail.extrasGen - 1
	a.detail.activity.Status = api.StatusConsensusNeeded
	h.send(late)
	if out := h.detailText(); strings.Contains(out, "MFA status") {
		t.Errorf("an MFA status superseded by a newer fetch is shown:\n%s", out)
	}
}

// The policy evaluations fetched before your vote, answered after the ones
// the vote fetched, do not replace them: the evaluation that decided it
// stays shown.
func TestLateEvaluationsDoNotReplaceNewer(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	a := h.activities()
	id, openedGen := a.detail.activity.ID, a.detail.extrasGen
	h.key("a")
	h.key("y")
	newer := a.detail.evals
	if len(newer) == 0 {
		t.Fatal("setup: the vote fetched no evaluations")
	}
	old := []api.PolicyEvaluation{{ID: "eval-before-vote", ActivityID: id, CreatedAt: api.NewTime(testNow.Add(-time.Hour))}}
	h.send(activityDetailMsg{id: id, gen: openedGen, evals: &old})
	if len(a.detail.evals) != len(newer) || a.detail.evals[0].ID != newer[0].ID {
		t.Errorf("the evaluations fetched before the vote replaced the %d fetched after it: %+v", len(newer), a.detail.evals)
	}
}

// The final record of an activity that left the newest page of Pending,
// answered after ] moved to the older page, is not listed on that page:
// settled activities belong to the page they settled on. Its settling is
// still told.
func TestSettledFromNewestPageStaysOffOlderPage(t *testing.T) {
	var acts []api.Activity
	for i := range pageSize + 1 {
		acts = append(acts, pendingActivity(fmt.Sprintf("act-%03d", i), "bob", time.Duration(i+1)*time.Minute,
			api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: fmt.Sprintf("t%d", i)}}, api.TypeCreateUserTag))
	}
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	if !a.older {
		t.Fatalf("setup: %d rows and no older page", len(a.items))
	}
	settled := a.items[0]
	h.key("]")
	if len(a.items) != 1 {
		t.Fatalf("setup: the older page has %d rows", len(a.items))
	}
	settled.Status = api.StatusCompleted
	h.msgs = nil
	h.send(activitySettledMsg{id: settled.ID, activity: &settled})
	for _, it := range a.items {
		if it.ID == settled.ID {
			t.Errorf("the older page lists %s, which settled from the newest page (%d rows)", it.ID, len(a.items))
		}
	}
	if !toasted(h.msgs, "completed") {
		t.Errorf("the settling of %s is not told: %v", settled.ID, h.msgs)
	}
}
