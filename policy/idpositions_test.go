package policy

import "testing"

// An id-shaped literal that names no known tag or user is flagged where a
// tag or user id is expected; a wallet's, key's or credential's id is right
// as it is, and quiet. An expression that does not parse flags every one:
// what the literal is compared with is unknown.
func TestIDRefsFlagsUnknownIDsOnlyWhereATagOrUserIDIsExpected(t *testing.T) {
	const id = "01a22133-8b86-76f3-83c1-234ad42ced24"
	q := "'" + id + "'"
	flagged := []string{
		"approvers.any(u, u.tags.contains(" + q + "))",
		"approvers.filter(u, " + q + " in u.tags).count() >= 2",
		"approvers.any(u, u.id == " + q + ")",
		"approvers.all(u, " + q + " != u.id)",
		"approvers[0].id == " + q,
		"approvers.any(u, u.id in ['x', " + q + "])",
		"approvers.map(u, u.id).contains(" + q + ")",
		"approvers.any(u, u.tags.any(t, t == " + q + "))",
		"credentials.any(c, c.user_id == " + q + ")",
		"activity.params.user_id == " + q,
		"activity.params['user_ids'].contains(" + q + ")",
		"[" + q + "].contains(activity.params.userId)",
		"wallet.id == 'x' && approvers.any(u, u.id == " + q + ")",
		"approvers.any(u, u.id == " + q, // does not parse
	}
	quiet := []string{
		"wallet.id in [" + q + "]",
		"wallet.id == " + q,
		"credentials.any(c, c.id == " + q + ")",
		"private_key.tags.contains(" + q + ")",
		"wallets.any(w, w.id == " + q + ")",
		"activity.params.wallet_id == " + q,
		"activity.resource == " + q,
		"wallets.any(approvers, approvers.id == " + q + ")", // a wallet, named like the keyword
		"wallets.any(u, u.id == " + q + ")",
	}
	for _, src := range flagged {
		if refs := IDRefs(src, nil, nil); len(refs) != 1 || refs[0].ID != id {
			t.Errorf("%s: got %+v, want %s flagged", src, refs, id)
		}
	}
	for _, src := range quiet {
		if refs := IDRefs(src, nil, nil); len(refs) != 0 {
			t.Errorf("%s: %+v flagged where no tag or user id is expected", src, refs)
		}
	}
	// A known tag or user is named wherever it is.
	if refs := IDRefs("wallet.id == "+q, map[string]string{id: "ops"}, nil); len(refs) != 1 || refs[0].Kind != "tag" {
		t.Errorf("a tag's id compared with a wallet's is not named: %+v", refs)
	}
}
