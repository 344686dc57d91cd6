package api

import (
	"strings"
	"testing"
	"time"
)

// A root member whose lasting key goes, leaving only keys that expire, is
// said to sign until the last of them expires; and the quorum is said to go
// short from the time too few root members could sign, when the deletion
// brings that about. A deletion that takes nothing lasting says nothing.
func TestKeyDeletionLossSaysWhenARootMemberAndTheQuorumStopSigning(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	key := func(id string, secs string) APIKey {
		return APIKey{APIKeyID: id, CreatedAt: NewTime(now.Add(-time.Minute)), ExpirationSeconds: secs}
	}
	users := []User{
		{UserID: "a", UserName: "alice", APIKeys: []APIKey{key("ka", "")}},
		{UserID: "b", UserName: "bob", APIKeys: []APIKey{key("kb", "7260")}},                        // signs 2 more hours
		{UserID: "c", UserName: "carol", APIKeys: []APIKey{key("kc", ""), key("kc-oauth", "960")}},  // OAuth: 15 more minutes
		{UserID: "d", UserName: "dave", APIKeys: []APIKey{key("kd-1", "960"), key("kd-2", "3660")}}, // not root
	}
	q := Quorum{Threshold: 2, UserIDs: []string{"a", "b", "c"}}

	loss := KeyDeletionLoss(users, q, now, "c", []string{"kc"}, true)
	if want := now.Add(15 * time.Minute); !loss.Until.Equal(want) || loss.Stranded != "" || loss.LocksOut() {
		t.Errorf("deleting carol's lasting key: Until %v, want %v (stranded %q)", loss.Until, want, loss.Stranded)
	}
	// alice lasts; carol stops at 12:15 (alice and bob still 2), bob at 14:00.
	if want := now.Add(2 * time.Hour); !loss.ShortAt.Equal(want) || loss.ShortTo != 1 {
		t.Errorf("the quorum goes short at %v with %d able, want %v with 1", loss.ShortAt, loss.ShortTo, want)
	}
	if note := loss.ExpiryNote(now); !strings.Contains(note, "carol") || !strings.Contains(note, "in 15m") || !strings.Contains(note, "only 1 of the 3") {
		t.Errorf("ExpiryNote = %q", note)
	}

	if loss := KeyDeletionLoss(users, q, now, "c", []string{"kc-oauth"}, true); !loss.Until.IsZero() || loss.ExpiryNote(now) != "" {
		t.Errorf("deleting carol's OAuth key leaves her lasting key, yet: %q", loss.ExpiryNote(now))
	}
	// Deleting alice's only key strands her: said as that, not as an expiry.
	if loss := KeyDeletionLoss(users, q, now, "a", []string{"ka"}, true); loss.Stranded != "a" || !loss.Until.IsZero() {
		t.Errorf("deleting alice's only key: stranded %q, Until %v", loss.Stranded, loss.Until)
	}
	// A member not in the root quorum is no concern of the quorum's rule.
	if loss := KeyDeletionLoss(users, q, now, "d", []string{"kd-2"}, true); !loss.Until.IsZero() {
		t.Errorf("deleting a key of dave, not a root member: Until %v", loss.Until)
	}
}

// Deleting the later of a root member's two expiring keys brings their end
// sooner and is said; deleting the earlier one changes nothing.
func TestKeyDeletionLossOfExpiringKeysSaysOnlyWhatComesSooner(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	users := []User{{UserID: "a", APIKeys: []APIKey{
		{APIKeyID: "soon", CreatedAt: NewTime(now), ExpirationSeconds: "600"},
		{APIKeyID: "later", CreatedAt: NewTime(now), ExpirationSeconds: "3600"},
	}}}
	q := Quorum{Threshold: 1, UserIDs: []string{"a"}}
	if loss := KeyDeletionLoss(users, q, now, "a", []string{"later"}, true); !loss.Until.Equal(now.Add(10*time.Minute)) || !loss.ShortAt.Equal(now.Add(10*time.Minute)) {
		t.Errorf("deleting the later key: Until %v, ShortAt %v", loss.Until, loss.ShortAt)
	}
	if loss := KeyDeletionLoss(users, q, now, "a", []string{"soon"}, true); !loss.Until.IsZero() {
		t.Errorf("deleting the sooner key: Until %v", loss.Until)
	}
}

// A pin to a key deleted is lost; a step with another method that can still
// be met is not dead; a pin to a key kept, or already unmeetable, is not the
// deletion's doing.
func TestPinsLostByJudgesTheUserAsAfterTheDeletion(t *testing.T) {
	u := User{UserID: "u", APIKeys: []APIKey{
		{APIKeyID: "k1", Credential: Credential{Type: CredentialAPIKeyP256}},
		{APIKeyID: "k2", Credential: Credential{Type: CredentialAPIKeyP256}},
	}}
	pin := func(id string) AuthenticationMethod { return AuthenticationMethod{Type: AuthAPIKey, ID: id} }
	pols := []MfaPolicy{
		{MfaPolicyName: "alone", UserID: "u", RequiredAuthenticationMethods: []AuthenticationStep{{Any: []AuthenticationMethod{pin("k1")}}}},
		{MfaPolicyName: "either", UserID: "u", RequiredAuthenticationMethods: []AuthenticationStep{{Any: []AuthenticationMethod{pin("k1"), pin("k2")}}}},
		{MfaPolicyName: "kept", UserID: "u", RequiredAuthenticationMethods: []AuthenticationStep{{Any: []AuthenticationMethod{pin("k2"), pin("gone")}}}},
	}
	lost := PinsLostBy(pols, u, []string{"k1"}, time.Now())
	if len(lost) != 2 || lost[0].Policy.MfaPolicyName != "alone" || !lost[0].Dead || lost[1].Policy.MfaPolicyName != "either" || lost[1].Dead {
		t.Fatalf("PinsLostBy = %+v", lost)
	}
	if !strings.Contains(lost[0].Note(), "can never be cast") || strings.Contains(lost[1].Note(), "can never be cast") {
		t.Errorf("notes: %q / %q", lost[0].Note(), lost[1].Note())
	}
}
