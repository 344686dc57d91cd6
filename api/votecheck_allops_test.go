package api_test

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// Every operation the local service accepts, submitted through the typed
// client as a member would (optional fields left out, so the service's
// defaults apply, and given), then voted on where it waits: each vote of
// the honest activity, the requester's above all, checks as verified, and
// the requester's as the strong check (the intent shown compared with the
// one signed), through a sanitising client and an exact one. A false
// FAILED here would tell every root member not to trust an honest activity.
func TestHonestVotesVerifyForEveryOperation(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	org := demo.Info.OrganizationID
	operator := memberID(t, demo, "operator")
	yes, no := true, false

	// Objects the operations act on, made as the demo makes its own.
	_, accounts, err := demo.Server.AddWallet(ctx, org, "Audit wallet", []server.WalletAccountSpec{
		{Address: "0x1111111111111111111111111111111111111111", Exported: true},
		{Address: "0x2222222222222222222222222222222222222222"},
		{Address: "0x3333333333333333333333333333333333333333", Exported: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	tvc, err := demo.Server.AddTvcDeployment(ctx, org, "signer", "canary")
	if err != nil {
		t.Fatal(err)
	}
	cred, err := demo.Server.AddOauth2Credential(ctx, org, api.Oauth2ProviderX, "audit-client")
	if err != nil {
		t.Fatal(err)
	}
	fetcher, err := hex.DecodeString(demo.Info.TLSFetcherPublicKey)
	if err != nil {
		t.Fatal(err)
	}
	secret, err := keys.EnvelopeEncrypt(fetcher, []byte("new-client-secret"))
	if err != nil {
		t.Fatal(err)
	}
	keyed := demo.AddUserWithKeys("audit-keys", 2, 1)
	owner, err := demo.Client("alice").GetUser(ctx, keyed)
	if err != nil {
		t.Fatal(err)
	}
	if len(owner.APIKeys) < 2 || len(owner.Authenticators) < 1 {
		t.Fatalf("set-up: %s has keys %+v and passkeys %+v", keyed, owner.APIKeys, owner.Authenticators)
	}
	// oauth signs a member in with a token of the local issuer bound to a
	// fresh target key (its nonce), as a login page would.
	oauth := func(subject string, p api.OauthParams) func(*api.Client) (*api.Activity, error) {
		return func(c *api.Client) (*api.Activity, error) {
			target, err := ecdh.P256().GenerateKey(rand.Reader)
			if err != nil {
				return nil, err
			}
			p.TargetPublicKey = hex.EncodeToString(target.PublicKey().Bytes())
			if p.OidcToken, err = demo.Server.MintDemoOIDCToken(org, subject, api.OauthNonce(p.TargetPublicKey)); err != nil {
				return nil, err
			}
			return c.OAuth(ctx, p)
		}
	}
	abi := "[\n  {\n    \"type\": \"function\",\n    \"name\": \"transfer\",\n    \"inputs\": [{\"name\": \"to\", \"type\": \"address\"}]\n  }\n]"

	type submit = func(*api.Client) (*api.Activity, error)
	cases := []struct {
		name      string
		requester string
		voter     string // who votes when it waits
		reject    bool   // the voter rejects it
		submit    submit
	}{
		{"oauth, defaults", "carol", "alice", false, oauth("carol", api.OauthParams{})},
		{"oauth, every field", "bob", "alice", false, oauth("bob", api.OauthParams{APIKeyName: "laptop", ExpirationSeconds: "3600", InvalidateExisting: &yes})},
		{"oauth, invalidateExisting false", "alice", "bob", false, oauth("alice", api.OauthParams{InvalidateExisting: &no})},
		{"create_invitations, no tags", "operator", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{ReceiverUserName: "dave",
				ReceiverUserEmail: "dave@example.com", AccessType: api.AccessTypeAPI, SenderUserID: operator}}})
		}},
		{"create_invitations, tags and two invitees", "operator", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{
				{ReceiverUserName: "Erin Ó Dálaigh", ReceiverUserEmail: "erin@example.com", ReceiverUserTags: owner.UserTags, AccessType: api.AccessTypeWeb, SenderUserID: operator},
				{ReceiverUserName: "frank", ReceiverUserEmail: "frank@example.com", ReceiverUserTags: []string{}, AccessType: api.AccessTypeAll, SenderUserID: operator}}})
		}},
		{"create_smart_contract_interface, no notes", "carol", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{SmartContractAddress: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
				SmartContractInterface: abi, Type: api.SmartContractInterfaceEthereum, Label: "DAI"})
		}},
		{"create_smart_contract_interface, notes", "carol", "alice", true, func(c *api.Client) (*api.Activity, error) {
			return c.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{SmartContractAddress: "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
				SmartContractInterface: `{"version":"0.1.0","name":"vault","instructions":[]}`, Type: api.SmartContractInterfaceSolana, Label: "vault",
				Notes: "Reviewed by ops.\nSee ticket 42."}, api.WithAppProofs())
		}},
		{"set_organization_feature", "bob", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureEmailAuth, Value: "enabled"})
		}},
		{"set_organization_feature, webhook", "bob", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: "https://hooks.example.com/vigil"})
		}},
		{"set_organization_feature, empty value", "bob", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureSMSAuth})
		}},
		{"update_oauth2_credential", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.UpdateOauth2Credential(ctx, api.UpdateOauth2CredentialParams{Oauth2CredentialID: cred, Provider: api.Oauth2ProviderDiscord,
				ClientID: "discord-client", EncryptedClientSecret: secret})
		}},
		{"create_policy, condition only", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "Deny audit deletions", Effect: api.EffectDeny,
				Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT' && activity.params.deploymentId == 'never'"})
		}},
		{"create_policy, every field, multi-line", "carol", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "Ops approve audit tags", Effect: api.EffectAllow,
				Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' &&\n\tactivity.params.userTagName == 'never'",
				Consensus: "approvers.count() >= 2", Time: "time.now >= timestamp('2020-01-01T00:00:00Z')",
				Notes: "Proposed after the audit.\n\t– carol"})
		}},
		{"delete_wallet_accounts, deleteWithoutExport left out", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.DeleteWalletAccounts(ctx, api.DeleteWalletAccountsParams{WalletAccountIDs: accounts[:1]})
		}},
		{"delete_wallet_accounts, deleteWithoutExport", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.DeleteWalletAccounts(ctx, api.DeleteWalletAccountsParams{WalletAccountIDs: accounts[1:2], DeleteWithoutExport: &yes})
		}},
		{"delete_wallet_accounts, deleteWithoutExport false", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.DeleteWalletAccounts(ctx, api.DeleteWalletAccountsParams{WalletAccountIDs: accounts[2:], DeleteWithoutExport: &no})
		}},
		{"create_user_tag, no users", "operator", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "auditors"})
		}},
		{"create_user_tag, users and an emoji sequence", "operator", "alice", true, func(c *api.Client) (*api.Activity, error) {
			return c.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "👩\u200d💻 devs", UserIDs: []string{operator, keyed}})
		}},
		{"delete_api_keys", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: keyed, APIKeyIDs: []string{owner.APIKeys[0].APIKeyID, owner.APIKeys[1].APIKeyID}})
		}},
		{"create_read_only_session", "operator", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreateReadOnlySession(ctx)
		}},
		{"delete_tvc_deployment", "bob", "alice", false, func(c *api.Client) (*api.Activity, error) {
			return c.DeleteTvcDeployment(ctx, api.DeleteTvcDeploymentParams{DeploymentID: tvc})
		}},
		{"create_mfa_policy, no notes, any passkey", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: keyed, MfaPolicyName: "Passkey for tags",
				Condition:                     "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
				RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}})
		}},
		{"create_mfa_policy, notes, a pinned passkey, two steps", "alice", "bob", false, func(c *api.Client) (*api.Activity, error) {
			return c.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: keyed, MfaPolicyName: "Two steps for invitations",
				Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS'", Order: 3, Notes: "Her laptop's passkey, then e-mail.",
				RequiredAuthenticationMethods: []api.AuthenticationStep{
					{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey, ID: owner.Authenticators[0].AuthenticatorID}}},
					{Any: []api.AuthenticationMethod{{Type: api.AuthEmailOTP}, {Type: api.AuthAPIKey}}}}})
		}},
	}

	submitted := map[string]bool{}
	for _, c := range cases {
		act, err := c.submit(demo.Client(c.requester))
		if err != nil {
			t.Errorf("%s: submit: %v", c.name, err)
			continue
		}
		submitted[act.Type] = true
		requester := memberID(t, demo, c.requester)
		checkHonestVotes(t, demo, c.name+", as submitted", act.ID, requester)
		if act.Status != api.StatusConsensusNeeded {
			continue
		}
		vote := demo.Client(c.voter).ApproveActivity
		if c.reject {
			vote = demo.Client(c.voter).RejectActivity
		}
		if _, err := vote(ctx, act.Fingerprint); err != nil {
			t.Errorf("%s: %s votes: %v", c.name, c.voter, err)
			continue
		}
		if c.reject {
			submitted[api.TypeRejectActivity] = true
		} else {
			submitted[api.TypeApproveActivity] = true
		}
		if n := checkHonestVotes(t, demo, c.name+", voted on by "+c.voter, act.ID, requester); n < 2 {
			t.Errorf("%s: %d votes shown after %s voted, want the requester's and %s's", c.name, n, c.voter, c.voter)
		}
	}
	for _, op := range api.SubmitOperations() {
		if !submitted[op.Type] {
			t.Errorf("%s: no case submits it (or its submission failed): an honest vote on it is not shown to verify", op.Path)
		}
	}
}

