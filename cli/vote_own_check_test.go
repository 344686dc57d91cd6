package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote under the profile's key counts as the member's own only when it
// verifies as a vote on the activity: a copy of bob's signed approval of B
// shown on A (which bob never voted on), with A not open to his vote, is no
// "you already approved; nothing to do" exit 0 (the vote would be lost),
// but exit 4 saying why, with nothing sent.
func TestApproveOverOwnVoteCopiedFromAnotherActivityIsNotKnown(t *testing.T) {
	e := newVerbEnv(t)
	alice := e.client("alice")
	idB := openTag(t, e, "copied-b")
	bobsVoteOnB := bobApproves(t, e, alice, idB).(map[string]any)
	idA := openTag(t, e, "copied-a")
	sent := 0
	hostile := e.via(func(op string, request, reply []byte) []byte {
		if op == "submit/approve_activity" {
			sent++
		}
		return withVoteCopiedOn(op, request, reply, idA, bobsVoteOnB)
	})
	code, out, errOut := hostile.run("", "activity", "approve", "--yes", "--profile", "bob", idA)
	wantExit(t, "approve over a copied vote", code, exitOutcomeUnknown, out, errOut)
	if sent != 0 {
		t.Errorf("%d approvals sent; the service offered none", sent)
	}
	for _, want := range []string{"FAILED its check", "a vote on another activity", "whether your vote is recorded is not known", "vigil activity get"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	a, err := alice.GetActivity(context.Background(), idA)
	if err != nil {
		t.Fatal(err)
	}
	if v := a.VoteOf(e.userID("bob")); v != nil {
		t.Errorf("the service holds bob's vote %s on %s; nothing should have been sent", v.Selection, idA)
	}
}

// bob approved; the read before 'reject' shows his approval as a
// rejection: the vote shown does not verify, so it is not "you already
// rejected; nothing to do" (exit 0), but exit 4.
func TestRejectOverOwnApprovalShownRejectedIsNotKnown(t *testing.T) {
	code, out, errOut := rejectOverOwnVoteShownAs(t, api.VoteRejected)
	wantExit(t, "reject over an approval shown rejected", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "a vote of the other selection") {
		t.Errorf("stderr does not say why the vote is not told as bob's:\n%s", errOut)
	}
}

// bob approved; the read before 'reject' shows his vote with a selection
// of terminal escapes: nothing raw reaches stderr, and the vote is not
// told as his (exit 4, not 0).
func TestRejectOverOwnVoteWithUnknownSelectionIsNotKnown(t *testing.T) {
	code, out, errOut := rejectOverOwnVoteShownAs(t, "\x1b]0;pwned\x07\u009b2J")
	if raw := rawControls(errOut); len(raw) > 0 {
		t.Errorf("raw %q on stderr: %q", raw, errOut)
	}
	wantExit(t, "reject over an unknown selection", code, exitOutcomeUnknown, out, errOut)
	if !strings.Contains(errOut, "neither "+api.VoteApproved+" nor "+api.VoteRejected) {
		t.Errorf("stderr does not say the selection is unknown:\n%s", errOut)
	}
}

// The other direction, 'approve' over an own vote of an unknown selection:
// exit 4 too (it was "a vote cannot be changed", exit 1).
func TestApproveOverOwnVoteWithUnknownSelectionIsNotKnown(t *testing.T) {
	code, out, errOut := voteOverOwnVoteShownAs(t, "approve", "\x1b]0;pwned\x07")
	if raw := rawControls(errOut); len(raw) > 0 {
		t.Errorf("raw %q on stderr: %q", raw, errOut)
	}
	wantExit(t, "approve over an unknown selection", code, exitOutcomeUnknown, out, errOut)
}

func rejectOverOwnVoteShownAs(t *testing.T, selection string) (code int, out, errOut string) {
	t.Helper()
	return voteOverOwnVoteShownAs(t, "reject", selection)
}

// voteOverOwnVoteShownAs has bob approve an open tag, then run 'activity
// verb --yes' on it through a proxy that shows his vote with selection;
// the service's record of bob's vote must stay his approval.
func voteOverOwnVoteShownAs(t *testing.T, verb, selection string) (code int, out, errOut string) {
	t.Helper()
	e := newVerbEnv(t)
	id := openTag(t, e, "shown-as")
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "bob approves", code, exitOK, out, errOut)
	bobID := e.userID("bob")
	hostile := e.via(func(op string, _, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		for _, v := range m["activity"]["votes"].([]any) {
			if v.(map[string]any)["userId"] == bobID {
				v.(map[string]any)["selection"] = selection
			}
		}
		b, _ := json.Marshal(m)
		return b
	})
	code, out, errOut = hostile.run("", "activity", verb, "--yes", "--profile", "bob", id)
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if v := a.VoteOf(bobID); v == nil || v.Selection != api.VoteApproved {
		t.Fatalf("bob's recorded vote is %+v, want his approval", v)
	}
	return code, out, errOut
}

