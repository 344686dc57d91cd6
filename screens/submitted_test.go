package screens

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Every operation form asks before it submits, saying what it asks for and
// what happens next; No returns to the form with everything typed, and
// nothing is sent.
func TestEndToEndOperationFormConfirmsAndNoKeepsTheForm(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create user tag")
	h.typeText("kept-tag")
	h.key("ctrl+s")
	out := h.frame()
	for _, want := range []string{"Submit create_user_tag?", `tag:         "kept-tag"`, "Once submitted"} {
		if !strings.Contains(out, want) {
			t.Errorf("the confirm lacks %q:\n%s", want, out)
		}
	}
	h.key("n")
	f, ok := h.root.dialogs.Top().(*opFormDialog)
	if !ok || f.form.Values()["userTagName"] != "kept-tag" {
		t.Fatalf("No did not return to the form as it was:\n%s", h.frame())
	}
	for _, m := range h.msgs {
		if _, sent := m.(opSubmittedMsg); sent {
			t.Fatal("No submitted the form")
		}
	}
	match := func(in api.Intent) bool {
		return in.CreateUserTagIntent != nil && in.CreateUserTagIntent.UserTagName == "kept-tag"
	}
	if ids := activitiesOf(t, d.Client("bob"), api.TypeCreateUserTag, match); len(ids) != 0 {
		t.Errorf("No sent create_user_tag: %v", ids)
	}
}

// The notice after a submit never marks an activity that failed or was
// rejected with ✓, and says why it failed.
func TestSubmittedNoticeTellsFailureFromSuccess(t *testing.T) {
	for _, tc := range []struct {
		act     api.Activity
		want    string
		wantBad bool
	}{
		{api.Activity{Status: api.StatusCompleted}, "completed", false},
		{api.Activity{Status: api.StatusConsensusNeeded}, "waits for approvals", false},
		{api.Activity{Status: api.StatusFailed, Failure: &api.Failure{Message: "no such credential\x1b[2J"}}, `FAILED: no such credential`, true},
		{api.Activity{Status: api.StatusRejected}, "REJECTED", true},
	} {
		got, bad := statusWords(&tc.act)
		if !strings.HasPrefix(got, tc.want) || bad != tc.wantBad || strings.ContainsRune(got, 0x1b) {
			t.Errorf("%s: %q (bad %v), want %q (bad %v), escaped", tc.act.Status, got, bad, tc.want, tc.wantBad)
		}
	}
}
