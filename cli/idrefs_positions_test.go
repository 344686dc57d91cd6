package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The unknown-id warning is for a mistyped tag or user id: a consensus no
// approver can meet. Conditions name wallets, accounts and keys by id too
// (docs/policy-language.md's wallet allowlist, "never with one key"), ids
// that are right and are no tag or user: warning of each taught people to
// skip the warning. An id provably of another kind is not judged, and a
// mistyped tag beside them is still warned of.
func TestPolicyCreateWarnsOnlyWhereATagOrUserIDIsExpected(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{
		Types: []string{api.TypeDeleteWalletAccounts}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	account := ""
	for _, a := range acts {
		if in := a.Intent.DeleteWalletAccountsIntent; in != nil && len(in.WalletAccountIDs) > 0 {
			account = in.WalletAccountIDs[0]
		}
	}
	bob, err := e.client("alice").GetUser(ctx, e.userID("bob"))
	if err != nil {
		t.Fatal(err)
	}
	if account == "" || len(bob.APIKeys) == 0 {
		t.Fatal("setup: the demo has no wallet account id or no key of bob's")
	}
	key := bob.APIKeys[0].APIKeyID
	typo := "01a2c0de-0000-7000-8000-000000000001"
	code, out, errOut := e.run("", "policy", "create", "--json", "--name", "treasury account", "--effect", "deny",
		"--condition", "wallet.id in ['"+account+"']",
		"--consensus", "credentials.any(c, c.id == '"+key+"') || approvers.any(u, u.tags.contains('"+typo+"'))")
	wantExit(t, "policy create", code, 0, out, errOut)
	for what, id := range map[string]string{"wallet account": account, "API key": key} {
		if strings.Contains(errOut, id) {
			t.Errorf("the %s %s, compared with a wallet's or credential's id, is warned of as no tag or user:\n%s", what, id, errOut)
		}
	}
	if !strings.Contains(errOut, "warning: "+typo+" is not a tag or user") {
		t.Errorf("the mistyped tag %s in the consensus is no longer warned of:\n%s", typo, errOut)
	}
}
