package api

import (
	"strings"
	"testing"
	"time"
)

// A key whose lifetime cannot be read (expirationSeconds not a number of
// seconds, negative, or a lifetime with no createdAt to count from) may have
// expired already: it is not counted as a credential that signs, so the
// quorum-lockout warnings fail closed, and it is said to be unreadable rather
// than to never expire.
func TestUnreadableKeyLifetimeCountsAsUnableToSign(t *testing.T) {
	now := time.Now()
	created := Time{Seconds: "1"} // 1970: anything with a lifetime is long expired
	for _, k := range []APIKey{
		{APIKeyID: "k1", ExpirationSeconds: "abc", CreatedAt: created},
		{APIKeyID: "k2", ExpirationSeconds: "-900", CreatedAt: created},
		{APIKeyID: "k3", ExpirationSeconds: "900"}, // createdAt absent
	} {
		u := User{UserID: "u", APIKeys: []APIKey{k}}
		if u.CanSign(now) {
			t.Errorf("key %s (expirationSeconds %q, createdAt %+v): counted as a credential that can sign", k.APIKeyID, k.ExpirationSeconds, k.CreatedAt)
		}
		if k.LifetimeProblem() == "" {
			t.Errorf("key %s (expirationSeconds %q, createdAt %+v): its lifetime is said to be readable", k.APIKeyID, k.ExpirationSeconds, k.CreatedAt)
		}
		q := Quorum{Threshold: 1, UserIDs: []string{"u"}}
		other := User{UserID: "u", APIKeys: []APIKey{k, {APIKeyID: "good", CreatedAt: NewTime(now)}}}
		loss := KeyDeletionLoss([]User{other}, q, now, "u", []string{"good"}, true)
		if !loss.LocksOut() || !strings.Contains(loss.Problem(), "cannot be read") {
			t.Errorf("deleting the only readable key next to %s: not warned as a lockout that counts the unreadable key as unable: %+v %q", k.APIKeyID, loss, loss.Problem())
		}
	}
	// Keys whose lifetime is readable keep signing: none, "0", a real one.
	for _, k := range []APIKey{
		{APIKeyID: "never"},
		{APIKeyID: "zero", ExpirationSeconds: "0"},
		{APIKeyID: "huge", ExpirationSeconds: "99999999999999999999"},
		{APIKeyID: "hour", ExpirationSeconds: "3600", CreatedAt: NewTime(now)},
	} {
		if k.LifetimeProblem() != "" || !(User{APIKeys: []APIKey{k}}).CanSign(now) {
			t.Errorf("key %s (expirationSeconds %q): %q, want a readable lifetime that signs now", k.APIKeyID, k.ExpirationSeconds, k.LifetimeProblem())
		}
	}
}
