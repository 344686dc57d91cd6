package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// DemoInfo describes the seeded demo organization.
type DemoInfo struct {
	OrganizationID      string
	OrganizationName    string
	Members             []DemoMember
	EnclaveApps         []string
	AuthProxyConfigID   string
	DemoRootPEM         []byte
	TLSFetcherPublicKey string
}

// DemoMember is a user of the demo organization and the name of their key in
// the keys directory.
type DemoMember struct {
	Name    string
	UserID  string
	KeyName string
	Root    bool
}

const (
	stateDemoInfo = "demo_info"
	stateDemoKeys = "demo_keys" // demo members' private keys, so a reseed can rewrite the key files
	// stateDemoSeeding is the id of the demo organization while it is being
	// seeded: written with the organization, deleted with demo_info's write.
	// Found at a start, it names a seeding cut short (kill, full disk, power
	// cut), whose organization nobody can sign for: its keys were not kept.
	stateDemoSeeding = "demo_seeding"
	// DemoOrganizationName is the name of the seeded organization.
	DemoOrganizationName = "Vigil Demo"
)

// DemoEnclaveApps are the enclave apps the demo seeds boot proofs for.
var demoEnclaveApps = []string{AppProofSigner, "policy-engine"}

// SeedDemo seeds the demo organization (once: on a seeded store it returns the
// existing info) and writes the members' private keys to keysDir with
// keys.Store.Import, named alice, bob, carol and operator.
func SeedDemo(ctx context.Context, s *Server, keysDir string) (*DemoInfo, error) {
	info, memberKeys, err := s.loadDemo(ctx)
	if err != nil {
		return nil, err
	}
	if info == nil {
		if err := s.dropUnfinishedDemo(ctx); err != nil {
			return nil, fmt.Errorf("seed demo: %w", err)
		}
		if info, memberKeys, err = s.seedDemo(ctx); err != nil {
			return nil, fmt.Errorf("seed demo: %w", err)
		}
	}
	store := keys.Store{Dir: keysDir}
	for _, m := range info.Members {
		demoKey, err := keys.ParsePrivateHex(keys.SchemeP256, memberKeys[m.KeyName])
		if err != nil {
			return nil, fmt.Errorf("seed demo: the stored key of %s: %w", m.KeyName, err)
		}
		existing, loadErr := store.Load(m.KeyName)
		if loadErr == nil && existing.PrivateKeyHex() == demoKey.PrivateKeyHex() {
			continue
		}
		clearOwnLeftovers(store, m.KeyName, demoKey)
		_, err = store.Import(m.KeyName, keys.SchemeP256, demoKey.PrivateKeyHex())
		var taken *keys.ExistsError
		if errors.As(err, &taken) {
			return nil, fmt.Errorf("seed demo: %w", demoKeyConflict(store, m.KeyName, demoKey, taken.Path, loadErr))
		}
		if err != nil {
			return nil, fmt.Errorf("seed demo: write key %s: %w", m.KeyName, err)
		}
	}
	return info, nil
}

// clearOwnLeftovers removes name's .public and .scheme files when its
// .private file is gone and they say exactly what the demo's key's would: a
// user who moved another key's .private file away, as demoKeyConflict says
// to, need not move these too. Nothing is lost: the demo writes them again.
func clearOwnLeftovers(store keys.Store, name string, demoKey *keys.Key) {
	priv, pub, sch := store.Paths(name)
	if _, err := os.Lstat(priv); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	for path, want := range map[string]string{pub: demoKey.PublicKeyHex(), sch: demoKey.Scheme()} {
		line, err := readFirstLine(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || line != want {
			return // not the demo's: demoKeyConflict names it
		}
	}
	os.Remove(pub)
	os.Remove(sch)
}

// demoKeyConflict explains a file found at a demo member's key name (path)
// that keeps the demo from writing the key; loadErr is why the key did not
// load. The file is not overwritten, and another name will not do for a
// demo member.
func demoKeyConflict(store keys.Store, name string, demoKey *keys.Key, path string, loadErr error) error {
	priv, _, _ := store.Paths(name)
	if path != priv {
		return fmt.Errorf("%s is in the way of the demo's key for %s; move it away (it is kept) or use another --data", path, name)
	}
	if line, err := readFirstLine(priv); err == nil && line == demoKey.PrivateKeyHex() {
		return fmt.Errorf("the demo's key for %s does not load: %w", name, loadErr)
	}
	return fmt.Errorf("%s is not the demo's key for %s; move it away (it is kept) or use another --data", priv, name)
}

// readFirstLine is the first line of a small file, trimmed.
func readFirstLine(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1024))
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line), err
}

