package policy

import "testing"

// The unknown-id warning errs toward warning: a mistyped tag or user id is
// warned of wherever it is, in positions nobody listed (an invitation's
// tags, CEL's three-argument map, a list of literals a loop checks against
// an approver's tags); only an id provably of another kind, compared with a
// wallet's, key's, account's or credential's id or such a parameter, is
// quiet (audit 142).
func TestIDRefsWarnsOfUnknownIDsUnlessProvablyAnotherKindOfID(t *testing.T) {
	const id = "0192a6c4-0000-7000-8000-00000000beef"
	q := "'" + id + "'"
	for _, src := range []string{
		// create_invitations: the tags an invitee gets are tag ids, the
		// sender is a user id
		"activity.params.invitations.all(i, i.receiver_user_tags.contains(" + q + "))",
		"activity.params.invitations.all(i, " + q + " in i.receiverUserTags)",
		"activity.params.invitations.all(i, i.sender_user_id == " + q + ")",
		"activity.params['invitations'][0].senderUserId == " + q,
		// CEL's standard three-argument map over the approvers
		"approvers.map(a, a.tags.contains(" + q + "), a.id).count() >= 2",
		// a list literal of tags, checked against each approver's
		"approvers.any(a, [" + q + "].all(t, t in a.tags))",
		// a position no rule names
		"activity.params.tag_ids.contains(" + q + ")",
		"has(activity.params.x) && " + q + " != ''",
		// used as a wallet id once and as a tag once: the tag is mistyped
		"wallet.id == " + q + " && activity.params.user_tag_ids.contains(" + q + ")",
		// a loop variable named like a keyword is no keyword
		"approvers.any(wallet, wallet.id == " + q + ")",
		"approvers.any(credentials, credentials.id == " + q + ")",
	} {
		refs := IDRefs(src, map[string]string{}, map[string]string{})
		if len(refs) != 1 || refs[0].ID != id {
			t.Errorf("IDRefs(%s) = %v: the unknown id is not warned of", src, refs)
		}
	}
	for _, src := range []string{
		"wallets.exists(w, w.id in [" + q + "])",
		"wallet_account.address == " + q,
		"private_key.id != " + q,
		"activity.params.walletId == " + q,
		"activity.params['private_key_id'] == " + q,
		"activity.params.api_key_ids.contains(" + q + ")",
		"activity.params.policy_ids.exists(p, p == " + q + ")",
		"activity.params.transfer.leaves.all(l, l.leaf_id != " + q + ")",
		"credentials.map(c, c.id, c.id).contains(" + q + ")",
		"[" + q + "].contains(activity.params.wallet_id)",
	} {
		if refs := IDRefs(src, nil, nil); len(refs) != 0 {
			t.Errorf("IDRefs(%s) = %+v: an id that is provably no tag or user is warned of", src, refs)
		}
	}
}
