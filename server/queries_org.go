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

func (s *Server) queryListPolicies(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
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

func (s *Server) queryGetPolicy(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
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
	rows, err := q.QueryContext(ctx, `SELECT id, name, effect, condition, consensus, time_expr, notes, created_ns, updated_ns FROM policies WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("load policies: %w", err)
	}
	defer rows.Close()
	out := []api.Policy{}
	for rows.Next() {
		var p api.Policy
		var created, updated int64
		if err := rows.Scan(&p.PolicyID, &p.PolicyName, &p.Effect, &p.Condition, &p.Consensus, &p.Time, &p.Notes, &created, &updated); err != nil {
			return nil, err
		}
		p.CreatedAt, p.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
		out = append(out, p)
	}
	return out, rows.Err()
}

// Onramp transaction statuses, in the order refresh advances them.
var onrampFlow = []string{"PENDING", "PROCESSING", "COMPLETED"}

func (s *Server) queryGetOnrampTransactionStatus(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
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

// walletKitConfig serves the auth proxy configuration with this id. Its
// organizationId is the organization the configuration belongs to (the
// row's org_id), whatever the stored JSON says: a browser's login kit signs
// users in to the organization it is told, so a stored value naming another
// one must never reach it.
func (s *Server) walletKitConfig(ctx context.Context, id string) (api.WalletKitConfig, error) {
	var cfg api.WalletKitConfig
	var orgID, raw string
	err := s.db.read.QueryRowContext(ctx, `SELECT org_id, config FROM auth_proxy_configs WHERE id = ?`, id).Scan(&orgID, &raw)
	if errors.Is(err, sql.ErrNoRows) {
		return cfg, unauthenticatedf("UNKNOWN_AUTH_PROXY_CONFIG", "auth proxy configuration %q not found; check %s", truncateForMessage(id), api.AuthProxyConfigIDHeader)
	}
	if err != nil {
		return cfg, err
	}
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return cfg, fmt.Errorf("stored auth proxy config %s: %w", id, err)
	}
	if cfg.OrganizationID != orgID && cfg.OrganizationID != "" {
		s.log.Warn("stored auth proxy config names another organization; serving its own", "configId", id,
			"organizationId", orgID, "stored", truncateForMessage(cfg.OrganizationID))
	}
	cfg.OrganizationID = orgID
	return cfg, nil
}
