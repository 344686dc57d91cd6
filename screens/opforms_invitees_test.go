package screens

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The invitations form takes as many invitees as the service accepts in one
// activity, and the service creates every one of them.
func TestInvitationFormTakesAsManyInviteesAsTheService(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create invitations")
	var parts []string
	for i := range api.MaxListItems {
		parts = append(parts, fmt.Sprintf("Alexandra Johnson-%02d <alexandra.johnson%02d@example-corp.com>", i, i))
	}
	list := strings.Join(parts, ", ")
	h.send(tea.PasteMsg{Content: list})
	f := h.root.dialogs.Top().(*opFormDialog)
	if got := f.form.Values()["invitees"]; got != list {
		t.Fatalf("the field kept %d of the %d characters of %d invitations", len([]rune(got)), len([]rune(list)), api.MaxListItems)
	}
	h.key("ctrl+s")
	// The confirm lists every invitation and takes y only once read to the end.
	for i := 0; i < 2000; i++ {
		cd, ok := h.root.dialogs.Top().(*ConfirmDialog)
		if !ok {
			t.Fatalf("ctrl+s asked for no confirm:\n%s", h.frame())
		}
		if lines, _ := cd.confirm.Unread(cd.width, cd.height); lines == 0 {
			break
		}
		h.key("down")
	}
	h.key("y")
	a := followed(t, h, d)
	if a.Status != api.StatusCompleted || a.Result.CreateInvitationsResult == nil || len(a.Result.CreateInvitationsResult.InvitationIDs) != api.MaxListItems {
		t.Fatalf("the service did not create %d invitations: %+v", api.MaxListItems, a)
	}
}

// The longest list the service accepts fits too: every name and e-mail at
// the service's maximum length.
func TestInvitationFormFitsTheLongestListTheServiceAccepts(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create invitations")
	var parts []string
	p := api.CreateInvitationsParams{}
	for i := range api.MaxListItems {
		name := fmt.Sprintf("%03d", i) + strings.Repeat("n", api.MaxNameLength-3)
		domain := "@example.com"
		email := fmt.Sprintf("%03d", i) + strings.Repeat("e", api.MaxEmailLength-3-len(domain)) + domain
		parts = append(parts, fmt.Sprintf("%q <%s>", name, email))
		p.Invitations = append(p.Invitations, api.Invitation{ReceiverUserName: name, ReceiverUserEmail: email,
			AccessType: "ACCESS_TYPE_API", SenderUserID: "x", ReceiverUserTags: []string{}})
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("the service would refuse the list: %v", err)
	}
	list := strings.Join(parts, ", ")
	h.send(tea.PasteMsg{Content: list})
	h.key("ctrl+s")
	f, ok := h.root.dialogs.Top().(*opFormDialog)
	if ok {
		if got := f.form.Values()["invitees"]; got != list {
			t.Errorf("the field kept %d of %d characters", len([]rune(got)), len([]rune(list)))
		}
		if e := f.form.Errors()["invitees"]; e != "" {
			t.Errorf("the longest list the service accepts gives: %q", e)
		}
	}
}

// A paste longer than any list the service accepts is cut, and the form says
// how many whole invitees it kept and what to do with the rest.
func TestInvitationFormCutSaysHowManyInviteesWereKept(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create invitations")
	var parts []string
	for i := range 3 * api.MaxListItems {
		parts = append(parts, fmt.Sprintf("%q <%s>", fmt.Sprintf("person %04d ", i)+strings.Repeat("x", 200), fmt.Sprintf("p%04d@example.com", i)))
	}
	h.send(tea.PasteMsg{Content: strings.Join(parts, ", ")})
	h.key("ctrl+s")
	f := h.root.dialogs.Top().(*opFormDialog)
	kept := f.form.Values()["invitees"]
	whole := strings.Count(kept, ">")
	e := f.form.Errors()["invitees"]
	for _, want := range []string{fmt.Sprintf("%d whole invitees", whole), fmt.Sprintf("at most %d", api.MaxListItems), "second form"} {
		if !strings.Contains(e, want) {
			t.Errorf("the cut message %q does not say %q", e, want)
		}
	}
}
