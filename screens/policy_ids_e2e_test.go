package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// nobodysID is an id that names no user or tag of the demo.
const nobodysID = "01a2ffff-0000-7000-8000-000000000000"

// tagID is the id of the demo's tag named name, as the console loaded it.
func tagID(t *testing.T, h *harness, name string) string {
	t.Helper()
	for id, n := range h.root.common.Org.TagNames {
		if n == name {
			return id
		}
	}
	t.Fatalf("no %s tag", name)
	return ""
}

// A proposed policy's consensus names who may approve by tag id. Where a root
// member decides — the vote dialog and the activity detail — the id is
// named, so a policy naming the "operator" tag does not read like one naming
// "ops"; an id that is no tag or user the console knows is a warning.
func TestVoteDialogAndDetailNameTheIDsAProposedPolicyHolds(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	h := memberConsole(t, alice)
	opTag := tagID(t, h, "operator")
	act, err := d.Client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "Ops may delete deployments",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'",
		Consensus: "approvers.any(user, user.tags.contains('" + opTag + "')) || approvers.any(user, user.tags.contains('" + nobodysID + "'))"})
	if err != nil {
		t.Fatal(err)
	}
	h.key("r")
	h.key("g")
	h.selectActivityID(act.ID)
	h.key("enter")
	detail := strings.Join(strings.Fields(h.frame()), " ")
	text := approveDialogText(t, h)
	for where, out := range map[string]string{"vote dialog": text, "activity detail": detail} {
		if !strings.Contains(out, opTag+" is tag operator") {
			t.Errorf("the %s does not say the consensus's tag %s is operator:\n%s", where, opTag, out)
		}
		if !strings.Contains(out, "⚠ "+nobodysID+" is not a tag or user this console knows") {
			t.Errorf("the %s does not warn that %s names no known tag or user:\n%s", where, nobodysID, out)
		}
		if strings.Contains(out, "ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT is not") {
			t.Errorf("the %s takes a string that is no id for an unknown id:\n%s", where, out)
		}
	}
}

// The policy editor's confirm names the ids of the draft's consensus the
// same way, before the draft is sent.
func TestPolicyEditorConfirmNamesTheIDsOfTheDraft(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	opTag := tagID(t, h, "operator")
	openEditor(t, h)
	h.typeText("Ops may delete deployments")
	h.key("tab")
	h.key("tab")
	h.typeText("activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'")
	h.key("tab")
	h.typeText("approvers.any(user, user.tags.contains('" + opTag + "')) || approvers.any(user, user.tags.contains('" + nobodysID + "'))")
	h.key("ctrl+s")
	body, _ := dialogBody(t, h.frame(), `Create policy "Ops may delete deployments"?`)
	out := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(out, opTag+" is tag operator") {
		t.Errorf("the confirm does not say the consensus's tag %s is operator:\n%s", opTag, h.frame())
	}
	if !strings.Contains(out, "⚠ "+nobodysID+" is not a tag or user this console knows") {
		t.Errorf("the confirm does not warn that %s names no known tag or user:\n%s", nobodysID, h.frame())
	}
}
