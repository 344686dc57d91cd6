package api

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A key stops signing at the very instant its lifetime ends, as the service
// refuses it; a lifetime too long for a time.Duration never ends.
func TestAPIKeyExpiredAtTheEndOfItsLifetime(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k := APIKey{CreatedAt: NewTime(created), ExpirationSeconds: "60"}
	if k.Expired(created.Add(59 * time.Second)) {
		t.Error("expired before its lifetime ended")
	}
	if !k.Expired(created.Add(60 * time.Second)) {
		t.Error("still signs when its lifetime ends")
	}
	k.ExpirationSeconds = strconv.FormatInt(1<<62, 10)
	if k.Expired(created.Add(100 * 365 * 24 * time.Hour)) {
		t.Error("a lifetime beyond time.Duration expired")
	}
}

// A root member missing from the users, or listed twice in the quorum, does
// not make the quorum look able to sign.
func TestKeyDeletionLossCountsEachRootMemberOnceAndMissingOnesAsUnable(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	users := []User{
		{UserID: "a", APIKeys: []APIKey{{APIKeyID: "ka", CreatedAt: NewTime(now)}}},
		{UserID: "b", APIKeys: []APIKey{{APIKeyID: "kb", CreatedAt: NewTime(now)}}},
	}
	q := Quorum{Threshold: 2, UserIDs: []string{"a", "b", "b", "ghost"}}
	if loss := KeyDeletionLoss(users, q, now, "a", []string{"ka"}, true); !loss.LocksOut() || loss.Problem() == "" {
		t.Errorf("deleting a's only key leaves b alone (b listed twice, ghost unknown): %+v", loss)
	}
	if loss := KeyDeletionLoss(users, q, now, "a", []string{"kb"}, true); loss.LocksOut() {
		t.Errorf("kb is not a key of a: deleting it as a's strands nobody: %+v", loss)
	}
}

// Once FEATURE_NAME_WEBAUTHN_ORIGINS is set the service counts no passkey as
// able to sign (it cannot show one signs at an allowed origin): the warning
// before a deletion must predict the same, so a root member whose last API
// key goes is stranded although he has a passkey, and the message says why.
func TestKeyDeletionLossCountsNoPasskeyOnceOriginsAreSet(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	users := []User{
		{UserID: "a", UserName: "alice", APIKeys: []APIKey{{APIKeyID: "ka", CreatedAt: NewTime(now)}},
			Authenticators: []Authenticator{{AuthenticatorID: "pa"}}},
		{UserID: "b", APIKeys: []APIKey{{APIKeyID: "kb", CreatedAt: NewTime(now)}}},
	}
	q := Quorum{Threshold: 2, UserIDs: []string{"a", "b"}}
	withOrigins := []Feature{{Name: FeatureWebauthnOrigins, Value: "https://console.example.com"}}

	if loss := KeyDeletionLoss(users, q, now, "a", []string{"ka"}, PasskeysSign(nil)); loss.Stranded != "" {
		t.Errorf("without origins alice's passkey still signs: %+v", loss)
	}
	loss := KeyDeletionLoss(users, q, now, "a", []string{"ka"}, PasskeysSign(withOrigins))
	if loss.Stranded != "a" || !loss.LocksOut() {
		t.Fatalf("with origins set, deleting alice's last API key strands her and locks the quorum out: %+v", loss)
	}
	if p := loss.Problem(); !strings.Contains(p, FeatureWebauthnOrigins) {
		t.Errorf("the warning does not say why her passkey does not count: %s", p)
	}
}
