package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// errWebhookRemoved is why a queued event is kept as dead unsent: the root
// quorum removed the organization's webhook after the event was queued, and
// the URL it had is no longer the organization's to be sent to.
var errWebhookRemoved = errors.New("the organization's webhook was removed after the event was queued")

// currentTarget is where ev is to be sent now: its organization's webhook
// URL as it is now, not as it was when the status changed, held to the
// demo's rule on that URL. The dispatcher asks before it hands ev to the
// deliverer, and the deliverer before each attempt (retarget): a root quorum
// that moves the webhook off a receiver (a compromised one, say) must not
// see events already queued, or being retried, keep going there. unsent says
// why ev must never be sent (it is kept as dead); err that the URL could not
// be read (ev stays pending and is tried again).
func (h *hooks) currentTarget(ev hookEvent) (url string, unsent, err error) {
	removed, err := h.pointAtCurrentURL(&ev)
	if err != nil {
		return "", nil, err
	}
	if removed {
		return "", errWebhookRemoved, nil
	}
	gone, err := h.demoListenerGone(ev)
	if err != nil {
		return "", nil, err
	}
	if gone {
		return "", errDemoListenerGone, nil
	}
	return ev.URL, nil, nil
}

// retarget is the deliverer's Retarget (webhook.DelivererOptions): no
// attempt, retries included, goes to a URL the quorum replaced meanwhile.
func (h *hooks) retarget(ev webhook.Event) (string, error) {
	url, unsent, err := h.currentTarget(ev)
	if unsent != nil {
		return "", unsent
	}
	return url, err
}

// neverSendable tells whether a delivery ended unsent for good: the
// organization's webhook was removed, the URL is an earlier demo run's
// listener, or it is not one the deliverer sends to. Any other failure
// leaves the event pending.
func neverSendable(err error) bool {
	return errors.Is(err, errWebhookRemoved) || errors.Is(err, errDemoListenerGone) || errors.Is(err, webhook.ErrInvalidURL)
}

// pointAtCurrentURL sets ev's URL to its organization's webhook URL as it
// is now, and reports removed when the organization has no webhook any
// more. Events for the demo's listener URL are left to the demo's rules
// (demoListenerGone, PointDemoWebhook), which re-point or end them
// themselves.
func (h *hooks) pointAtCurrentURL(ev *hookEvent) (removed bool, err error) {
	h.mu.Lock()
	demoURL := h.demo.org != "" && ev.OrgID == h.demo.org && (ev.URL == h.demo.last || h.demo.ours[ev.URL])
	h.mu.Unlock()
	if demoURL {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	current, err := h.readWebhookURL(ctx, ev.OrgID)
	if err != nil {
		return false, fmt.Errorf("read the webhook URL of %s: %w", ev.OrgID, err)
	}
	if current == "" {
		return true, nil
	}
	ev.URL = current
	return false, nil
}

// storedWebhookURL is hooks.readWebhookURL's default: org's
// FEATURE_NAME_WEBHOOK as stored, "" when it has none.
func (h *hooks) storedWebhookURL(ctx context.Context, org string) (string, error) {
	var current string
	err := h.db.read.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, org, api.FeatureWebhook).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return current, err
}
