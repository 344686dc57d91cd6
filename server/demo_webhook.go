package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// demoWebhookState (service_state) is the URL the demo's webhook was last
// pointed at by PointDemoWebhook.
const demoWebhookState = "demo_webhook_url"

// PointDemoWebhook points the demo organization's webhook
// (FEATURE_NAME_WEBHOOK) at target, directly, as SeedDemo sets the demo's
// other features, and returns restore, which puts back what was there unless
// the feature was changed meanwhile. 'vigil demo' receives deliveries for its
// Webhooks screen on a new port at every start; outside the demo the webhook
// is a feature only the root quorum sets.
//
// Events still pending for the previous run's listener (its port is gone,
// or some other local program's now) are re-pointed at target: they are the
// demo's own, and would otherwise be retried against that port for 24 hours.
// Call it before delivery starts (open with Config.HoldWebhooks, then
// StartWebhooks), or such an event may be sent to that port first.
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
	var repointed int64
	err = s.db.inTx(ctx, func(tx *txn) error {
		last, ok, err := getState(ctx, tx, demoWebhookState)
		if err != nil {
			return err
		}
		if ok && string(last) != target {
			res, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET url = ? WHERE org_id = ? AND state = 'pending' AND url = ?`, target, orgID, string(last))
			if err != nil {
				return fmt.Errorf("re-point the previous run's pending events: %w", err)
			}
			repointed, _ = res.RowsAffected()
		}
		if err := putState(ctx, tx, demoWebhookState, []byte(target)); err != nil {
			return err
		}
		switch err := tx.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, orgID, api.FeatureWebhook).Scan(&previous); {
		case errors.Is(err, sql.ErrNoRows):
			previous, had = "", false
		case err != nil:
			return err
		default:
			had = true
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)
			ON CONFLICT(org_id, name) DO UPDATE SET value = excluded.value`, orgID, api.FeatureWebhook, target)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("demo webhook: %w", err)
	}
	if repointed > 0 {
		s.log.Info("demo webhook: pending events of the previous run's listener go to this run's", "events", repointed)
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