// votedText writes a selection the service sent; its escapes must not
// reach the terminal.
func TestVotedTextSanitizesAnUnknownSelection(t *testing.T) {
	got := votedText(&api.Vote{Selection: "\x1b]52;c;cHduZWQ=\x07\u009b2J\u202e"})
	if raw := rawControls(got); len(raw) > 0 {
		t.Errorf("votedText = %q: raw %q", got, raw)
	}
}

// 'vigil request' with a rejection of A, bob having never voted on A, while
// the read before it shows bob's signed approval of B copied onto A: that
// copy is not "you already approved this activity" (a refusal that keeps
// bob's rejection from being sent); the rejection goes to the service,
// which records it.
func TestRequestRejectOverOwnVoteCopiedFromAnotherActivityIsSent(t *testing.T) {
	e := newVerbEnv(t)
	alice := e.client("alice")
	idB := openTag(t, e, "request-copied-b")
	bobsVoteOnB := bobApproves(t, e, alice, idB).(map[string]any)
	idA := openTag(t, e, "request-copied-a")
	fpA := mustFingerprint(t, e, idA)
	gw := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		return withVoteCopiedOn(op, request, reply, idA, bobsVoteOnB)
	})
	cfg := e.configVia(gw, filepath.Join(t.TempDir(), "copied.toml"))
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, rejectBody(e, fpA),
		"request", "--profile", "bob", "--path", "/public/v1/submit/reject_activity", "--body-file", "-")
	t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	if strings.Contains(errOut, "you already approved") {
		t.Errorf("bob never voted on %s; stderr says he approved it:\n%s", idA, errOut)
	}
	now, err := alice.GetActivity(context.Background(), idA)
	if err != nil {
		t.Fatal(err)
	}
	if v := now.VoteOf(e.userID("bob")); v == nil || v.Selection != api.VoteRejected {
		t.Errorf("the service holds %+v for bob on %s, want his rejection", v, idA)
	}
	if code == exitOK && now.VoteOf(e.userID("bob")) == nil {
		t.Errorf("exit 0 without bob's vote recorded")
	}
}

// withVoteCopiedOn is reply with vote (another activity's) added to
// activity id's votes and no vote offered on it, when reply is
// get_activity's of id; other replies as they are.
func withVoteCopiedOn(op string, request, reply []byte, id string, vote any) []byte {
	if op != "query/"+api.QueryGetActivity || !strings.Contains(string(request), id) {
		return reply
	}
	var m map[string]map[string]any
	if json.Unmarshal(reply, &m) != nil {
		return reply
	}
	m["activity"]["votes"] = append(m["activity"]["votes"].([]any), vote)
	m["activity"]["canApprove"] = false
	m["activity"]["canReject"] = false
	b, _ := json.Marshal(m)
	return b
}
