package api

import (
	"strings"
	"testing"
)

// Invitees' addresses are compared one way everywhere: a --per-invitee
// setting reaches exactly the invitations that the repeat check would call
// the same address. "ſam@…" (U+017F, which Unicode folds to s) is another
// mailbox: its invitation is not refused as a repeat, so a setting for
// "sam@…" must not reach it (audit 228: EqualFold gave both ACCESS_TYPE_ALL).
func TestInviteeAddressesAreComparedOneWay(t *testing.T) {
	invitation := func(name, email string) Invitation {
		return Invitation{ReceiverUserName: name, ReceiverUserEmail: email, ReceiverUserTags: []string{}, AccessType: AccessTypeAPI, SenderUserID: "u1"}
	}
	invs := []Invitation{invitation("sam", "sam@corp.example"), invitation("sam2", "\u017fam@corp.example")}
	p := CreateInvitationsParams{Invitations: invs}
	if err := p.Validate(); err != nil {
		t.Fatalf("two mailboxes refused as one: %v", err)
	}
	if unknown := ApplyInviteeEntries(invs, []InviteeEntry{{Email: "sam@corp.example", Access: AccessTypeAll}}); len(unknown) != 0 {
		t.Fatalf("the setting's address reached no invitation: %v", unknown)
	}
	if invs[0].AccessType != AccessTypeAll || invs[1].AccessType != AccessTypeAPI {
		t.Errorf("one setting for sam@ gave access %s and %s; want only the first changed", invs[0].AccessType, invs[1].AccessType)
	}

	// ASCII case is ignored alike by both: the repeat is refused, and a
	// setting in another case reaches the invitation.
	same := CreateInvitationsParams{Invitations: []Invitation{invitation("sam", "sam@corp.example"), invitation("Sam", "SAM@corp.example")}}
	if err := same.Validate(); err == nil || !strings.Contains(err.Error(), "again") {
		t.Errorf("one address in two ASCII cases: %v; want it refused as given twice", err)
	}
	one := []Invitation{invitation("sam", "sam@corp.example")}
	if unknown := ApplyInviteeEntries(one, []InviteeEntry{{Email: "SAM@Corp.Example", Access: AccessTypeAll}}); len(unknown) != 0 || one[0].AccessType != AccessTypeAll {
		t.Errorf("a setting in another ASCII case did not reach its invitation (unknown %v, access %s)", unknown, one[0].AccessType)
	}
	if entries := ReadInviteeEntries("sam@corp.example: access=all; SAM@corp.example: access=web"); len(entries) != 2 || len(entries[1].Problems) == 0 {
		t.Errorf("one address in two entries (ASCII case apart) was not flagged: %+v", entries)
	}
}
