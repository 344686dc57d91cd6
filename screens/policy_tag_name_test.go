package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// A draft whose consensus names the demo's real "operator" tag by its name,
// where user.tags holds ids, never matches: the editor's confirm warns,
// naming the id to write (audit 212, F2).
func TestPolicyEditorConfirmWarnsOfATagNameWhereItsIDIsExpected(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	opTag := tagID(t, h, "operator")
	openEditor(t, h)
	h.typeText("Ops may delete deployments")
	h.key("tab")
	h.key("tab")
	h.typeText("activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'")
	h.key("tab")
	h.typeText("approvers.any(user, user.tags.contains('operator'))")
	h.key("ctrl+s")
	body, _ := dialogBody(t, h.frame(), `Create policy "Ops may delete deployments"?`)
	out := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if want := `⚠ "operator" is the NAME of tag ` + opTag; !strings.Contains(out, want) {
		t.Errorf("the confirm does not warn that 'operator' is the tag's name (want %q):\n%s", want, h.frame())
	}
	if want := "write '" + opTag + "'"; !strings.Contains(out, want) {
		t.Errorf("the confirm does not name the id to write (want %q):\n%s", want, h.frame())
	}
}