// checkHonestVotes reads activity id through a sanitising and an exact
// client and reports every vote that does not verify, and a requester's
// vote missing or verified without the intent compared. It returns how many
// votes the activity shows.
func checkHonestVotes(t *testing.T, demo *servertest.Demo, what, id, requester string) int {
	t.Helper()
	n := 0
	for _, r := range []struct {
		name   string
		client *api.Client
		exact  bool
	}{
		{"sanitising client", demo.Client("alice"), false},
		{"exact client", demo.ClientAt(demo.URL, "alice", api.WithExactStrings()), true},
	} {
		got, err := r.client.GetActivity(context.Background(), id)
		if err != nil {
			t.Errorf("%s, %s: get_activity: %v", what, r.name, err)
			continue
		}
		// The console's list shows the record the vote dialog checks too.
		listed, err := r.client.ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 5})
		if err != nil {
			t.Errorf("%s, %s: list_activities: %v", what, r.name, err)
			continue
		}
		shown := []*api.Activity{got}
		for i := range listed {
			if listed[i].ID == id {
				shown = append(shown, &listed[i])
			}
		}
		if len(shown) != 2 {
			t.Errorf("%s, %s: the activity is not among the newest listed", what, r.name)
		}
		for _, a := range shown {
			n = len(a.Votes)
			if a.VoteOf(requester) == nil {
				t.Errorf("%s, %s: the requester's vote is not shown (%d votes, %s)", what, r.name, len(a.Votes), a.Status)
			}
			for i, c := range checkedAsListed(t, demo, *a) {
				v := a.Votes[i]
				switch {
				case c.State != api.VoteVerified:
					t.Errorf("%s, %s: %s's honest vote: %s (%s), want verified", what, r.name, v.UserID, c.State, c.Reason)
				case v.UserID == requester && c.Reason != api.SubmissionSigned && (r.exact || !strings.Contains(c.Reason, "compared only as escaped")):
					// A sanitising client's intent is escaped: it is compared
					// as escaped and said to be; an exact one, exactly.
					t.Errorf("%s, %s: the requester's vote verified without the intent compared: %s", what, r.name, c.Reason)
				}
			}
		}
	}
	return n
}

// A member whose API key is of each scheme the service takes requests a
// tag and alice approves it: the requester's vote verifies whatever the
// scheme of the key that signed it.
func TestHonestVotesVerifyForEveryKeyScheme(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	org := demo.Info.OrganizationID
	for _, scheme := range []string{keys.SchemeP256, keys.SchemeSecp256k1, keys.SchemeEd25519} {
		k, err := keys.Generate(scheme)
		if err != nil {
			t.Fatal(err)
		}
		id, err := demo.Server.CreateUser(ctx, org, server.UserSpec{Name: "signer " + scheme, Email: "signer-" + k.PublicKeyHex()[:8] + "@example.com",
			APIKeys: []server.APIKeySpec{{Name: "ci", PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.NewClient(demo.URL, org, k)
		if err != nil {
			t.Fatal(err)
		}
		act, err := c.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "signed with " + scheme, UserIDs: []string{id}})
		if err != nil {
			t.Fatalf("%s: %v", scheme, err)
		}
		checkHonestVotes(t, demo, scheme+", as submitted", act.ID, id)
		if _, err := demo.Client("alice").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatalf("%s: alice approves: %v", scheme, err)
		}
		checkHonestVotes(t, demo, scheme+", approved by alice", act.ID, id)
	}
}
