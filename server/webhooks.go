package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

const stateWebhookRing = "webhook_keyring"

// hooks delivers activity status changes to the URL of an organization's
// FEATURE_NAME_WEBHOOK, signed with the service's key ring (kept in the store).
type hooks struct {
	ring      *webhook.KeyRing
	deliverer *webhook.Deliverer
	log       *slog.Logger
}

// hookEvent is a delivery decided inside a transaction, sent after it commits.
type hookEvent = webhook.Event

func openHooks(ctx context.Context, db *store, client *http.Client, log *slog.Logger) (*hooks, error) {
	var ring *webhook.KeyRing
	err := db.inTx(ctx, func(tx *txn) error {
		raw, ok, err := getState(ctx, tx, stateWebhookRing)
		if err != nil {
			return err
		}
		if ok {
			if ring, err = webhook.LoadKeyRing(raw); err != nil {
				return fmt.Errorf("stored webhook key ring: %w", err)
			}
			return nil
		}
		if ring, err = webhook.NewKeyRing(); err != nil {
			return err
		}
		if raw, err = ring.Marshal(); err != nil {
			return err
		}
		return putState(ctx, tx, stateWebhookRing, raw)
	})
	if err != nil {
		return nil, err
	}
	d := webhook.NewDeliverer(ring, client, webhook.DelivererOptions{
		Logger: log,
		OnResult: func(ev webhook.Event, r webhook.Result) {
			if !r.Delivered {
				log.Warn("webhook not delivered", "org", ev.OrgID, "event", ev.EventID, "attempts", r.Attempts, "status", r.StatusCode, "err", r.Err)
			}
		},
	})
	return &hooks{ring: ring, deliverer: d, log: log}, nil
}

func (h *hooks) jwks() api.JWKS { return h.ring.JWKS() }

func (h *hooks) close(ctx context.Context) error {
	err := h.deliverer.Close(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		h.log.Warn("webhook deliveries abandoned at shutdown")
		return nil
	}
	return err
}

// eventFor builds the delivery of the activity's current state, or nil when
// the organization has no webhook.
func (h *hooks) eventFor(ctx context.Context, q querier, a *activity) (*hookEvent, error) {
	var url string
	err := q.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, a.OrgID, api.FeatureWebhook).Scan(&url)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && url == "") {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read webhook feature: %w", err)
	}
	body, err := json.Marshal(a.toAPI("", false))
	if err != nil {
		return nil, err
	}
	return &hookEvent{OrgID: a.OrgID, EventID: a.ID + ":" + a.Status, URL: url, Body: body}, nil
}

func (h *hooks) send(events []hookEvent) {
	for _, ev := range events {
		if err := h.deliverer.Enqueue(ev); err != nil {
			h.log.Warn("webhook not queued", "org", ev.OrgID, "event", ev.EventID, "err", err)
		}
	}
}
