package api

import (
	"fmt"
	"slices"
	"time"
)

// The warnings shared by every client before a deletion of API keys (the
// console's confirm and vote dialog, 'vigil apikey delete' and 'vigil
// activity approve'): one rule, so no client stays silent where another warns.

// signsUntil is when u, without the keys in removed, stops being able to sign:
// lasting when a credential never expires (an authenticator, or a key with no
// lifetime); else the latest expiry of the keys that still sign at now (zero
// when none does).
func (u User) signsUntil(now time.Time, removed map[string]bool) (until time.Time, lasting bool) {
	if len(u.Authenticators) > 0 {
		return time.Time{}, true
	}
	for _, k := range u.APIKeys {
		if removed[k.APIKeyID] || !k.SignsAt(now) {
			continue
		}
		exp, ok := k.Expiry()
		if !ok {
			return time.Time{}, true
		}
		if exp.After(until) {
			until = exp
		}
	}
	return until, false
}

// expiryLoss fills l's Until, ShortAt and ShortTo for a deletion of removed
// keys of userID that leaves that root member signing only until their last
// key expires, sooner than before (api.KeyDeletionLoss calls it).
func (l *QuorumLoss) expiryLoss(members []User, now time.Time, userID string, removed map[string]bool) {
	if l.Stranded != "" {
		return
	}
	i := slices.IndexFunc(members, func(u User) bool { return u.UserID == userID })
	if i < 0 {
		return
	}
	before, lastedBefore := members[i].signsUntil(now, nil)
	after, lasts := members[i].signsUntil(now, removed)
	if lasts || after.IsZero() || (!lastedBefore && !after.Before(before)) {
		return
	}
	l.Until, l.owner, l.ownerName = after, userID, members[i].UserName
	// When the root members able to sign drop below the threshold as their
	// keys expire: said only when the deletion brings that about, or sooner.
	short, to := shortAt(members, now, i, removed, l.Threshold)
	if was, _ := shortAt(members, now, -1, nil, l.Threshold); !short.IsZero() && (was.IsZero() || short.Before(was)) {
		l.ShortAt, l.ShortTo = short, to
	}
}

// shortAt is when fewer than threshold of members could sign as their keys
// expire, the keys removed of members[i] left out, and how many could then;
// zero when never, or when too few can sign already.
func shortAt(members []User, now time.Time, i int, removed map[string]bool, threshold int) (time.Time, int) {
	var ends []time.Time
	lasting := 0
	for j, u := range members {
		var rm map[string]bool
		if j == i {
			rm = removed
		}
		switch t, ok := u.signsUntil(now, rm); {
		case ok:
			lasting++
		case !t.IsZero():
			ends = append(ends, t)
		}
	}
	if lasting+len(ends) < threshold {
		return time.Time{}, 0
	}
	slices.SortFunc(ends, func(a, b time.Time) int { return a.Compare(b) })
	for k, t := range ends {
		if left := lasting + len(ends) - k - 1; left < threshold {
			// Keys that expire at the same instant go together.
			for k+1 < len(ends) && ends[k+1].Equal(t) {
				k++
				left--
			}
			return t, left
		}
	}
	return time.Time{}, 0
}

// StrandedNote says the deletion leaves a root member with nothing that
// signs, when the quorum can still act without them; "" otherwise (or when
// Problem says more).
func (l QuorumLoss) StrandedNote() string {
	if l.Stranded == "" || l.LocksOut() {
		return ""
	}
	return fmt.Sprintf("root quorum member %s would be left with no credential that can sign: no vote", NameWithID(l.strandedName, l.Stranded))
}

// ExpiryNote says the deletion leaves a root member only keys that expire,
// at when, and from what time the root quorum could then no longer act; ""
// when it does not. now is the clock the times are counted from.
func (l QuorumLoss) ExpiryNote(now time.Time) string {
	if l.Until.IsZero() {
		return ""
	}
	s := fmt.Sprintf("root quorum member %s would be left only with keys that expire at %s", NameWithID(l.ownerName, l.owner), whenText(l.Until, now))
	if !l.ShortAt.IsZero() {
		s += fmt.Sprintf("; from %s only %d of the %d root members could sign (threshold %d): nothing that needs the root quorum could complete",
			whenText(l.ShortAt, now), l.ShortTo, l.Members, l.Threshold)
	}
	return s
}

// whenText is a time and how far off it is: "15:04 UTC (in 15m)".
func whenText(t, now time.Time) string {
	layout := "15:04 MST"
	if t.Sub(now) >= 20*time.Hour {
		layout = "2006-01-02 15:04 MST"
	}
	return fmt.Sprintf("%s (in %s)", t.Local().Format(layout), roughDuration(t.Sub(now)))
}

// roughDuration is d to the minute ("15m", "2h5m"), or to the second under
// a minute ("40s").
func roughDuration(d time.Duration) string {
	if d < time.Minute {
		return max(d, 0).Round(time.Second).String()
	}
	m := int(d.Round(time.Minute) / time.Minute)
	switch {
	case m < 60:
		return fmt.Sprintf("%dm", m)
	case m%60 == 0:
		return fmt.Sprintf("%dh", m/60)
	}
	return fmt.Sprintf("%dh%dm", m/60, m%60)
}
