package api

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// Expiry is when the key stops authenticating, if it has a lifetime
// (expirationSeconds counted from its creation). A lifetime too long for a
// time.Duration never ends in practice, as for the service.
func (k APIKey) Expiry() (time.Time, bool) {
	secs, err := strconv.ParseInt(k.ExpirationSeconds, 10, 64)
	if err != nil || secs <= 0 || secs >= math.MaxInt64/int64(time.Second) || k.CreatedAt.IsZero() {
		return time.Time{}, false
	}
	return k.CreatedAt.Time().Add(time.Duration(secs) * time.Second), true
}

// Expired reports whether the key no longer authenticates at now: a request
// (or a vote) it stamps is refused, so it signs nothing.
func (k APIKey) Expired(now time.Time) bool {
	exp, ok := k.Expiry()
	return ok && !now.Before(exp)
}

// CanSign reports whether u holds a credential that signs at now: an
// authenticator, or an API key that has not expired.
func (u User) CanSign(now time.Time) bool { return u.canSign(now, nil) }

// canSign is CanSign with the API keys in removed left out.
func (u User) canSign(now time.Time, removed map[string]bool) bool {
	if len(u.Authenticators) > 0 {
		return true
	}
	return slices.ContainsFunc(u.APIKeys, func(k APIKey) bool { return !removed[k.APIKeyID] && !k.Expired(now) })
}

// QuorumLoss is what deleting some of a user's API keys leaves of the root
// quorum's ability to act: how many root members can sign before and after.
type QuorumLoss struct {
	Threshold int
	Members   int
	Before    int
	After     int
	// Stranded is the owner of the keys when the deletion leaves that root
	// member with nothing that signs; empty otherwise.
	Stranded     string
	strandedName string
}

// KeyDeletionLoss works out what deleting keyIDs of userID would leave of the
// root quorum, from users (every root member must be among them: one missing
// counts as unable to sign) at now. An expired key counts as nothing: it
// cannot sign. Ids in keyIDs that are not keys of userID delete nothing.
func KeyDeletionLoss(users []User, q Quorum, now time.Time, userID string, keyIDs []string) QuorumLoss {
	removed := make(map[string]bool, len(keyIDs))
	for _, id := range keyIDs {
		removed[id] = true
	}
	loss := QuorumLoss{Threshold: q.Threshold, Members: len(q.UserIDs)}
	seen := map[string]bool{}
	for _, id := range q.UserIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		i := slices.IndexFunc(users, func(u User) bool { return u.UserID == id })
		if i < 0 || !users[i].canSign(now, nil) {
			continue
		}
		loss.Before++
		if id == userID && !users[i].canSign(now, removed) {
			loss.Stranded, loss.strandedName = id, users[i].UserName
			continue
		}
		loss.After++
	}
	return loss
}

// LocksOut reports whether the deletion takes a root member's last usable
// credential and leaves fewer root members able to sign than the threshold:
// from then on no activity that needs the root quorum can complete. A
// deletion that strands no root member never locks out (an organization
// already short stays as it was, and its expired keys may still be deleted).
func (l QuorumLoss) LocksOut() bool {
	return l.Stranded != "" && l.After < l.Threshold
}

// Problem says what the deletion would break and what to do instead; empty
// when it does not lock the quorum out.
func (l QuorumLoss) Problem() string {
	if !l.LocksOut() {
		return ""
	}
	return fmt.Sprintf("deleting these keys would leave root quorum member %s with no credential that can sign (an API key that has not expired, or an authenticator), "+
		"so only %d of the %d root members could sign, fewer than the threshold of %d, and no activity that needs the root quorum could ever complete again; "+
		"keep at least one of these keys, or first give a root member who cannot sign a new credential (an oauth activity gives a linked user a new API key)",
		NameWithID(l.strandedName, l.Stranded), l.After, l.Members, l.Threshold)
}
