package screens

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// fillInvitationForm types the invitees, the tags every invitee gets and the
// per invitee entries into the invitation form, leaving the access type and
// the sender at their defaults.
func fillInvitationForm(h *harness, invitees, tags, perInvitee string) {
	openOperation(h, "create invitations")
	h.typeText(invitees)
	h.key("tab") // access type
	h.key("tab")
	h.typeText(tags)
	h.key("tab") // sender
	h.key("tab")
	h.typeText(perInvitee)
}

// Each invitee may have its own access type, tags and sender, as SPEC.md's
// create_invitations takes them per invitation: one activity carries each
// invitation as its entry set it, the others keeping the form's, and the
// confirm shows each one's own before anything is sent.
func TestEndToEndInvitationFormSendsEachInviteesOwnSettings(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	fillInvitationForm(h, "dave <dave@example.com>, erin <erin@example.com>, frank <frank@example.com>", "auditors",
		"erin@example.com: access=api, tags=ops, sender=bob; frank@example.com: tags=")
	h.key("ctrl+s")
	if _, ok := h.root.dialogs.Top().(*ConfirmDialog); !ok {
		t.Fatalf("ctrl+s asked for no confirm:\n%s", h.frame())
	}
	out := h.frame()
	erin := out[strings.Index(out, "erin@example.com"):strings.Index(out, "frank@example.com")]
	dave := out[strings.Index(out, "dave@example.com"):strings.Index(out, "erin@example.com")]
	if !strings.Contains(dave, "auditors") || strings.Contains(dave, "ops") || !strings.Contains(dave, "alice") {
		t.Errorf("the confirm does not show dave's invitation with the form's tags and sender:\n%s", out)
	}
	if !strings.Contains(erin, "ops") || strings.Contains(erin, "auditors") || !strings.Contains(erin, "API") || !strings.Contains(erin, "bob") {
		t.Errorf("the confirm does not show erin's own access, tags and sender:\n%s", out)
	}
	h.key("y")
	a := followed(t, h, d)
	invs := a.Intent.CreateInvitationsIntent.Invitations
	if len(invs) != 3 {
		t.Fatalf("%d invitations sent, want 3 in one activity", len(invs))
	}
	auditors, ops := demoTagID(t, d, "auditors"), demoTagID(t, d, "ops")
	if inv := invs[0]; inv.ReceiverUserEmail != "dave@example.com" || !slices.Equal(inv.ReceiverUserTags, []string{auditors}) ||
		inv.AccessType != api.AccessTypes()[0] || inv.SenderUserID != memberID(t, d, "alice") {
		t.Errorf("dave's invitation does not keep the form's settings: %+v", inv)
	}
	if inv := invs[1]; inv.ReceiverUserEmail != "erin@example.com" || !slices.Equal(inv.ReceiverUserTags, []string{ops}) ||
		inv.AccessType != api.AccessTypeAPI || inv.SenderUserID != memberID(t, d, "bob") {
		t.Errorf("erin's invitation does not carry her own settings: %+v", inv)
	}
	if inv := invs[2]; inv.ReceiverUserEmail != "frank@example.com" || inv.ReceiverUserTags == nil || len(inv.ReceiverUserTags) != 0 {
		t.Errorf("frank's invitation, given tags=, does not carry an empty tag list: %+v", inv)
	}
}

// A per invitee entry that cannot be sent as typed is refused on the form,
// naming the entry's e-mail, and nothing is sent.
func TestInvitationFormRefusesABadPerInviteeEntryNamingIt(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	for _, tc := range []struct {
		name, perInvitee string
		want             []string
	}{
		{"an e-mail not invited", "erin@example.com: tags=ops; frank@example.com: access=api",
			[]string{`"frank@example.com" is not among the invitees`}},
		{"an unknown tag", "dave@example.com: tags=ops; erin@example.com: tags=ops, nosuch",
			[]string{`"erin@example.com": "nosuch" is neither the id nor the name of a user tag`}},
		{"an unknown access type", "erin@example.com: access=root",
			[]string{`"erin@example.com": access "root" is not web, api or all`}},
		{"a setting that is none", "erin@example.com: role=admin",
			[]string{`"erin@example.com": "role=admin" is not access=…, tags=… or sender=…`}},
		{"no e-mail", "tags=ops", []string{`has no "EMAIL:"`}},
		{"one e-mail twice", "erin@example.com: tags=ops; ERIN@example.com: access=api", []string{`"ERIN@example.com": given twice`}},
		{"every bad entry at once", "dave@example.com: sender=nobody; erin@example.com: tags=nosuch",
			[]string{`"dave@example.com": "nobody" is neither the id nor the name of a user`, `"erin@example.com": "nosuch" is neither`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := opsHarness(t, d, &log)
			fillInvitationForm(h, "dave <dave@example.com>, erin <erin@example.com>", "", tc.perInvitee)
			h.key("ctrl+s")
			f, ok := h.root.dialogs.Top().(*opFormDialog)
			if !ok {
				t.Fatalf("the form did not stay open on a bad entry:\n%s", h.frame())
			}
			got := f.form.Errors()[perInviteeKey]
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("per invitee error %q, want %q", got, want)
				}
			}
			for _, m := range h.msgs {
				if s, ok := m.(opSubmittedMsg); ok {
					t.Errorf("submitted %+v although an entry is wrong", s.activity)
				}
			}
		})
	}
}

// Entries pasted one a line become the field's one line, each its own entry:
// joined by spaces, the second e-mail would read as one of the first's tags.
func TestInvitationFormPerInviteePasteKeepsEachLineAnEntry(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	fillInvitationForm(h, "dave <dave@example.com>, erin <erin@example.com>", "", "")
	h.send(tea.PasteMsg{Content: "erin@example.com: tags=ops\r\ndave@example.com: access=api;\n"})
	h.submitAndConfirm()
	invs := followed(t, h, d).Intent.CreateInvitationsIntent.Invitations
	if len(invs) != 2 || invs[0].AccessType != api.AccessTypeAPI || !slices.Equal(invs[1].ReceiverUserTags, []string{demoTagID(t, d, "ops")}) {
		t.Errorf("the pasted entries were not each applied: %+v", invs)
	}
}
