package screens

import (
	"fmt"
	"slices"

	"github.com/vigil-console/vigil/api"
)

// keyDeletionWarnings are what deleting the keys ids of owner would lock
// out, for the Users screen's confirm and the vote dialog alike (a vote may
// be what runs the deletion): the console's own key, a root member's last
// credential that can sign and the root quorum itself
// (api.KeyDeletionLoss, the rule by which the service fails such a
// deletion), a root member left only with keys that expire, and an MFA
// policy of owner pinning a key deleted or left with a step no credential
// of owner meets (api.PinsLostBy). users are the
// organization's, owner among them. Each warning starts with "!!".
func keyDeletionWarnings(c *Common, users []api.User, owner api.User, ids []string) []string {
	var out []string
	for _, k := range owner.APIKeys {
		if slices.Contains(ids, k.APIKeyID) && k.HasPublicKey(c.OwnScheme, c.OwnPublicKey) {
			out = append(out, "!! "+api.Quote(k.APIKeyName)+" is the key this console signs with:",
				"   deleting it locks vigil out of this profile.")
		}
	}
	now := c.Now()
	loss := api.KeyDeletionLoss(users, c.Org.Quorum, now, owner.UserID, ids, api.PasskeysSign(c.Org.Features))
	if loss.LocksOut() {
		out = append(out, "!! "+api.NameText(owner.UserName)+" is a root quorum member and would be left",
			fmt.Sprintf("   with no credential that can sign: only %d of the %d root", loss.After, loss.Members),
			fmt.Sprintf("   members could sign (threshold %d), too few to ever complete", loss.Threshold),
			"   anything that needs the root quorum again.",
			"   The service will FAIL this deletion: keep one of these",
			"   keys, or first give a root member a new credential.")
	}
	for _, note := range []string{loss.StrandedNote(), loss.ExpiryNote(now)} {
		if note != "" {
			out = append(out, "!! "+note+".")
		}
	}
	for _, p := range api.PinsLostBy(owner.MfaPolicies, owner, ids, now) {
		out = append(out, "!! "+p.Note()+".")
	}
	return out
}

// voteKeyDeletionWarnings are keyDeletionWarnings for a vote on the
// deletion p, from the organization as the console last loaded it; none
// when it is not loaded or the owner is not among its users.
func voteKeyDeletionWarnings(c *Common, p *api.DeleteAPIKeysParams) []string {
	if !c.Org.Loaded {
		return nil
	}
	i := slices.IndexFunc(c.Org.Users, func(u api.User) bool { return u.UserID == p.UserID })
	if i < 0 {
		return nil
	}
	return keyDeletionWarnings(c, c.Org.Users, c.Org.Users[i], p.APIKeyIDs)
}

// deleteKeysIntentLines are the vote dialog's lines of a delete_api_keys,
// with what it would lock out flagged: approving may be what runs it.
func deleteKeysIntentLines(c *Common, in api.Intent, p *api.DeleteAPIKeysParams) (lines []string, warn map[int]bool) {
	lines, warn = deleteKeysLines(c, p), map[int]bool{}
	for _, w := range voteKeyDeletionWarnings(c, p) {
		warn[len(lines)] = true
		lines = append(lines, w)
	}
	return lines, warn
}
