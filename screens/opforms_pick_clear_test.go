package screens

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// In the form's user picker, ctrl+x says "clear (none)"; after it (or after
// unticking the only tick) enter leaves no user ticked. The picker was
// opened by a typed letter, so its filter is never empty: "nothing ticked
// and a filter typed means the user under the cursor" must not tick a user
// the operator just cleared.
func TestUserPickerUntickOrClearThenEnterPicksNoOne(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create user tag")
	h.typeText("oncall")
	h.key("tab")
	h.typeText("bob")
	h.key("space") // tick bob
	h.key("space") // changed my mind: untick bob
	h.key("enter")
	f := &h.root.dialogs.Top().(*opFormDialog).form
	if got := f.Values()["userIds"]; got != "" {
		t.Errorf("untick then enter: userIds = %q, want none:\n%s", got, h.frame())
	}
	h.typeText("bob")
	h.key("space")
	h.key("ctrl+x") // help: "clear (none)"
	if fr := h.frame(); !strings.Contains(fr, "none") {
		t.Logf("frame:\n%s", fr)
	}
	h.key("enter")
	if got := f.Values()["userIds"]; got != "" {
		t.Errorf("ctrl+x (clear (none)) then enter: userIds = %q, want none:\n%s", got, h.frame())
	}
}
