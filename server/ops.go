package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// precheck refuses, with a 400 before any activity exists, submissions whose
// content can never execute: a policy or MFA policy that does not compile, a client secret
// the TLS fetcher key cannot open, a webhook URL that is not a URL, an OIDC
// target key that is not a P-256 key, an OIDC token not bound to it or
// already claimed by another activity. fp is the submission's fingerprint.
// For an oauth submission it returns the verified token, which submit claims
// in its write transaction (claimOIDCToken). q is where it reads: the read
// connection, or the write transaction when submit found no activity to
// answer a resend with only there.
func (s *Server) precheck(ctx context.Context, q querier, c *caller, op api.Operation, params any, fp string) (*oidcClaims, error) {
	switch p := params.(type) {
	case *api.CreatePolicyParams:
		// Not through the compile cache: a submission may well be denied,
		// and a cache filled by submissions would hold whatever any member
		// sends. Only stored policies are cached (loadCompiledPolicies).
		_, err := policy.CompileSource(policy.Source{Condition: p.Condition, Consensus: p.Consensus, Time: p.Time})
		return nil, invalidPolicy(err)
	case *api.CreateMfaPolicyParams:
		// Stored, a condition that cannot run would make the MFA policy apply
		// to everything (applicableMfaPolicy fails closed): refuse it here.
		if _, err := policy.Compile(p.Condition, ""); err != nil {
			return nil, invalidPolicy(err)
		}
		// A user who is not the organization's fails the activity at
		// execution (userId), as it always has: their pins are not judged.
		if err := userInOrg(ctx, q, c.OrgID, p.UserID); err != nil {
			if isNotInOrg(err) {
				return nil, nil
			}
			return nil, err
		}
		bad, err := unmeetableMfaPin(ctx, q, c.OrgID, p, s.now())
		if err != nil {
			return nil, err
		}
		if bad != nil {
			format, args := bad.refusal()
			return nil, invalidf("INVALID_PARAMETER", "parameters."+format, args...)
		}
	case *api.UpdateOauth2CredentialParams:
		if _, err := keys.EnvelopeDecrypt(s.creds.tlsFetcher, p.EncryptedClientSecret); err != nil {
			return nil, invalidf("UNDECRYPTABLE_SECRET", "parameters.encryptedClientSecret cannot be decrypted with this service's TLS fetcher key (%v); encrypt it to %s", err, s.TLSFetcherPublicKey())
		}
	case *api.SetOrganizationFeatureParams:
		// The webhook URL is the one value the service acts on: it takes the
		// client's rule (api.CheckWebhookURL), so a URL no delivery can reach,
		// or one carrying a password every member would see, is never stored.
		if p.Name == api.FeatureWebhook && p.Value != "" {
			if err := api.CheckWebhookURL(p.Value); err != nil {
				return nil, invalidf("INVALID_PARAMETER", "parameters.value: %s %v", api.FeatureWebhook, err)
			}
		}
	case *api.OauthParams:
		if err := checkTargetKey(p.TargetPublicKey); err != nil {
			return nil, invalidf("INVALID_PARAMETER", "parameters.targetPublicKey: %v", err)
		}
		claims, err := s.verifyOIDCToken(ctx, q, p.OidcToken, c.OrgID)
		if isTokenRefused(err) {
			return nil, unauthenticatedf("INVALID_OIDC_TOKEN", "parameters.oidcToken: %v", err)
		}
		if err != nil {
			return nil, fmt.Errorf("oauth: verify parameters.oidcToken: %w", err) // the service's failure, not the token's
		}
		if err := checkNonce(claims, p.TargetPublicKey); err != nil {
			return nil, invalidf("OIDC_NONCE_MISMATCH", "parameters.oidcToken: %v", err)
		}
		held, err := claimOf(ctx, q, claims)
		if err != nil {
			return nil, err
		}
		// The same body again is a retry, answered with the activity that
		// holds the token (submit is idempotent); anything else is refused.
		if held != nil && (held.orgID != c.OrgID || held.fingerprint != fp) {
			return nil, unauthenticatedf("INVALID_OIDC_TOKEN", "parameters.oidcToken: %v", held.refusal(c.OrgID))
		}
		return &claims, nil
	}
	return nil, nil
}

// invalidPolicy is the 400 for an expression that does not compile, with the
// field, line and column the compiler names.
func invalidPolicy(err error) error {
	if err == nil {
		return nil
	}
	var ee *policy.ExprError
	if errors.As(err, &ee) {
		return invalidf("INVALID_POLICY", "parameters.%s: line %d, column %d: %s", ee.Field, ee.Line, ee.Column, ee.Message)
	}
	return invalidf("INVALID_POLICY", "parameters: %v", err)
}

