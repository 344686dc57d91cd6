package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/vigil-console/vigil/api"
)

// warnKeyDeletion tells, on standard error before asking or submitting, what
// deleting ids of owner would lock out, by the rules the console's confirm
// and vote dialog use: the profile's own key, a root member left with no
// credential that can sign or only with keys that expire, a root quorum
// left too small (the service fails that), and an MFA policy pinning a key
// deleted. It only warns: the service decides on the state when the
// deletion executes. users are the organization's, read exact.
func warnKeyDeletion(ctx context.Context, c proc, client *api.Client, profile string, users []api.User, owner string, ids []string) error {
	warnOwnKey(c, profile, stamperScheme(client.Stamper()), stamperPublicKey(client.Stamper()), users, ids)
	if err := warnQuorumLockout(ctx, c, client, users, owner, ids); err != nil {
		return err
	}
	warnLostPins(ctx, c, client, users, owner, ids)
	return nil
}

// warnOwnKey tells that a key among ids is the one profile signs with
// (scheme and publicKey, its stamper's), as the console's confirm does: once deleted,
// every request the profile stamps is refused.
func warnOwnKey(c proc, profile, scheme, publicKey string, users []api.User, ids []string) {
	for _, u := range users {
		for _, k := range u.APIKeys {
			if slices.Contains(ids, k.APIKeyID) && k.HasPublicKey(scheme, publicKey) {
				fmt.Fprintf(c.stderr, "warning: API key %s (%s) is the key profile %s signs with: deleting it locks vigil out of this profile "+
					"(every request it stamps is refused from then on); keep it, or give the profile another key first\n",
					api.Quote(k.APIKeyName), api.SanitizeID(k.APIKeyID), api.Quote(profile))
			}
		}
	}
}

// warnQuorumLockout tells what the deletion leaves of the root quorum
// (api.KeyDeletionLoss, the service's rule): too few members able to sign
// (the service fails the deletion), a member with no vote, or a member, and
// perhaps the quorum, that signs only until some keys expire.
func warnQuorumLockout(ctx context.Context, c proc, client *api.Client, users []api.User, owner string, ids []string) error {
	cfg, err := client.GetOrganizationConfigs(ctx)
	if err != nil {
		return fmt.Errorf("read the root quorum to check the deletion leaves it able to sign: %w", err)
	}
	now := client.ServiceNow()
	loss := api.KeyDeletionLoss(users, cfg.Quorum, now, owner, ids, api.PasskeysSign(cfg.Features))
	if problem := loss.Problem(); problem != "" {
		fmt.Fprintf(c.stderr, "warning: the service will FAIL this deletion: %s\n", problem)
	}
	for _, note := range []string{loss.StrandedNote(), loss.ExpiryNote(now)} {
		if note != "" {
			fmt.Fprintf(c.stderr, "warning: %s\n", note)
		}
	}
	return nil
}

// warnLostPins tells of each MFA policy of owner that pins a key deleted,
// or has a step none of whose methods the owner could meet afterwards
// (api.PinsLostBy, at the service's time). A policy that cannot be read is
// said, not guessed.
func warnLostPins(ctx context.Context, c proc, client *api.Client, users []api.User, owner string, ids []string) {
	i := slices.IndexFunc(users, func(u api.User) bool { return u.UserID == owner })
	if i < 0 {
		return
	}
	pols, err := client.GetMfaPolicies(ctx, owner)
	if err != nil {
		fmt.Fprintf(c.stderr, "vigil: the MFA policies of %s could not be read, so whether one pins these keys is not known: %s\n",
			api.NameWithID(users[i].UserName, owner), api.Sanitize(err.Error()))
		return
	}
	for _, p := range api.PinsLostBy(pols, users[i], ids, client.ServiceNow()) {
		fmt.Fprintf(c.stderr, "warning: %s\n", p.Note())
	}
}

// warnApprovedKeyDeletion is warnKeyDeletion for an approval of the
// deletion p, whose vote may be the one that runs it. What cannot be read
// is said: the approval itself is not held back for it.
func warnApprovedKeyDeletion(ctx context.Context, c proc, client *api.Client, profile string, p *api.DeleteAPIKeysParams) {
	users, err := exactUsers(ctx, client)
	if err == nil {
		err = warnKeyDeletion(ctx, c, client, profile, users, p.UserID, p.APIKeyIDs)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "vigil: whether this deletion locks a member or the root quorum out could not be checked: %s\n", api.Sanitize(err.Error()))
	}
}
