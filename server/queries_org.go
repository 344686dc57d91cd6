package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/api"
)

func (s *Server) queryListPolicies(ctx context.Context, c *caller, body []byte) (any, error) {
	var req api.ListPoliciesRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	ps, err := loadPolicies(ctx, s.db.read, `org_id = ?`, c.OrgID)
	if err != nil {
		return nil, err
	}
	return api.ListPoliciesResponse{Policies: ps}, nil
}

func (s *Server) queryGetPolicy(ctx context.Context, c *caller, body []byte) (any, error) {
	var req api.GetPolicyRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("policyId", req.PolicyID); err != nil {
		return nil, err
	}
	ps, err := loadPolicies(ctx, s.db.read, `org_id = ? AND id = ?`, c.OrgID, req.PolicyID)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, notFoundf("POLICY_NOT_FOUND", "policy %q not found in organization %q", req.PolicyID, c.OrgID)
	}
	return api.GetPolicyResponse{Policy: ps[0]}, nil
}

func loadPolicies(ctx context.Context, q querier, where string, args ...any) ([]api.Policy, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, name, effect, condition, consensus, notes, created_ns, updated_ns FROM policies WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("load policies: %w", err)
	}
	defer rows.Close()
	out := []api.Policy{}
	for rows.Next() {
		var p api.Policy
		var created, updated int64
		if err := rows.Scan(&p.PolicyID, &p.PolicyName, &p.Effect, &p.Condition, &p.Consensus, &p.Notes, &created, &updated); err != nil {
			return nil, err
		}
		p.CreatedAt, p.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
		out = append(out, p)
	}
	return out, rows.Err()
}

func (s *Server) queryListMfaPolicies(ctx context.Context, c *caller, body []byte) (any, error) {
	var req api.ListMfaPoliciesRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	where, args := `org_id = ?`, []any{c.OrgID}
	if req.UserID != "" {
		where += ` AND user_id = ?`
		args = append(args, req.UserID)
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT id, user_id, name, condition, methods, ord, notes, created_ns, updated_ns
		FROM mfa_policies WHERE `+where+` ORDER BY ord, seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("load MFA policies: %w", err)
	}
	defer rows.Close()
	out := api.ListMfaPoliciesResponse{MfaPolicies: []api.MfaPolicy{}}
	for rows.Next() {
		var p api.MfaPolicy
		var methods string
		var created, updated int64
		if err := rows.Scan(&p.MfaPolicyID, &p.UserID, &p.MfaPolicyName, &p.Condition, &methods, &p.Order, &p.Notes, &created, &updated); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(methods), &p.RequiredAuthenticationMethods); err != nil {
			return nil, err
		}
		p.CreatedAt, p.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
		out.MfaPolicies = append(out.MfaPolicies, p)
	}
	return out, rows.Err()
}

func (s *Server) queryListUsers(ctx context.Context, c *caller, body []byte) (any, error) {
	var req api.ListUsersRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	users, err := s.loadUsers(ctx, c.OrgID, "")
	if err != nil {
		return nil, err
	}
	return api.ListUsersResponse{Users: users}, nil
}

func (s *Server) queryGetUser(ctx context.Context, c *caller, body []byte) (any, error) {
	var req api.GetUserRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("userId", req.UserID); err != nil {
		return nil, err
	}
	users, err := s.loadUsers(ctx, c.OrgID, req.UserID)
	if err != nil {
		return nil, err
	}
	if len(users) == 0 {
		return nil, notFoundf("USER_NOT_FOUND", "user %q not found in organization %q", req.UserID, c.OrgID)
	}
	return api.GetUserResponse{User: users[0]}, nil
}

