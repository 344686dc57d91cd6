package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// These helpers put objects straight into the store, for objects no operation of
// SPEC.md creates (wallets, deployments, OAuth2 credentials, on-ramp
// transactions). Tests and the demo use them to build fixtures.

// WalletAccountSpec is an account to create in a wallet.
type WalletAccountSpec struct {
	Address  string
	Exported bool // exported accounts may be deleted without deleteWithoutExport
}

// AddWallet creates a wallet with its accounts and returns their ids.
func (s *Server) AddWallet(ctx context.Context, orgID, name string, accounts []WalletAccountSpec) (walletID string, accountIDs []string, err error) {
	walletID = newID()
	err = s.db.inTx(ctx, func(tx *txn) error {
		accountIDs = nil // a write job may run twice
		if _, err := loadOrg(ctx, tx, orgID); err != nil {
			return err
		}
		now := s.now().UnixNano()
		if _, err := tx.ExecContext(ctx, `INSERT INTO wallets(id, org_id, name, created_ns) VALUES (?, ?, ?, ?)`, walletID, orgID, name, now); err != nil {
			return err
		}
		for _, a := range accounts {
			id := newID()
			if _, err := tx.ExecContext(ctx, `INSERT INTO wallet_accounts(id, org_id, wallet_id, address, exported, created_ns) VALUES (?, ?, ?, ?, ?, ?)`,
				id, orgID, walletID, a.Address, boolInt(a.Exported), now); err != nil {
				return err
			}
			accountIDs = append(accountIDs, id)
		}
		return nil
	})
	if err != nil {
		return "", nil, fmt.Errorf("add wallet %s: %w", name, err)
	}
	return walletID, accountIDs, nil
}

// WalletAccountIDs lists the organization's remaining wallet account ids.
func (s *Server) WalletAccountIDs(ctx context.Context, orgID string) ([]string, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT id FROM wallet_accounts WHERE org_id = ? ORDER BY id`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// AddTvcDeployment creates a TVC deployment and returns its id.
func (s *Server) AddTvcDeployment(ctx context.Context, orgID, app, label string) (string, error) {
	id := newID()
	err := s.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tvc_deployments(id, org_id, app, label, created_ns) VALUES (?, ?, ?, ?, ?)`, id, orgID, app, label, s.now().UnixNano())
		return err
	})
	if err != nil {
		return "", fmt.Errorf("add TVC deployment: %w", err)
	}
	return id, nil
}

// AddOauth2Credential creates an OAuth2 credential whose client secret is
// encrypted to the TLS fetcher key, and returns its id.
func (s *Server) AddOauth2Credential(ctx context.Context, orgID, provider, clientID string) (string, error) {
	if !slices.Contains(api.Oauth2Providers(), provider) {
		return "", fmt.Errorf("add OAuth2 credential: unknown provider %q", provider)
	}
	secret, err := keys.EnvelopeEncrypt(s.creds.tlsFetcher.PublicKey().Bytes(), []byte("initial-secret"))
	if err != nil {
		return "", err
	}
	id := newID()
	err = s.db.inTx(ctx, func(tx *txn) error {
		now := s.now().UnixNano()
		_, err := tx.ExecContext(ctx, `INSERT INTO oauth2_credentials(id, org_id, provider, client_id, encrypted_client_secret, created_ns, updated_ns) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, orgID, provider, clientID, secret, now, now)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("add OAuth2 credential: %w", err)
	}
	return id, nil
}

// Oauth2Credential returns a credential's provider, client id and decrypted
// client secret (for tests that check an update took effect).
func (s *Server) Oauth2Credential(ctx context.Context, orgID, id string) (provider, clientID string, secret []byte, err error) {
	var enc string
	err = s.db.read.QueryRowContext(ctx, `SELECT provider, client_id, encrypted_client_secret FROM oauth2_credentials WHERE id = ? AND org_id = ?`, id, orgID).
		Scan(&provider, &clientID, &enc)
	if err != nil {
		return "", "", nil, fmt.Errorf("OAuth2 credential %s: %w", id, err)
	}
	secret, err = keys.EnvelopeDecrypt(s.creds.tlsFetcher, enc)
	return provider, clientID, secret, err
}

// AddOnrampTransaction records an on-ramp transaction in status
// PENDING, PROCESSING or COMPLETED.
func (s *Server) AddOnrampTransaction(ctx context.Context, orgID, id, status string) error {
	if !slices.Contains(onrampFlow, status) {
		return fmt.Errorf("add on-ramp transaction: status %q is not one of %v", status, onrampFlow)
	}
	return s.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO onramp_transactions(id, org_id, status, updated_ns) VALUES (?, ?, ?, ?)`, id, orgID, status, s.now().UnixNano())
		return err
	})
}