// execute carries out a completed activity's intent inside the transaction
// that completes it. An *execFailure means the activity FAILS.
func (s *Server) execute(ctx context.Context, tx *txn, a *activity) (api.Result, error) {
	for _, e := range executors {
		if e.has(&a.Intent) {
			return e.run(s, ctx, tx, a, s.now())
		}
	}
	return api.Result{}, fmt.Errorf("activity %s has no intent to execute", a.ID)
}

// intentExecutor runs one kind of intent once consensus is reached; executors
// holds one per intent, so execute is a lookup, not a switch.
type intentExecutor struct {
	has func(in *api.Intent) bool
	run func(s *Server, ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error)
}

var executors = []intentExecutor{
	{func(in *api.Intent) bool { return in.CreateInvitationsIntent != nil }, (*Server).execCreateInvitations},
	{func(in *api.Intent) bool { return in.CreateSmartContractInterfaceIntent != nil }, (*Server).execCreateSmartContractInterface},
	{func(in *api.Intent) bool { return in.SetOrganizationFeatureIntent != nil }, (*Server).execSetOrganizationFeature},
	{func(in *api.Intent) bool { return in.UpdateOauth2CredentialIntent != nil }, (*Server).execUpdateOauth2Credential},
	{func(in *api.Intent) bool { return in.CreatePolicyIntentV3 != nil }, (*Server).execCreatePolicy},
	{func(in *api.Intent) bool { return in.DeleteWalletAccountsIntent != nil }, (*Server).execDeleteWalletAccounts},
	{func(in *api.Intent) bool { return in.CreateUserTagIntent != nil }, (*Server).execCreateUserTag},
	{func(in *api.Intent) bool { return in.DeleteAPIKeysIntent != nil }, (*Server).execDeleteAPIKeys},
	{func(in *api.Intent) bool { return in.CreateReadOnlySessionIntent != nil }, (*Server).execCreateReadOnlySession},
	{func(in *api.Intent) bool { return in.DeleteTvcDeploymentIntent != nil }, (*Server).execDeleteTvcDeployment},
	{func(in *api.Intent) bool { return in.CreateMfaPolicyIntent != nil }, (*Server).execCreateMfaPolicy},
	{func(in *api.Intent) bool { return in.OauthIntent != nil }, (*Server).execOauth},
}

func (s *Server) execCreateInvitations(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	ns := now.UnixNano()
	in := a.Intent
	ids := []string{}
	for i, inv := range in.CreateInvitationsIntent.Invitations {
		if err := userInOrg(ctx, tx, a.OrgID, inv.SenderUserID); err != nil {
			return r, failNotInOrg(err, fmt.Sprintf("invitations[%d].senderUserId", i))
		}
		b, err := json.Marshal(inv)
		if err != nil {
			return r, err
		}
		id := newID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO invitations(id, org_id, body, created_ns) VALUES (?, ?, ?, ?)`, id, a.OrgID, string(b), ns); err != nil {
			return r, err
		}
		ids = append(ids, id)
	}
	r.CreateInvitationsResult = &api.CreateInvitationsResult{InvitationIDs: ids}
	return r, nil
}

func (s *Server) execCreateSmartContractInterface(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	ns := now.UnixNano()
	in := a.Intent
	p := in.CreateSmartContractInterfaceIntent
	id := newID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO smart_contract_interfaces(id, org_id, address, interface, type, label, notes, created_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, a.OrgID, p.SmartContractAddress, p.SmartContractInterface, p.Type, p.Label, p.Notes, ns); err != nil {
		return r, err
	}
	r.CreateSmartContractInterfaceResult = &api.CreateSmartContractInterfaceResult{SmartContractInterfaceID: id}
	return r, nil
}

func (s *Server) execSetOrganizationFeature(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	in := a.Intent
	p := in.SetOrganizationFeatureIntent
	if p.Name == api.FeatureWebauthnOrigins {
		if err := s.refuseOriginsLockout(ctx, tx, a.OrgID, now); err != nil {
			return r, err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)
		ON CONFLICT(org_id, name) DO UPDATE SET value = excluded.value`, a.OrgID, p.Name, p.Value); err != nil {
		return r, err
	}
	if p.Name == api.FeatureWebhook {
		if err := s.demoWebhookReplaced(ctx, tx, a.OrgID); err != nil {
			return r, err
		}
	}
	features, err := loadFeatures(ctx, tx, a.OrgID)
	if err != nil {
		return r, err
	}
	r.SetOrganizationFeatureResult = &api.SetOrganizationFeatureResult{Features: features}
	return r, nil
}