func (s *Server) loadDemo(ctx context.Context) (*DemoInfo, map[string]string, error) {
	raw, ok, err := getState(ctx, s.db.read, stateDemoInfo)
	if err != nil || !ok {
		return nil, nil, err
	}
	var info DemoInfo
	if err := json.Unmarshal(raw, &info); err != nil {
		return nil, nil, fmt.Errorf("stored demo info: %w", err)
	}
	rawKeys, _, err := getState(ctx, s.db.read, stateDemoKeys)
	if err != nil {
		return nil, nil, err
	}
	memberKeys := map[string]string{}
	if err := json.Unmarshal(rawKeys, &memberKeys); err != nil {
		return nil, nil, fmt.Errorf("stored demo keys: %w", err)
	}
	return &info, memberKeys, nil
}

// dropUnfinishedDemo deletes the organization of a demo seeding cut short,
// so that the seeding starts over rather than failing on its fixtures or
// leaving a second demo organization beside one nobody can sign for. Its rows
// cascade from the organization; its webhook events are dropped with it.
func (s *Server) dropUnfinishedDemo(ctx context.Context) error {
	raw, ok, err := getState(ctx, s.db.read, stateDemoSeeding)
	if err != nil || !ok {
		return err
	}
	orgID := string(raw)
	err = s.db.inTx(ctx, func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM organizations WHERE id = ?`, orgID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_outbox WHERE org_id = ?`, orgID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM service_state WHERE key = ?`, stateDemoSeeding)
		return err
	})
	if err != nil {
		return fmt.Errorf("remove the demo organization %s of a seeding cut short: %w", orgID, err)
	}
	return nil
}

// maxDemoRequests bounds the demo's submissions and votes (demoSeeder.base).
const maxDemoRequests = 1000

// demoSeeder submits the demo's activities through the real engine, each body
// stamped with the member's real key.
type demoSeeder struct {
	s    *Server
	org  *Org
	keys map[string]*keys.Key
	err  error
	acts map[string]api.Activity
	// Requests are timestamped from base on, one millisecond apart: distinct
	// timestamps keep otherwise equal bodies distinct, and all before the
	// seeding began, so that no later request timestamped with the clock
	// can have the same body (and fingerprint) as one of the demo's: a user's
	// own submission would otherwise count as a vote on the demo's activity.
	base  int64
	order int64
}

func (d *demoSeeder) submit(label, who, path string, params any) api.Activity {
	return d.submitWith(label, who, path, params, false)
}

// submitWith submits with generateAppProofs when appProofs is set.
func (d *demoSeeder) submitWith(label, who, path string, params any, appProofs bool) api.Activity {
	if d.err != nil {
		return api.Activity{}
	}
	op, _ := api.OperationByPath(path)
	raw, err := json.Marshal(params)
	if err != nil {
		d.err = err
		return api.Activity{}
	}
	if d.order++; d.order >= maxDemoRequests {
		d.err = fmt.Errorf("the demo sends more than %d requests: raise maxDemoRequests", maxDemoRequests)
		return api.Activity{}
	}
	req := api.ActivityRequest{Type: op.Type, OrganizationID: d.org.ID, Parameters: raw,
		TimestampMs: strconv.FormatInt(d.base+d.order, 10)}
	if appProofs {
		req.GenerateAppProofs = &appProofs
	}
	body, err := json.Marshal(req)
	if err != nil {
		d.err = err
		return api.Activity{}
	}
	name, value, err := d.keys[who].Stamp(body)
	if err != nil {
		d.err = err
		return api.Activity{}
	}
	h := http.Header{}
	h.Set(name, value)
	st, err := d.s.parseStampHeaders(h)
	if err != nil {
		d.err = fmt.Errorf("%s: %w", label, err)
		return api.Activity{}
	}
	act, err := d.s.submitRequest(context.Background(), st, op, body)
	if err != nil {
		d.err = fmt.Errorf("%s: %w", label, err)
		return api.Activity{}
	}
	if label != "" {
		d.acts[label] = act
	}
	return act
}

// createTag has alice propose the user tag name for userIDs and bob approve
// it (the root quorum is two), and returns the tag's id.
func (d *demoSeeder) createTag(name string, userIDs []string) string {
	label := "tag " + name
	d.submit(label, "alice", "create_user_tag", api.CreateUserTagParams{UserTagName: name, UserIDs: userIDs})
	done := d.submit("", "bob", "approve_activity", api.ApproveActivityParams{Fingerprint: d.acts[label].Fingerprint})
	if d.err != nil {
		return ""
	}
	r := done.Result.CreateUserTagResult
	if done.Status != api.StatusCompleted || r == nil || r.UserTagID == "" {
		d.err = fmt.Errorf("demo tag %s: the activity is %s, not completed with a tag", name, done.Status)
		return ""
	}
	return r.UserTagID
}

func (d *demoSeeder) vote(who, path, label string) {
	d.submit("", who, path, api.ApproveActivityParams{Fingerprint: d.acts[label].Fingerprint})
}

func (s *Server) seedDemo(ctx context.Context) (*DemoInfo, map[string]string, error) {
	members := []struct {
		name, email string
		root        bool
		tags        []string
	}{
		{"alice", "alice@vigil.demo", true, nil},
		{"bob", "bob@vigil.demo", true, []string{"ops"}},
		{"carol", "carol@vigil.demo", true, []string{"ops"}},
		{"operator", "operator@vigil.demo", false, []string{"operator"}},
	}
	memberKeys := map[string]string{}
	d := &demoSeeder{s: s, keys: map[string]*keys.Key{}, acts: map[string]api.Activity{}, base: s.now().UnixMilli() - maxDemoRequests}
	var specs []UserSpec
	for _, m := range members {
		k, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			return nil, nil, err
		}
		d.keys[m.name], memberKeys[m.name] = k, k.PrivateKeyHex()
		specs = append(specs, UserSpec{Name: m.name, Email: m.email, Root: m.root, OIDCSubject: m.name,
			APIKeys: []APIKeySpec{{Name: m.name + " (vigil demo)", PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}})
	}
	old, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		return nil, nil, err
	}
	specs[3].APIKeys = append(specs[3].APIKeys, APIKeySpec{Name: "operator CI key (old)", PublicKey: old.PublicKeyHex()})
	// A passkey, so that users show one as the official client's
	// v1Authenticator describes it (.ci/interop.sh checks every field). Its
	// private half is not kept: the demo signs with API keys only.
	passkey, err := keys.NewSoftAuthenticator("dmlnaWwtZGVtby1vcGVyYXRvcg") // "vigil-demo-operator"
	if err != nil {
		return nil, nil, err
	}
	specs[3].Authenticators = []AuthenticatorSpec{{Name: "operator laptop passkey (vigil demo)", CredentialID: passkey.CredentialID(),
		PublicKey: passkey.PublicKeyHex(), Transports: []string{api.TransportInternal, api.TransportHybrid}, Model: "vigil demo soft passkey"}}
	org, err := s.createOrganization(ctx, DemoOrganizationName, 2, specs, func(tx *txn, org *Org) error {
		return putState(ctx, tx, stateDemoSeeding, []byte(org.ID))
	})
	if err != nil {
		return nil, nil, err
	}
	d.org = org
	// The members' tags are created by create_user_tag activities, as an
	// organization on the real service gets them after it exists: the
	// service has no tag query, so these activities are where a console
	// finds the tags' names. Created with the organization, they would show
	// as unknown tags.
	for _, m := range members {
		for _, tag := range m.tags {
			if _, ok := org.TagIDs[tag]; ok {
				continue
			}
			var holders []string
			for _, h := range members {
				if slices.Contains(h.tags, tag) {
					holders = append(holders, org.UserIDs[h.name])
				}
			}
			org.TagIDs[tag] = d.createTag(tag, holders)
		}
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	rootPEM, err := s.EnsureEnclaves(ctx, demoEnclaveApps...)
	if err != nil {
		return nil, nil, err
	}
	fx, err := s.seedDemoObjects(ctx, org)
	if err != nil {
		return nil, nil, err
	}
	carol, operator := org.UserIDs["carol"], org.UserIDs["operator"]

	// History: completed, failed and rejected activities.
	yes := true
	// Completed with app proofs, which the activity detail verifies.
	d.submitWith("tag", "alice", "create_user_tag", api.CreateUserTagParams{UserTagName: "auditors", UserIDs: []string{operator}}, true)
	// The vote's reply is the tag's activity, completed: the pending
	// invitation below gives the new member this tag.
	tagged := d.submit("", "bob", "approve_activity", api.ApproveActivityParams{Fingerprint: d.acts["tag"].Fingerprint})
	var inviteTags []string
	if r := tagged.Result.CreateUserTagResult; r != nil {
		inviteTags = []string{r.UserTagID}
	}
	d.submit("session", "operator", "create_read_only_session", api.CreateReadOnlySessionParams{})
	d.submit("mfa", "alice", "create_mfa_policy", api.CreateMfaPolicyParams{UserID: carol, MfaPolicyName: "Passkey for deletions",
		Condition:                     "activity.action == 'DELETE'",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}, Order: 0})
	d.vote("carol", "approve_activity", "mfa")
	d.submit("delete-cold", "alice", "delete_wallet_accounts", api.DeleteWalletAccountsParams{WalletAccountIDs: []string{fx.coldAccount}})
	d.vote("bob", "approve_activity", "delete-cold")
	d.submit("delete-treasury", "operator", "delete_wallet_accounts", api.DeleteWalletAccountsParams{WalletAccountIDs: []string{fx.treasuryAccount}, DeleteWithoutExport: &yes})
	d.submit("abi", "carol", "create_smart_contract_interface", api.CreateSmartContractInterfaceParams{SmartContractAddress: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
		SmartContractInterface: `[{"type":"function","name":"transfer","inputs":[{"name":"to","type":"address"},{"name":"amount","type":"uint256"}]}]`,
		Type:                   api.SmartContractInterfaceEthereum, Label: "DAI (unreviewed)"})
	d.submit("", "alice", "reject_activity", api.RejectActivityParams{Fingerprint: d.acts["abi"].Fingerprint})
	d.submit("", "bob", "reject_activity", api.RejectActivityParams{Fingerprint: d.acts["abi"].Fingerprint})

	// Pending: waiting for votes.
	d.submit("feature", "bob", "set_organization_feature", api.SetOrganizationFeatureParams{Name: api.FeatureEmailAuth, Value: "enabled"})
	d.submit("policy", "carol", "create_policy", api.CreatePolicyParams{PolicyName: "Ops may delete TVC deployments",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT'",
		Consensus: "approvers.any(user, user.tags.contains('" + org.TagIDs["ops"] + "'))", Notes: "Proposed by carol"})
	d.submit("delete-keys", "bob", "delete_api_keys", api.DeleteAPIKeysParams{UserID: operator, APIKeyIDs: []string{fx.oldOperatorKey}})
	d.submit("invite", "operator", "create_invitations", api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "dave", ReceiverUserEmail: "dave@vigil.demo", ReceiverUserTags: inviteTags, AccessType: api.AccessTypeAPI, SenderUserID: operator}}})
	d.submit("tvc", "operator", "delete_tvc_deployment", api.DeleteTvcDeploymentParams{DeploymentID: fx.tvcDeployment})
	d.vote("bob", "approve_activity", "tvc")
	if d.err != nil {
		return nil, nil, d.err
	}

	info := &DemoInfo{OrganizationID: org.ID, OrganizationName: org.Name, EnclaveApps: demoEnclaveApps,
		AuthProxyConfigID: fx.authProxyConfig, DemoRootPEM: rootPEM, TLSFetcherPublicKey: s.TLSFetcherPublicKey()}
	for _, m := range members {
		info.Members = append(info.Members, DemoMember{Name: m.name, UserID: org.UserIDs[m.name], KeyName: m.name, Root: m.root})
	}
	rawInfo, err := json.Marshal(info)
	if err != nil {
		return nil, nil, err
	}
	rawKeys, err := json.Marshal(memberKeys)
	if err != nil {
		return nil, nil, err
	}
	err = s.db.inTx(ctx, func(tx *txn) error {
		if err := putState(ctx, tx, stateDemoKeys, rawKeys); err != nil {
			return err
		}
		if err := putState(ctx, tx, stateDemoInfo, rawInfo); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM service_state WHERE key = ?`, stateDemoSeeding); err != nil {
			return fmt.Errorf("clear %s: %w", stateDemoSeeding, err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return info, memberKeys, nil
}

// demoFixtures are ids of objects seeded directly in the store.
type demoFixtures struct {
	treasuryAccount, coldAccount, oldOperatorKey, tvcDeployment, authProxyConfig string
}

func (s *Server) seedDemoObjects(ctx context.Context, org *Org) (demoFixtures, error) {
	var fx demoFixtures
	secret, err := keys.EnvelopeEncrypt(s.creds.tlsFetcher.PublicKey().Bytes(), []byte("demo-client-secret"))
	if err != nil {
		return fx, err
	}
	err = s.db.inTx(ctx, func(tx *txn) error {
		now := s.now().UnixNano()
		exec := func(q string, args ...any) {
			if err == nil {
				_, err = tx.ExecContext(ctx, q, args...)
			}
		}
		// The origins list the soft passkey's origin: it is enforced.
		for _, f := range []api.Feature{{Name: api.FeatureWebauthnOrigins, Value: keys.SoftAuthenticatorOrigin + ", http://localhost"}, {Name: api.FeatureAuthProxy, Value: "enabled"}, {Name: api.FeatureOtpEmailAuth, Value: "enabled"}} {
			exec(`INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)`, org.ID, f.Name, f.Value)
		}
		treasury, hot := newID(), newID()
		fx.treasuryAccount, fx.coldAccount = newID(), newID()
		exec(`INSERT INTO wallets(id, org_id, name, created_ns) VALUES (?, ?, 'Treasury', ?), (?, ?, 'Ops hot wallet', ?)`, treasury, org.ID, now, hot, org.ID, now)
		exec(`INSERT INTO wallet_accounts(id, org_id, wallet_id, address, exported, created_ns) VALUES
			(?, ?, ?, '0x8ba1f109551bD432803012645Ac136ddd64DBA72', 1, ?),
			(?, ?, ?, '0xdD2FD4581271e230360230F9337D5c0430Bf44C0', 0, ?),
			(?, ?, ?, '0x2546BcD3c84621e976D8185a91A922aE77ECEc30', 1, ?)`,
			fx.treasuryAccount, org.ID, treasury, now, fx.coldAccount, org.ID, hot, now, newID(), org.ID, hot, now)
		exec(`INSERT INTO oauth2_credentials(id, org_id, provider, client_id, encrypted_client_secret, created_ns, updated_ns) VALUES (?, ?, ?, 'demo-x-client', ?, ?, ?)`,
			newID(), org.ID, api.Oauth2ProviderX, secret, now, now)
		fx.tvcDeployment = newID()
		exec(`INSERT INTO tvc_deployments(id, org_id, app, label, created_ns) VALUES (?, ?, 'signer', 'canary-2026-11', ?), (?, ?, 'policy-engine', 'stable', ?)`,
			fx.tvcDeployment, org.ID, now, newID(), org.ID, now)
		exec(`INSERT INTO onramp_transactions(id, org_id, status, updated_ns) VALUES ('onramp-demo-1', ?, 'PENDING', ?), ('onramp-demo-2', ?, 'COMPLETED', ?)`, org.ID, now, org.ID, now)
		cfg, _ := json.Marshal(api.WalletKitConfig{EnabledProviders: []string{"google", "email", "passkey"}, SessionExpirationSeconds: "900",
			OrganizationID: org.ID, OauthClientIDs: map[string]string{"google": "vigil-demo.apps.googleusercontent.com"},
			OauthRedirectURL: "http://localhost:8421/oauth/callback", OtpLength: "6"})
		fx.authProxyConfig = newID()
		exec(`INSERT INTO auth_proxy_configs(id, org_id, config) VALUES (?, ?, ?)`, fx.authProxyConfig, org.ID, string(cfg))
		if err != nil {
			return err
		}
		if err = tx.QueryRowContext(ctx, `SELECT id FROM api_keys WHERE user_id = ? AND name = 'operator CI key (old)'`, org.UserIDs["operator"]).Scan(&fx.oldOperatorKey); err != nil {
			return err
		}
		mfa := []api.CreateMfaPolicyParams{
			{UserID: org.UserIDs["alice"], MfaPolicyName: "Passkey for policy changes", Condition: "activity.resource == 'POLICY'", Order: 0,
				RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}},
			{UserID: org.UserIDs["alice"], MfaPolicyName: "Email or SMS code, then API key", Condition: "true", Order: 1, Notes: "fallback",
				RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthEmailOTP}, {Type: api.AuthSMSOTP}}}, {Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}},
			{UserID: org.UserIDs["operator"], MfaPolicyName: "API key only", Condition: "true", Order: 0,
				RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}},
		}
		for i := range mfa {
			if _, err := insertMfaPolicy(ctx, tx, org.ID, &mfa[i], now); err != nil {
				return err
			}
		}
		policies := []api.CreatePolicyParams{
			{PolicyName: "Operator changes need two ops approvers", Effect: api.EffectAllow,
				Condition: "activity.type in ['ACTIVITY_TYPE_CREATE_INVITATIONS', 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT', 'ACTIVITY_TYPE_CREATE_USER_TAG']",
				Consensus: "approvers.filter(user, user.tags.contains('" + org.TagIDs["ops"] + "')).count() >= 2",
				Notes:     "bob and carol carry the ops tag"},
			{PolicyName: "Anyone may open a read-only session", Effect: api.EffectAllow,
				Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", Notes: "read-only"},
			{PolicyName: "Sign-in with the local OIDC issuer", Effect: api.EffectAllow,
				Condition: "activity.type == 'ACTIVITY_TYPE_OAUTH'", Notes: "oauth activity"},
			{PolicyName: "Never delete the treasury account", Effect: api.EffectDeny,
				Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS' && '" + fx.treasuryAccount + "' in activity.params.wallet_account_ids",
				Notes: "deny wins over every allow policy; only the root quorum acting together bypasses policies. " +
					"The real service does not let policies read this parameter (a MissingField error there: this deny would never deny)"},
		}
		for i, p := range policies {
			if _, err := policy.Compile(p.Condition, p.Consensus); err != nil {
				return fmt.Errorf("demo policy %d: %w", i, err)
			}
			exec(`INSERT INTO policies(id, org_id, name, effect, condition, consensus, notes, seq, created_ns, updated_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				newID(), org.ID, p.PolicyName, p.Effect, p.Condition, p.Consensus, p.Notes, i+1, now, now)
		}
		return err
	})
	return fx, err
}
