package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// errConsoleBehind refuses a verified delivery the console has no room for:
// it is answered 503, so the service sends it again rather than lose it.
var errConsoleBehind = errors.New("the console is behind: answered 503, the service sends it again")

// consoleWebhookFeed starts the profile's webhook_listen listener for the
// console's Webhooks screen (nil when the profile has none); it stops with
// ctx. Deliveries are answered as 'vigil webhook listen' answers them and
// logged; none is printed, the console owns the terminal.
//
// Verified deliveries have a queue of their own, which refusals cannot
// fill; one that does not fit is answered 503. Refusals after a body was
// read have another, dropped when full; requests refused on their headers
// alone (anyone can send those, at no cost) are only counted, as are dropped
// refusals, with the last one kept as a sample.
func consoleWebhookFeed(ctx context.Context, p Profile, logger *slog.Logger) (*screens.WebhookFeed, error) {
	if p.WebhookListen == "" {
		return nil, nil
	}
	if p.BaseURL == "" {
		return nil, fmt.Errorf("profile %q: webhook_listen needs base_url, where the webhook keys are published", p.Name)
	}
	verified := make(chan screens.WebhookDelivery, 256)
	refused := make(chan screens.WebhookDelivery, 64)
	unlisted := make(chan screens.WebhookUnlisted, 1)
	var mu sync.Mutex
	closed := false
	var count screens.WebhookUnlisted
	countLocked := func(d screens.WebhookDelivery) {
		count.Count++
		count.Last = d
		select { // only the latest count matters
		case <-unlisted:
		default:
		}
		unlisted <- count
	}
	report := func(r deliveryReport) error {
		d := screens.WebhookDelivery{At: time.Now(), Verified: r.Verified, Redelivery: r.Redelivery, SignedAt: r.signedAt,
			EventID: r.EventID, KeyID: r.KeyID, OrganizationID: r.OrganizationID, ActivityID: r.ActivityID,
			Type: r.Type, Status: r.Status, Reason: r.Reason}
		mu.Lock()
		defer mu.Unlock()
		if closed {
			return errConsoleBehind
		}
		if r.unread {
			countLocked(d)
			return nil
		}
		logger.Info("webhook delivery", "verified", r.Verified, "redelivery", r.Redelivery, "event", api.SanitizeID(r.EventID),
			"org", api.SanitizeID(r.OrganizationID), "kid", api.SanitizeID(r.KeyID), "reason", api.Sanitize(r.Reason))
		if !r.Verified {
			select {
			case refused <- d:
			default:
				countLocked(d)
			}
			return nil
		}
		select {
		case verified <- d:
			return nil
		default:
			if r.Redelivery {
				// An event already accepted is answered 200 whatever this
				// returns (acceptLocked): nothing is lost, it is only not listed.
				logger.Info("webhook redelivery answered 200 (already accepted), not listed: the console is behind", "event", api.SanitizeID(r.EventID))
				return nil
			}
			logger.Warn("webhook delivery answered 503: the console is behind", "event", api.SanitizeID(r.EventID))
			return errConsoleBehind
		}
	}
	since := time.Now()
	ln, serve, err := startWebhookListener(p.WebhookListen, strings.TrimRight(p.BaseURL, "/"), p.OrganizationID, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, "", report)
	if err != nil {
		return nil, fmt.Errorf("profile %q: webhook_listen: %w", p.Name, err)
	}
	go func() {
		if err := serve(ctx); err != nil {
			logger.Error("webhook listener stopped", "err", err)
		}
		mu.Lock()
		closed = true
		close(verified)
		close(refused)
		close(unlisted)
		mu.Unlock()
	}()
	return &screens.WebhookFeed{Addr: ln.Addr().String(), Since: since, Deliveries: verified, Refused: refused, Unlisted: unlisted}, nil
}
