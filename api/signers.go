package api

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/vigil-console/vigil/keys"
)

// Expiry is when the key stops authenticating, if it has a readable lifetime
// (expirationSeconds counted from its creation). A lifetime too long for a
// time.Duration never ends in practice, as for the service. ok is false both
// for a key without a lifetime and for one whose lifetime cannot be read:
// LifetimeProblem tells them apart.
func (k APIKey) Expiry() (time.Time, bool) {
	if k.LifetimeProblem() != "" {
		return time.Time{}, false
	}
	secs, _ := strconv.ParseInt(k.ExpirationSeconds, 10, 64)
	if secs <= 0 || secs >= math.MaxInt64/int64(time.Second) {
		return time.Time{}, false
	}
	return k.CreatedAt.Time().Add(time.Duration(secs) * time.Second), true
}

// LifetimeProblem says why k's lifetime cannot be read, or "" when it can
// (no expirationSeconds or "0": no lifetime). This service never sends such
// a key; another one might, and then nobody can tell whether the key still
// signs, so it is treated as one that does not (see SignsAt).
func (k APIKey) LifetimeProblem() string {
	if k.ExpirationSeconds == "" {
		return ""
	}
	secs, err := strconv.ParseInt(k.ExpirationSeconds, 10, 64)
	switch {
	case (err != nil && !errors.Is(err, strconv.ErrRange)) || secs < 0:
		return "expirationSeconds " + Quote(k.ExpirationSeconds) + " is not a number of seconds"
	case err != nil:
		return "" // too long to ever end, as a lifetime beyond time.Duration
	case secs > 0 && k.CreatedAt.IsZero():
		return "no createdAt to count its lifetime of " + k.ExpirationSeconds + "s from"
	}
	return ""
}

// Expired reports whether the key no longer authenticates at now: a request
// (or a vote) it stamps is refused, so it signs nothing.
func (k APIKey) Expired(now time.Time) bool {
	exp, ok := k.Expiry()
	return ok && !now.Before(exp)
}

// ExpiredAPIKeys maps each API key of the users that has expired at now, by
// id, to when it expired: a request it stamps is refused, so it casts no
// vote, and an MFA method pinned to it can never be met.
func ExpiredAPIKeys(now time.Time, users ...User) map[string]time.Time {
	out := map[string]time.Time{}
	for _, u := range users {
		for _, k := range u.APIKeys {
			if at, ok := k.Expiry(); ok && !now.Before(at) {
				out[k.APIKeyID] = at
			}
		}
	}
	return out
}

// SignsAt reports whether the key can be counted on to sign at now: it has
// not expired, and its lifetime can be read. Safety fails closed: a key of
// unknown lifetime may already have expired.
func (k APIKey) SignsAt(now time.Time) bool {
	return k.LifetimeProblem() == "" && !k.Expired(now)
}

// HasPublicKey reports whether k is the API key of publicKey (hex, in any
// case) signing with scheme: the one a console or profile signs with when
// they are its stamper's. Deleting that key locks the profile out. The
// curve is part of a key (keys.CurveOfCredentialType): one user may hold
// the same bytes as a P-256 and a secp256k1 key, and only the one of the
// scheme's curve signs; an empty scheme (a stamper that does not say)
// matches the bytes on any curve. The key may be listed uncompressed where
// the stamper holds it compressed (keys.SamePublicKey): a missed match would
// silence the lock-out warning. An empty publicKey matches nothing.
func (k APIKey) HasPublicKey(scheme, publicKey string) bool {
	if !keys.SamePublicKey(k.Credential.Type, k.Credential.PublicKey, publicKey) {
		return false
	}
	return scheme == "" || keys.CurveOfCredentialType(k.Credential.Type) == keys.CurveOfCredentialType(keys.CredentialTypeOfScheme(scheme))
}

// CanSign reports whether u holds a credential that signs at now: an
// authenticator, or an API key that has not expired and whose lifetime can
// be read.
func (u User) CanSign(now time.Time) bool { return u.canSign(now, nil) }

// canSign is CanSign with the API keys in removed left out.
func (u User) canSign(now time.Time, removed map[string]bool) bool {
	if len(u.Authenticators) > 0 {
		return true
	}
	return slices.ContainsFunc(u.APIKeys, func(k APIKey) bool { return !removed[k.APIKeyID] && k.SignsAt(now) })
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
	// Until is when the owner, a root member who still signs after the
	// deletion, signs no more, as only keys that expire are left to them,
	// sooner than before the deletion; zero otherwise. ShortAt is when too
	// few root members could then sign, ShortTo of them; zero when the
	// deletion does not bring that about (or sooner).
	Until            time.Time
	ShortAt          time.Time
	ShortTo          int
	owner, ownerName string
	// passkeysUncounted is set when no passkey counted (PasskeysSign false).
	passkeysUncounted bool
}

// KeyDeletionLoss works out what deleting keyIDs of userID would leave of the
// root quorum, from users (every root member must be among them: one missing
// counts as unable to sign) at now. An expired key counts as nothing: it
// cannot sign; nor does one whose lifetime cannot be read (it may have
// expired: the warning fails closed). Nor does a passkey unless passkeysSign
// (PasskeysSign of the organization's features), the service's rule. Ids in
// keyIDs that are not keys of userID delete nothing.
func KeyDeletionLoss(users []User, q Quorum, now time.Time, userID string, keyIDs []string, passkeysSign bool) QuorumLoss {
	removed := make(map[string]bool, len(keyIDs))
	for _, id := range keyIDs {
		removed[id] = true
	}
	loss := QuorumLoss{Threshold: q.Threshold, Members: len(q.UserIDs), passkeysUncounted: !passkeysSign}
	seen := map[string]bool{}
	var members []User // the root members found, as the rule counts them
	for _, id := range q.UserIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		i := slices.IndexFunc(users, func(u User) bool { return u.UserID == id })
		if i < 0 {
			continue
		}
		u := users[i]
		if !passkeysSign {
			u.Authenticators = nil
		}
		if !u.canSign(now, nil) {
			continue
		}
		members = append(members, u)
		loss.Before++
		if id == userID && !u.canSign(now, removed) {
			loss.Stranded, loss.strandedName = id, u.UserName
			continue
		}
		loss.After++
	}
	loss.expiryLoss(members, now, userID, removed)
	return loss
}

// PasskeysSign reports whether an organization with features counts a
// passkey as able to sign: not once FEATURE_NAME_WEBAUTHN_ORIGINS is set, to
// any value, as the service does not record the origin a passkey was
// registered at and so cannot show that any passkey may still sign.
func PasskeysSign(features []Feature) bool {
	return !slices.ContainsFunc(features, func(f Feature) bool { return f.Name == FeatureWebauthnOrigins })
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
	signs := "an authenticator, or an API key"
	if l.passkeysUncounted {
		signs = "no authenticator counts while " + FeatureWebauthnOrigins + " is set, as the service cannot show a passkey signs at an allowed origin; an API key"
	}
	return fmt.Sprintf("deleting these keys would leave root quorum member %s with no credential that can sign (%s that has not expired and whose lifetime can be read: "+
		"one whose lifetime cannot be read is counted as unable, as it may have expired), "+
		"so only %d of the %d root members could sign, fewer than the threshold of %d, and no activity that needs the root quorum could ever complete again; "+
		"keep at least one of these keys, or first give a root member who cannot sign a new credential (an oauth activity gives a linked user a new API key)",
		NameWithID(l.strandedName, l.Stranded), signs, l.After, l.Members, l.Threshold)
}
