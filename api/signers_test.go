package api

import (
	"strconv"
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
	if loss := KeyDeletionLoss(users, q, now, "a", []string{"ka"}); !loss.LocksOut() || loss.Problem() == "" {
		t.Errorf("deleting a's only key leaves b alone (b listed twice, ghost unknown): %+v", loss)
	}
	if loss := KeyDeletionLoss(users, q, now, "a", []string{"kb"}); loss.LocksOut() {
		t.Errorf("kb is not a key of a: deleting it as a's strands nobody: %+v", loss)
	}
}
