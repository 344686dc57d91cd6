package screens

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// demoTagID is the id of the demo's completed tag named name, read from the
// service's create_user_tag activities.
func demoTagID(t *testing.T, d *servertest.Demo, name string) string {
	t.Helper()
	acts, err := d.Client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{
		Types: []string{api.TypeCreateUserTag}, Statuses: []string{api.StatusCompleted}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if a.Intent.CreateUserTagIntent.UserTagName == name {
			return a.Result.CreateUserTagResult.UserTagID
		}
	}
	t.Fatalf("the demo has no completed tag %q", name)
	return ""
}

// The invitation form checks the tags and the sender against what the
// console knows before anything is sent (the service would take any tag id,
// and fail an unknown sender only after the quorum voted); a tag typed by its
// name is sent by its id. Against the local service.
func TestEndToEndInvitationFormChecksTagsAndSender(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	submitted := func(h *harness) *api.Activity {
		for _, m := range h.msgs {
			if s, ok := m.(opSubmittedMsg); ok {
				return s.activity
			}
		}
		return nil
	}
	const noUser, noTag = "is neither the id nor the name of a user of this organization", "is neither the id nor the name of a user tag"
	for _, tc := range []struct {
		name, tags, senderSuffix string
		want                     map[string]string // field -> error
	}{
		{"sender that is no user", "", "Q", map[string]string{"senderUserId": noUser}},
		{"unknown tag", "nosuch", "", map[string]string{"receiverUserTags": `"nosuch" is neither the id nor the name of a user tag of this organization (known: "auditors" (id `}},
		{"tag id that is no tag", "01a20a2b-0000-7000-8000-000000000000", "", map[string]string{"receiverUserTags": noTag}},
		{"both at once", "nosuch", "Q", map[string]string{"receiverUserTags": noTag, "senderUserId": noUser}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := opsHarness(t, d, &log)
			openOperation(h, "create invitations")
			h.typeText("eve <eve@example.com>")
			h.key("tab")
			h.key("tab")
			h.typeText(tc.tags)
			h.key("tab")
			h.typeText(tc.senderSuffix)
			h.key("ctrl+s")
			f, ok := h.root.dialogs.Top().(*opFormDialog)
			if !ok {
				t.Fatalf("the form closed on a bad value:\n%s", h.frame())
			}
			for field, want := range tc.want {
				if got := f.form.Errors()[field]; !strings.Contains(got, want) {
					t.Errorf("%s error %q, want %q", field, got, want)
				}
			}
			if a := submitted(h); a != nil {
				t.Errorf("submitted %s although the form is wrong", a.ID)
			}
		})
	}

	t.Run("every field's problem at once", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "create invitations")
		h.typeText("eve eve@example.com") // no <…>
		h.key("tab")
		h.key("tab")
		h.typeText("nosuch")
		h.key("tab")
		h.typeText("Q")
		h.key("ctrl+s")
		f, ok := h.root.dialogs.Top().(*opFormDialog)
		if !ok {
			t.Fatalf("the form closed on bad values:\n%s", h.frame())
		}
		errs := f.form.Errors()
		for field, want := range map[string]string{"invitees": "not a list of name <e-mail>", "receiverUserTags": noTag, "senderUserId": noUser} {
			if !strings.Contains(errs[field], want) {
				t.Errorf("%s error %q, want %q (one ctrl+s shows every problem)", field, errs[field], want)
			}
		}
		if strings.Contains(h.frame(), "mail: ") {
			t.Errorf("Go's mail error reached the form:\n%s", h.frame())
		}
	})

	t.Run("a tag by name is sent by id", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "create invitations")
		h.typeText("eve <eve@example.com>")
		h.key("tab")
		h.key("tab")
		h.typeText("auditors")
		h.submitAndConfirm()
		a := submitted(h)
		if a == nil {
			t.Fatalf("nothing was submitted:\n%s", h.frame())
		}
		inv := a.Intent.CreateInvitationsIntent.Invitations[0]
		if want := demoTagID(t, d, "auditors"); len(inv.ReceiverUserTags) != 1 || inv.ReceiverUserTags[0] != want {
			t.Errorf("tags sent %q, want the id of auditors %s", inv.ReceiverUserTags, want)
		}
		if inv.SenderUserID != memberID(t, d, "alice") {
			t.Errorf("sender %q, want alice", inv.SenderUserID)
		}
	})
}
