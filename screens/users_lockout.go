package screens

import (
	"fmt"
	"slices"

	"github.com/vigil-console/vigil/api"
)

// lockedOutAdvice is what the console says once the service refuses the key
// it signs with, whichever screen's request found it out.
const lockedOutAdvice = "this profile is locked out, every request it signs is refused; " +
	"quit and sign in again: 'vigil login oauth' saves a new key for the profile (docs/keys.md), or start the console with another profile"

// ownKeyDeleted is the console's own signing key among keyIDs of userID,
// nil when none is (or the console does not know its key).
func (u *Users) ownKeyDeleted(userID string, keyIDs []string) *api.APIKey {
	if u.c.OwnPublicKey == "" {
		return nil
	}
	i := slices.IndexFunc(u.items, func(x api.User) bool { return x.UserID == userID })
	if i < 0 {
		return nil
	}
	for _, k := range u.items[i].APIKeys {
		if slices.Contains(keyIDs, k.APIKeyID) && k.HasPublicKey(u.c.OwnScheme, u.c.OwnPublicKey) {
			return &k
		}
	}
	return nil
}

// lockOut records that a completed delete_api_keys removed the key the
// console signs with: every request it stamps is refused from now on, so it
// stops reading (each read would fail with advice that does not apply) and
// says how to sign in again. The deleted keys leave the list at once: the
// activity completed, so they are gone, and no list read sent before the
// lock-out may bring them back.
func (u *Users) lockOut(userID string, keyIDs []string, own *api.APIKey, act *api.Activity) {
	u.lockedOut = fmt.Sprintf("this console's key %s was deleted (activity %s): %s",
		api.NameWithID(own.APIKeyName, own.APIKeyID), api.SanitizeID(act.ID), lockedOutAdvice)
	u.err, u.stale = u.lockedOut, true
	u.pendingTicks++ // the open record's poll stops
	// A list read in flight may have been served before the deletion
	// committed: its reply would bring the deleted key back.
	u.gen++
	u.loading = false
	if i := slices.IndexFunc(u.items, func(x api.User) bool { return x.UserID == userID }); i >= 0 {
		u.items[i].APIKeys = slices.DeleteFunc(slices.Clone(u.items[i].APIKeys), func(k api.APIKey) bool {
			return slices.Contains(keyIDs, k.APIKeyID)
		})
	}
	u.setRows()
	if u.open != nil {
		u.reopen(u.open.UserID)
		u.sortPending()
		u.renderDetail()
	}
}
