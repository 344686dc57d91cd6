package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// PointDemoWebhook points the demo organization's webhook
// (FEATURE_NAME_WEBHOOK) at target, directly, as SeedDemo sets the demo's
// other features, and returns restore, which puts back what was there unless
// the feature was changed meanwhile. 'vigil demo' receives deliveries for its
// Webhooks screen on a new port at every start; outside the demo the webhook
// is a feature only the root quorum sets.
func PointDemoWebhook(ctx context.Context, s *Server, target string) (restore func(context.Context) error, err error) {
	if target == "" {
		return nil, errors.New("demo webhook: no URL; give the listener's absolute http(s) URL")
	}
	if err := api.CheckFeatureValue(api.FeatureWebhook, target); err != nil {
		return nil, fmt.Errorf("demo webhook: %w", err)
	}
	info, _, err := s.loadDemo(ctx)
	if err != nil {
		return nil, fmt.Errorf("demo webhook: %w", err)
	}
	if info == nil {
		return nil, errors.New("demo webhook: this data directory holds no demo organization (seed it with SeedDemo)")
	}
	orgID := info.OrganizationID
	var previous string
	var had bool
	err = s.db.inTx(ctx, func(tx *txn) error {
		switch err := tx.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, orgID, api.FeatureWebhook).Scan(&previous); {
		case errors.Is(err, sql.ErrNoRows):
			previous, had = "", false
		case err != nil:
			return err
		default:
			had = true
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)
			ON CONFLICT(org_id, name) DO UPDATE SET value = excluded.value`, orgID, api.FeatureWebhook, target)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("demo webhook: %w", err)
	}
	restore = func(ctx context.Context) error {
		err := s.db.inTx(ctx, func(tx *txn) error {
			var err error
			if had {
				_, err = tx.ExecContext(ctx, `UPDATE features SET value = ? WHERE org_id = ? AND name = ? AND value = ?`, previous, orgID, api.FeatureWebhook, target)
			} else {
				_, err = tx.ExecContext(ctx, `DELETE FROM features WHERE org_id = ? AND name = ? AND value = ?`, orgID, api.FeatureWebhook, target)
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("demo webhook: restore %s: %w", api.FeatureWebhook, err)
		}
		return nil
	}
	return restore, nil
}
