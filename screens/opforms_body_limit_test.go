package screens

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// 100 invitees each given all of 100 long tag ids: every field is within
// its limit, but the request would be over the 1 MiB the service reads. The
// form says so under the tags, with the limit, and sends nothing.
func TestInvitationFormRefusesARequestOverTheBodyLimit(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	var tags []string
	for i := range api.MaxListItems {
		id := fmt.Sprintf("%03d-%s", i, strings.Repeat("t", 246))
		h.root.common.Org.TagNames[id] = "tag " + strconv.Itoa(i) // as if read from the service
		tags = append(tags, id)
	}
	openOperation(h, "create invitations")
	var invitees []string
	for i := range api.MaxListItems {
		invitees = append(invitees, fmt.Sprintf("user%02d <user%02d@example.com>", i, i))
	}
	h.send(tea.PasteMsg{Content: strings.Join(invitees, ", ")})
	h.key("tab")
	h.key("tab")
	h.send(tea.PasteMsg{Content: strings.Join(tags, ", ")})
	h.key("ctrl+s")
	f, ok := h.root.dialogs.Top().(*opFormDialog)
	if !ok {
		t.Fatalf("a request over the body limit left the form:\n%s", h.frame())
	}
	if got := f.form.Values()["receiverUserTags"]; got != strings.Join(tags, ", ") {
		t.Fatalf("the tags field kept %d of %d characters", len(got), len(strings.Join(tags, ", ")))
	}
	frame := h.frame()
	if !strings.Contains(frame, strconv.Itoa(api.MaxRequestBodyBytes)) {
		t.Errorf("the form does not say the limit (%d bytes):\n%s", api.MaxRequestBodyBytes, frame)
	}
	if acts, _ := d.Client("alice").ListActivities(t.Context(), api.ListActivitiesOptions{}); len(acts) != 0 && acts[0].Type == api.TypeCreateInvitations {
		t.Errorf("the invitations were sent")
	}
}
