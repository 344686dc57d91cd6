package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/api"
)

// errWebhookRemoved is why a queued event is kept as dead unsent: the root
// quorum removed the organization's webhook after the event was queued, and
// the URL it had is no longer the organization's to be sent to.
var errWebhookRemoved = errors.New("the organization's webhook was removed after the event was queued")

// pointAtCurrentURL makes ev go to its organization's webhook URL as it is
// now, not as it was when the status changed: a root quorum that moves the
// webhook off a receiver (a compromised one, say) must not see the events
// already queued keep going there. It reports removed when the organization
// has no webhook any more. Events for the demo's listener URL are left to
// the demo's rules (demoListenerGone, PointDemoWebhook), which re-point or
// end them themselves.
func (h *hooks) pointAtCurrentURL(ev *hookEvent) (removed bool, err error) {
	h.mu.Lock()
	demoURL := h.demo.org != "" && ev.OrgID == h.demo.org && (ev.URL == h.demo.last || h.demo.ours[ev.URL])
	h.mu.Unlock()
	if demoURL {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var current string
	err = h.db.read.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, ev.OrgID, api.FeatureWebhook).Scan(&current)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("read the webhook URL of %s: %w", ev.OrgID, err)
	case current == "":
		return true, nil
	}
	ev.URL = current
	return false, nil
}
