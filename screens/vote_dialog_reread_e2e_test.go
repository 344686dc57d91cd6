package screens

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A policy on an older page of Pending, one the console never showed,
// completes: no copy the console holds shows it, and the vote dialog opened
// afterwards reads the organization again before its prediction is
// confirmed.
func TestVoteDialogReadsTheOrganizationAgain(t *testing.T) {
	_, h, _, tag := tagUnderUnseenPolicy(t)
	h.selectActivityID(tag.ID)
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if strings.Contains(text, "it still waits") || !strings.Contains(text, `allowed by policy "carol alone allows tags"`) {
		t.Fatalf("the dialog predicts from the policies loaded before the new one completed:\n%s", h.frame())
	}
	if !strings.Contains(text, "changed while open") {
		t.Errorf("the dialog's prediction changed with the read, and it does not say so (a y typed for the first text would vote):\n%s", h.frame())
	}
}

// tagUnderUnseenPolicy starts carol's console on a demo where bob's policy
// "carol alone allows tags", on an older page of Pending the console never
// showed, completed after the console loaded the organization; operator's
// tag, on the page shown, waits for a vote that the policy lets carol's
// approval alone run.
func tagUnderUnseenPolicy(t *testing.T) (*servertest.Demo, *harness, *api.Activity, *api.Activity) {
	t.Helper()
	d, h, pol, tag := tagUnderPendingPolicy(t)
	completeElsewhere(t, d, pol)
	h.run(h.activities().load())
	return d, h, pol, tag
}

// tagUnderPendingPolicy is tagUnderUnseenPolicy before bob's policy
// completes: it still waits for alice's approval (completeElsewhere).
func tagUnderPendingPolicy(t *testing.T) (*servertest.Demo, *harness, *api.Activity, *api.Activity) {
	t.Helper()
	d := servertest.StartDemo(t)
	pol := proposeCarolAlonePolicy(t, d)
	backlog(t, d, pageSize+10) // the policy is on the older page
	tag := proposeWatchedTag(t, d)
	h := memberConsole(t, d.Client("carol"))
	a := h.activities()
	if slices.ContainsFunc(a.items, func(it api.Activity) bool { return it.ID == pol.ID }) {
		t.Fatal("set-up: the policy is on the first page")
	}
	return d, h, pol, tag
}

// runHoldingOrgLoads is h.run, but the organization's loads' replies
// (orgLoadedMsg) are held back in held, as a slow read would hold them.
func runHoldingOrgLoads(h *harness, cmd tea.Cmd, held *[]tea.Msg) {
	for _, msg := range collect(cmd) {
		if _, ok := msg.(orgLoadedMsg); ok {
			*held = append(*held, msg)
			continue
		}
		h.msgs = append(h.msgs, msg)
		if _, ok := msg.(tea.QuitMsg); ok {
			continue
		}
		_, next := h.root.Update(msg)
		runHoldingOrgLoads(h, next, held)
	}
}

// carolVoted reports whether the service holds carol's vote on act.
func carolVoted(t *testing.T, d *servertest.Demo, act *api.Activity) bool {
	t.Helper()
	got, err := d.Client("alice").GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatalf("read %s: %v", act.ID, err)
	}
	for _, m := range d.Info.Members {
		if m.Name == "carol" {
			return got.VoteOf(m.UserID) != nil
		}
	}
	t.Fatal("no carol in the demo")
	return false
}

// A y pressed while the dialog's read of the organization is in flight
// sends nothing: the dialog says it is reading, and the vote goes out only
// after the prediction worked out from the read has been shown (here it
// changed: the next y confirms it was read, the one after it votes).
func TestVoteDialogHoldsYUntilItsReadLands(t *testing.T) {
	d, h, _, tag := tagUnderUnseenPolicy(t)
	h.selectActivityID(tag.ID)
	var held []tea.Msg
	_, cmd := h.root.Update(keyPress("a"))
	runHoldingOrgLoads(h, cmd, &held)
	if len(held) != 1 || !h.voteDialogOpen() {
		t.Fatalf("set-up: %d loads held, dialog open %v:\n%s", len(held), h.voteDialogOpen(), h.frame())
	}
	h.key("y")
	if carolVoted(t, d, tag) {
		t.Fatalf("y pressed before the dialog's read landed voted on the prediction from before it:\n%s", h.frame())
	}
	frame := strings.Join(strings.Fields(h.frame()), " ")
	if !h.voteDialogOpen() || !strings.Contains(frame, "reading the organization again") || !strings.Contains(frame, "y was not sent") {
		t.Fatalf("while its read is in flight, the dialog does not say y waits for it:\n%s", h.frame())
	}
	for _, msg := range held {
		h.send(msg)
	}
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(text, `allowed by policy "carol alone allows tags"`) || !strings.Contains(text, "changed while open") {
		t.Fatalf("the read landed, and the dialog does not show and announce the prediction from it:\n%s", h.frame())
	}
	h.key("y") // confirms the new text was read
	if carolVoted(t, d, tag) || !h.voteDialogOpen() {
		t.Fatalf("the y after the restated prediction voted instead of confirming it was read:\n%s", h.frame())
	}
	h.key("y")
	if !carolVoted(t, d, tag) {
		t.Fatalf("the y after the confirmation did not vote:\n%s", h.frame())
	}
}

// A read that fails does not block the vote: the dialog says its
// prediction may be stale, and y still answers.
func TestVoteDialogWhoseReadFailsSaysPossiblyStale(t *testing.T) {
	d, tag, h, _ := voteDialogWhoseReadFails(t)
	frame := strings.Join(strings.Fields(h.frame()), " ")
	if !h.voteDialogOpen() || !strings.Contains(frame, "POSSIBLY STALE") || !strings.Contains(frame, "could not be read again") {
		t.Fatalf("the dialog's read failed, and it does not say its prediction may be stale:\n%s", h.frame())
	}
	h.key("y")
	if !carolVoted(t, d, tag) {
		t.Fatalf("a failed read blocked the vote:\n%s", h.frame())
	}
}

// voteDialogWhoseReadFails is carol's console with the vote dialog open on a
// proposed tag, its read of the organization failed (the service's policy
// list unreadable while failing is set, as it is on return).
func voteDialogWhoseReadFails(t *testing.T) (*servertest.Demo, *api.Activity, *harness, *atomic.Bool) {
	t.Helper()
	d := servertest.StartDemo(t)
	tag := proposeTag(t, d, "reread-fails")
	failing := new(atomic.Bool)
	rw := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/list_policies" && failing.Load() {
			return []byte("not json")
		}
		return reply
	})
	h := memberConsole(t, d.ClientAt(rw, "carol"))
	if !h.holdsPolicy(h.root.common.Org.Policies[0].PolicyName) {
		t.Fatal("set-up: the organization did not load")
	}
	failing.Store(true)
	h.selectActivityID(tag.ID)
	h.key("a")
	return d, tag, h, failing
}