func (s *Server) execUpdateOauth2Credential(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	ns := now.UnixNano()
	in := a.Intent
	p := in.UpdateOauth2CredentialIntent
	if _, err := keys.EnvelopeDecrypt(s.creds.tlsFetcher, p.EncryptedClientSecret); err != nil {
		return r, failf(api.CodeInvalidArgument, "encryptedClientSecret cannot be decrypted with the TLS fetcher key: %v", err)
	}
	if err := execFound(ctx, tx, failf(api.CodeNotFound, "OAuth2 credential %q not found in this organization", p.Oauth2CredentialID),
		`UPDATE oauth2_credentials SET provider = ?, client_id = ?, encrypted_client_secret = ?, updated_ns = ?
		WHERE id = ? AND org_id = ?`, p.Provider, p.ClientID, p.EncryptedClientSecret, ns, p.Oauth2CredentialID, a.OrgID); err != nil {
		return r, err
	}
	r.UpdateOauth2CredentialResult = &api.UpdateOauth2CredentialResult{Oauth2CredentialID: p.Oauth2CredentialID}
	return r, nil
}

func (s *Server) execCreatePolicy(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	ns := now.UnixNano()
	in := a.Intent
	p := in.CreatePolicyIntentV3
	// Checked again here, not only at submission: policies created while
	// this one waited for votes may have taken the room it had.
	if why, err := s.policyBudgetExceeded(ctx, tx, a.OrgID, p); err != nil || why != "" {
		if err != nil {
			return r, err
		}
		return r, &execFailure{code: api.CodeResourceExhausted, msg: why}
	}
	id := newID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO policies(id, org_id, name, effect, condition, consensus, time_expr, notes, seq, created_ns, updated_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM policies WHERE org_id = ?), ?, ?)`,
		id, a.OrgID, p.PolicyName, p.Effect, p.Condition, p.Consensus, p.Time, p.Notes, a.OrgID, ns, ns); err != nil {
		return r, err
	}
	r.CreatePolicyResult = &api.CreatePolicyResult{PolicyID: id}
	return r, nil
}

func (s *Server) execDeleteWalletAccounts(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	in := a.Intent
	ids, err := deleteWalletAccounts(ctx, tx, a.OrgID, in.DeleteWalletAccountsIntent)
	if err != nil {
		return r, err
	}
	r.DeleteWalletAccountsResult = &api.DeleteWalletAccountsResult{WalletAccountIDs: ids}
	return r, nil
}

func (s *Server) execCreateUserTag(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	ns := now.UnixNano()
	in := a.Intent
	p := in.CreateUserTagIntent
	id := newID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO user_tags(id, org_id, name, created_ns) VALUES (?, ?, ?, ?)`, id, a.OrgID, p.UserTagName, ns); err != nil {
		return r, err
	}
	for i, u := range p.UserIDs {
		if err := userInOrg(ctx, tx, a.OrgID, u); err != nil {
			return r, failNotInOrg(err, fmt.Sprintf("userIds[%d]", i))
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO user_tag_members(tag_id, user_id) VALUES (?, ?)`, id, u); err != nil {
			return r, err
		}
	}
	r.CreateUserTagResult = &api.CreateUserTagResult{UserTagID: id, UserIDs: append([]string{}, p.UserIDs...)}
	return r, nil
}

func (s *Server) execDeleteAPIKeys(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	in := a.Intent
	p := in.DeleteAPIKeysIntent
	if err := userInOrg(ctx, tx, a.OrgID, p.UserID); err != nil {
		return r, failNotInOrg(err, "userId")
	}
	if err := s.refuseQuorumLockout(ctx, tx, a.OrgID, p.UserID, p.APIKeyIDs, now); err != nil {
		return r, err
	}
	for i, k := range p.APIKeyIDs {
		if err := execFound(ctx, tx, failf(api.CodeNotFound, "apiKeyIds[%d]: API key %q is not a key of user %s", i, k, p.UserID),
			`DELETE FROM api_keys WHERE id = ? AND user_id = ? AND org_id = ?`, k, p.UserID, a.OrgID); err != nil {
			return r, err
		}
	}
	r.DeleteAPIKeysResult = &api.DeleteAPIKeysResult{APIKeyIDs: append([]string{}, p.APIKeyIDs...)}
	return r, nil
}

func (s *Server) execCreateReadOnlySession(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	res, err := s.createReadOnlySession(ctx, tx, a, now)
	if err != nil {
		return r, err
	}
	r.CreateReadOnlySessionResult = res
	return r, nil
}

func (s *Server) execDeleteTvcDeployment(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	in := a.Intent
	p := in.DeleteTvcDeploymentIntent
	if err := execFound(ctx, tx, failf(api.CodeNotFound, "TVC deployment %q not found in this organization", p.DeploymentID),
		`DELETE FROM tvc_deployments WHERE id = ? AND org_id = ?`, p.DeploymentID, a.OrgID); err != nil {
		return r, err
	}
	r.DeleteTvcDeploymentResult = &api.DeleteTvcDeploymentResult{DeploymentID: p.DeploymentID}
	return r, nil
}

func (s *Server) execCreateMfaPolicy(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	ns := now.UnixNano()
	in := a.Intent
	id, err := insertMfaPolicy(ctx, tx, a.OrgID, in.CreateMfaPolicyIntent, ns)
	if err != nil {
		return r, err
	}
	r.CreateMfaPolicyResult = &api.CreateMfaPolicyResult{MfaPolicyID: id}
	return r, nil
}

func (s *Server) execOauth(ctx context.Context, tx *txn, a *activity, now time.Time) (api.Result, error) {
	var r api.Result
	in := a.Intent
	res, err := s.executeOauth(ctx, tx, a, in.OauthIntent, now)
	if err != nil {
		return r, err
	}
	r.OauthResult = res
	return r, nil
}

func userInOrg(ctx context.Context, q querier, orgID, userID string) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM users WHERE id = ? AND org_id = ?`, userID, orgID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return &notInOrgError{userID: userID}
	}
	return err
}