// loadUsers loads the organization's users (or the one with onlyID) with their
// API keys, authenticators and tag ids.
func (s *Server) loadUsers(ctx context.Context, orgID, onlyID string) ([]api.User, error) {
	q := s.db.read
	where, args := `org_id = ?`, []any{orgID}
	if onlyID != "" {
		where += ` AND id = ?`
		args = append(args, onlyID)
	}
	rows, err := q.QueryContext(ctx, `SELECT id, name, email, created_ns, updated_ns FROM users WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("load users: %w", err)
	}
	var users []api.User
	for rows.Next() {
		u := api.User{APIKeys: []api.APIKey{}, Authenticators: []api.Authenticator{}, UserTags: []string{}}
		var created, updated int64
		if err := rows.Scan(&u.UserID, &u.UserName, &u.UserEmail, &created, &updated); err != nil {
			rows.Close()
			return nil, err
		}
		u.CreatedAt, u.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
		users = append(users, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if users == nil {
		return []api.User{}, nil
	}
	keys, err := loadAPIKeys(ctx, q, `org_id = ?`, orgID)
	if err != nil {
		return nil, err
	}
	auths := map[string][]api.Authenticator{}
	arows, err := q.QueryContext(ctx, `SELECT id, user_id, name, credential_id, public_key, created_ns, updated_ns FROM authenticators WHERE org_id = ? ORDER BY created_ns`, orgID)
	if err != nil {
		return nil, err
	}
	for arows.Next() {
		var a api.Authenticator
		var user string
		var created, updated int64
		if err := arows.Scan(&a.AuthenticatorID, &user, &a.AuthenticatorName, &a.CredentialID, &a.Credential.PublicKey, &created, &updated); err != nil {
			arows.Close()
			return nil, err
		}
		a.Credential.Type = api.CredentialWebAuthnAuthenticator
		a.CreatedAt, a.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
		auths[user] = append(auths[user], a)
	}
	arows.Close()
	tags := map[string][]string{}
	trows, err := q.QueryContext(ctx, `SELECT m.user_id, m.tag_id FROM user_tag_members m JOIN user_tags t ON t.id = m.tag_id WHERE t.org_id = ? ORDER BY t.created_ns, t.id`, orgID)
	if err != nil {
		return nil, err
	}
	for trows.Next() {
		var user, tag string
		if err := trows.Scan(&user, &tag); err != nil {
			trows.Close()
			return nil, err
		}
		tags[user] = append(tags[user], tag)
	}
	trows.Close()
	for i := range users {
		id := users[i].UserID
		if k := keys[id]; k != nil {
			users[i].APIKeys = k
		}
		if a := auths[id]; a != nil {
			users[i].Authenticators = a
		}
		if t := tags[id]; t != nil {
			users[i].UserTags = t
		}
	}
	return users, nil
}

// Onramp transaction statuses, in the order refresh advances them.
var onrampFlow = []string{"PENDING", "PROCESSING", "COMPLETED"}

func (s *Server) queryGetOnrampTransactionStatus(ctx context.Context, c *caller, body []byte) (any, error) {
	var req api.GetOnrampTransactionStatusRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("transactionId", req.TransactionID); err != nil {
		return nil, err
	}
	var status string
	err := s.db.read.QueryRowContext(ctx, `SELECT status FROM onramp_transactions WHERE id = ? AND org_id = ?`, req.TransactionID, c.OrgID).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFoundf("TRANSACTION_NOT_FOUND", "on-ramp transaction %q not found in organization %q", req.TransactionID, c.OrgID)
	}
	if err != nil {
		return nil, err
	}
	if req.Refresh != nil && *req.Refresh {
		// "Refreshing from the provider": the local provider moves a
		// transaction one step along PENDING → PROCESSING → COMPLETED per refresh.
		err := s.db.inTx(ctx, func(tx *txn) error {
			if err := tx.QueryRowContext(ctx, `SELECT status FROM onramp_transactions WHERE id = ?`, req.TransactionID).Scan(&status); err != nil {
				return err
			}
			for i, st := range onrampFlow[:len(onrampFlow)-1] {
				if st == status {
					status = onrampFlow[i+1]
					_, err := tx.ExecContext(ctx, `UPDATE onramp_transactions SET status = ?, updated_ns = ? WHERE id = ?`, status, s.now().UnixNano(), req.TransactionID)
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return api.GetOnrampTransactionStatusResponse{TransactionStatus: status}, nil
}

// walletKitConfig serves the auth proxy configuration with this id.
func (s *Server) walletKitConfig(ctx context.Context, id string) (api.WalletKitConfig, error) {
	var cfg api.WalletKitConfig
	var raw string
	err := s.db.read.QueryRowContext(ctx, `SELECT config FROM auth_proxy_configs WHERE id = ?`, id).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return cfg, unauthenticatedf("UNKNOWN_AUTH_PROXY_CONFIG", "auth proxy configuration %q not found; check %s", truncateForMessage(id), api.AuthProxyConfigIDHeader)
	}
	if err != nil {
		return cfg, err
	}
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return cfg, fmt.Errorf("stored auth proxy config %s: %w", id, err)
	}
	return cfg, nil
}
