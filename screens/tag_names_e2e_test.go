package screens

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// createTagNow creates a tag named name for users (alice submits, bob
// approves: the root quorum) and returns its id.
func createTagNow(t *testing.T, d *servertest.Demo, name string, users ...string) string {
	t.Helper()
	ctx := context.Background()
	act, err := d.Client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: users})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusCompleted {
		if act, err = d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	if act.Status != api.StatusCompleted {
		t.Fatalf("create_user_tag %q: %s", name, act.Status)
	}
	return act.Result.CreateUserTagResult.UserTagID
}

// A tag whose name holds a space is taken by its name in the invitation form,
// whose label says the field is comma-separated.
func TestInvitationFormTakesATagNameWithASpace(t *testing.T) {
	d := servertest.StartDemo(t)
	id := createTagNow(t, d, "on call")
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create invitations")
	h.typeText("eve <eve@example.com>")
	h.key("tab")
	h.key("tab")
	h.typeText("on call")
	h.key("ctrl+s")
	if f, ok := h.root.dialogs.Top().(*opFormDialog); ok {
		if e := f.form.Errors()["receiverUserTags"]; e != "" {
			t.Fatalf("the tag %q (id %s), typed by its name as the field's label invites, is refused: %s", "on call", id, e)
		}
	}
}

// With tags "on" and "call" also in the organization, "on call" is sent as
// the one tag of that name, not as those two; commas still separate tags,
// with the spaces around them dropped.
func TestInvitationFormSendsTheTagNamedWithASpace(t *testing.T) {
	d := servertest.StartDemo(t)
	onCall := createTagNow(t, d, "on call")
	on := createTagNow(t, d, "on")
	createTagNow(t, d, "call")
	for _, c := range []struct {
		typed string
		want  []string
	}{
		{"on call", []string{onCall}},
		{" on call , on ", []string{onCall, on}},
	} {
		var log bytes.Buffer
		h := opsHarness(t, d, &log)
		openOperation(h, "create invitations")
		h.typeText("eve <eve@example.com>")
		h.key("tab")
		h.key("tab")
		h.typeText(c.typed)
		h.submitAndConfirm()
		var got []string
		sent := false
		for _, m := range h.msgs {
			if s, ok := m.(opSubmittedMsg); ok {
				got, sent = s.activity.Intent.CreateInvitationsIntent.Invitations[0].ReceiverUserTags, true
			}
		}
		if !sent {
			t.Fatalf("typed %q: nothing submitted:\n%s", c.typed, h.frame())
		}
		if len(got) != len(c.want) || got[0] != c.want[0] || len(got) > 1 && got[1] != c.want[1] {
			t.Errorf("typed the tags %q; sent %q, want %q", c.typed, got, c.want)
		}
	}
}

// The create-user-tag form's confirm warns that the organization already has
// a tag of the name typed, naming its id: the service allows a second one,
// which by name cannot be told from the first.
func TestCreateUserTagFormWarnsOfATagOfTheSameName(t *testing.T) {
	d := servertest.StartDemo(t)
	ops := demoTagID(t, d, "ops")
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create user tag")
	h.typeText("ops")
	h.key("ctrl+s")
	if f := h.frame(); !strings.Contains(f, "already has a user tag named") || !strings.Contains(f, ops) {
		t.Errorf("the confirm of a second tag named \"ops\" does not warn of the existing one (%s):\n%s", ops, f)
	}
	h.key("esc")
	openOperation(h, "create user tag")
	h.typeText("brand new")
	h.key("ctrl+s")
	if f := h.frame(); strings.Contains(f, "already has") {
		t.Errorf("the confirm of a new tag name warns of a tag of that name:\n%s", f)
	}
}

// Two tags of one name show with their ids on the Users screen: only one of
// them is the "ops" the demo's consensus policy counts.
func TestUsersScreenTellsTwoTagsOfOneNameApart(t *testing.T) {
	d := servertest.StartDemo(t)
	ops := demoTagID(t, d, "ops")
	decoy := createTagNow(t, d, "ops", memberID(t, d, "operator"))
	h := memberConsole(t, d.Client("alice"))
	h.openUser("operator")
	if f := h.frame(); !strings.Contains(f, "ops ("+decoy+")") || strings.Contains(f, ops) {
		t.Errorf("operator's record should show its tag as ops (%s), not bob's ops %s:\n%s", decoy, ops, f)
	}
	h = memberConsole(t, d.Client("alice"))
	h.openUser("bob")
	if f := h.frame(); !strings.Contains(f, "ops ("+ops+")") {
		t.Errorf("bob's record should show his tag as ops (%s):\n%s", ops, f)
	}
	// A name that one tag holds stays plain.
	if f := h.frame(); strings.Contains(f, "auditors (") {
		t.Errorf("a tag name only one tag holds is shown with its id:\n%s", f)
	}
}