// notInOrgError is userInOrg's answer for a user who is not one of the
// organization's.
type notInOrgError struct{ userID string }

func (e *notInOrgError) Error() string {
	return messagef("user %q is not a user of this organization", e.userID)
}

// failNotInOrg makes userInOrg's refusal the activity's failure, about
// field. Any other error is the database failing, not the request: it stays
// an error, so that a disk error is never recorded as the activity's failure.
func failNotInOrg(err error, field string) error {
	if isNotInOrg(err) {
		return failf(api.CodeNotFound, "%s: %v", field, err)
	}
	return err
}

func isNotInOrg(err error) bool {
	var n *notInOrgError
	return errors.As(err, &n)
}

func insertMfaPolicy(ctx context.Context, q querier, orgID string, p *api.CreateMfaPolicyParams, ns int64) (string, error) {
	if err := userInOrg(ctx, q, orgID, p.UserID); err != nil {
		return "", failNotInOrg(err, "userId")
	}
	// Again here, in the write transaction: a pinned credential may have
	// been deleted since submission, while the activity waited for votes,
	// and one submitted before pins were judged by type may still wait.
	bad, err := unmeetableMfaPin(ctx, q, orgID, p, time.Unix(0, ns))
	if err != nil {
		return "", err
	}
	if bad != nil {
		format, args := bad.refusal()
		return "", failf(api.CodeFailedPrecondition, format, args...)
	}
	methods, err := json.Marshal(p.RequiredAuthenticationMethods)
	if err != nil {
		return "", err
	}
	id := newID()
	if _, err := q.ExecContext(ctx, `INSERT INTO mfa_policies(id, org_id, user_id, name, condition, methods, ord, notes, seq, created_ns, updated_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM mfa_policies WHERE org_id = ?), ?, ?)`,
		id, orgID, p.UserID, p.MfaPolicyName, p.Condition, string(methods), p.Order, p.Notes, orgID, ns, ns); err != nil {
		return "", err
	}
	return id, nil
}

// deleteWalletAccounts removes the accounts, all or none: an account that was
// never exported needs deleteWithoutExport (the flag is ignored for exported ones).
func deleteWalletAccounts(ctx context.Context, tx *txn, orgID string, p *api.DeleteWalletAccountsParams) ([]string, error) {
	force := p.DeleteWithoutExport != nil && *p.DeleteWithoutExport
	for i, id := range p.WalletAccountIDs {
		var exported int
		err := tx.QueryRowContext(ctx, `SELECT exported FROM wallet_accounts WHERE id = ? AND org_id = ?`, id, orgID).Scan(&exported)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, failf(api.CodeNotFound, "walletAccountIds[%d]: wallet account %q not found in this organization", i, id)
		}
		if err != nil {
			return nil, err
		}
		if exported == 0 && !force {
			return nil, failf(api.CodeFailedPrecondition, "wallet account %q was never exported; export it first, or set deleteWithoutExport to delete it anyway (its key is then lost)", id)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM wallet_accounts WHERE id = ?`, id); err != nil {
			return nil, err
		}
	}
	return append([]string{}, p.WalletAccountIDs...), nil
}

func loadFeatures(ctx context.Context, q querier, orgID string) ([]api.Feature, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, value FROM features WHERE org_id = ? ORDER BY name`, orgID)
	if err != nil {
		return nil, fmt.Errorf("load features: %w", err)
	}
	defer rows.Close()
	out := []api.Feature{}
	for rows.Next() {
		var f api.Feature
		if err := rows.Scan(&f.Name, &f.Value); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, rows.Err()
}

func parseSeconds(s string, def int64) int64 {
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return def
	}
	return n
}

// execFound runs a statement that must touch a row; when it touches none, the
// thing it names does not exist and notFound is the activity's failure.
func execFound(ctx context.Context, tx *txn, notFound error, query string, args ...any) error {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound
	}
	return nil
}
