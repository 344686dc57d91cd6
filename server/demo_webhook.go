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

// demoWebhookState (service_state) is the URL the demo's webhook was last
// pointed at by PointDemoWebhook.
const demoWebhookState = "demo_webhook_url"

// demoWebhookPrevious (service_state) is what FEATURE_NAME_WEBHOOK was
// before a demo run first pointed it at its listener (a demoWebhookBefore
// in JSON). It is kept in the database, not in the run's memory, so that a
// run that crashed before its restore does not make the next run take the
// crashed run's listener URL for the one to put back.
const demoWebhookPrevious = "demo_webhook_previous"

// demoWebhookBefore is the stored demoWebhookPrevious.
type demoWebhookBefore struct {
	Had bool   `json:"had"` // false: the feature was not set
	URL string `json:"url,omitempty"`
}

// PointDemoWebhook points the demo organization's webhook
// (FEATURE_NAME_WEBHOOK) at target, directly, as SeedDemo sets the demo's
// other features, and returns restore, which puts back what was there unless
// the feature was changed meanwhile. What was there is kept in the database
// (demoWebhookPrevious) from the first run that points it, so that after a
// run that never restored it the next run puts back the organization's own
// value, not the crashed run's dead port. 'vigil demo' receives deliveries for its
// Webhooks screen on a new port at every start; outside the demo the webhook
// is a feature only the root quorum sets.
//
// Events still pending for the previous run's listener (its port is gone,
// or some other local program's now) are re-pointed at target: they are the
// demo's own. Call it before delivery starts (open with Config.HoldWebhooks,
// then StartWebhooks): a Server that has not pointed the demo's webhook at
// its own listener sends nothing to the URL it was last pointed at, and
// keeps the events for it as dead unsent (demoListener).
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
	s.hooks.pointingDemoAt(target)
	var repointed int64
	err = s.db.inTx(ctx, func(tx *txn) error {
		last, ok, err := getState(ctx, tx, demoWebhookState)
		if err != nil {
			return err
		}
		if err := rememberWebhookBeforeDemo(ctx, tx, orgID, last, ok); err != nil {
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
		_, err = tx.ExecContext(ctx, `INSERT INTO features(org_id, name, value) VALUES (?, ?, ?)
			ON CONFLICT(org_id, name) DO UPDATE SET value = excluded.value`, orgID, api.FeatureWebhook, target)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("demo webhook: %w", err)
	}
	s.hooks.pointedDemoAt(orgID, target)
	if repointed > 0 {
		s.log.Info("demo webhook: pending events of the previous run's listener go to this run's", "events", repointed)
	}
	restore = func(ctx context.Context) error {
		err := s.db.inTx(ctx, func(tx *txn) error {
			before, ok, err := webhookBeforeDemo(ctx, tx)
			if err != nil || !ok {
				// Forgotten: the root quorum set the feature since
				// (demoWebhookReplaced), and it stays theirs.
				return err
			}
			var res sql.Result
			if before.Had {
				res, err = tx.ExecContext(ctx, `UPDATE features SET value = ? WHERE org_id = ? AND name = ? AND value = ?`, before.URL, orgID, api.FeatureWebhook, target)
			} else {
				res, err = tx.ExecContext(ctx, `DELETE FROM features WHERE org_id = ? AND name = ? AND value = ?`, orgID, api.FeatureWebhook, target)
			}
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return err // changed meanwhile: whoever changed it settled the URL
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM service_state WHERE key = ?`, demoWebhookPrevious); err != nil {
				return fmt.Errorf("forget the webhook URL from before the demo: %w", err)
			}
			return forgetDemoURLUnlessPending(ctx, tx, orgID, target)
		})
		if err != nil {
			return fmt.Errorf("demo webhook: restore %s: %w", api.FeatureWebhook, err)
		}
		return nil
	}
	return restore, nil
}

// rememberWebhookBeforeDemo stores in demoWebhookPrevious what org's
// FEATURE_NAME_WEBHOOK is now, unless it is a demo listener's URL (last,
// when lastOK): then it is an earlier run's that never restored it (killed,
// crashed, its terminal closed), and what that run stored is kept. A demo
// URL with nothing stored (a run before the record existed) is put back as
// unset: sending to a dead demo port is never what was there before.
func rememberWebhookBeforeDemo(ctx context.Context, tx *txn, org string, last []byte, lastOK bool) error {
	var current string
	switch err := tx.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, org, api.FeatureWebhook).Scan(&current); {
	case errors.Is(err, sql.ErrNoRows):
		return putWebhookBeforeDemo(ctx, tx, demoWebhookBefore{})
	case err != nil:
		return fmt.Errorf("read %s: %w", api.FeatureWebhook, err)
	}
	if !lastOK || current != string(last) {
		return putWebhookBeforeDemo(ctx, tx, demoWebhookBefore{Had: true, URL: current})
	}
	if _, ok, err := webhookBeforeDemo(ctx, tx); err != nil || ok {
		return err
	}
	return putWebhookBeforeDemo(ctx, tx, demoWebhookBefore{})
}

func putWebhookBeforeDemo(ctx context.Context, tx *txn, before demoWebhookBefore) error {
	raw, err := json.Marshal(before)
	if err != nil {
		return fmt.Errorf("encode the webhook URL from before the demo: %w", err)
	}
	return putState(ctx, tx, demoWebhookPrevious, raw)
}

func webhookBeforeDemo(ctx context.Context, q querier) (demoWebhookBefore, bool, error) {
	var before demoWebhookBefore
	raw, ok, err := getState(ctx, q, demoWebhookPrevious)
	if err != nil || !ok {
		return before, false, err
	}
	if err := json.Unmarshal(raw, &before); err != nil {
		return before, false, fmt.Errorf("stored webhook URL from before the demo: %w", err)
	}
	return before, true, nil
}

// forgetDemoURLUnlessPending deletes demoWebhookState if it is url and no
// event of org is pending for url any more: with the feature no longer
// naming it, only the demo's own events carry that URL, and with none left
// nothing is to be held back. Left pending, they are the demo's: the next
// run re-points them, any other Server keeps them as dead unsent.
func forgetDemoURLUnlessPending(ctx context.Context, tx *txn, org, url string) error {
	var pending int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_outbox WHERE org_id = ? AND state = 'pending' AND url = ?`, org, url).Scan(&pending); err != nil {
		return fmt.Errorf("count the demo listener's pending events: %w", err)
	}
	if pending > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM service_state WHERE key = ? AND value = ?`, demoWebhookState, []byte(url)); err != nil {
		return fmt.Errorf("forget the demo's webhook URL: %w", err)
	}
	return nil
}

// demoWebhookReplaced runs in the transaction of a completed
// set_organization_feature of FEATURE_NAME_WEBHOOK for org: from then on
// the feature is the root quorum's, and a URL equal to an earlier demo
// run's is theirs to be sent to. The demo's own events still pending for
// an earlier run's listener are kept as dead unsent now (their listener is
// gone; no later run re-points them), so that the rule holds back nothing
// else; those of this Server's live listener are still delivered.
func (s *Server) demoWebhookReplaced(ctx context.Context, tx *txn, org string) error {
	rawInfo, ok, err := getState(ctx, tx, stateDemoInfo)
	if err != nil || !ok {
		return err
	}
	var info DemoInfo
	if err := json.Unmarshal(rawInfo, &info); err != nil {
		return fmt.Errorf("stored demo info: %w", err)
	}
	if info.OrganizationID != org {
		return nil
	}
	// What was there before the demo is no longer what a demo's restore
	// puts back: the quorum's URL is.
	if _, err := tx.ExecContext(ctx, `DELETE FROM service_state WHERE key = ?`, demoWebhookPrevious); err != nil {
		return fmt.Errorf("forget the webhook URL from before the demo: %w", err)
	}
	last, ok, err := getState(ctx, tx, demoWebhookState)
	if err != nil || !ok {
		return err
	}
	url := string(last)
	if !s.hooks.isOurDemoURL(url) {
		res, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET state = 'dead', next_attempt_ns = 0, stays = stays + 1, last_error = ?
			WHERE org_id = ? AND state = 'pending' AND url = ?`, "not sent: "+errDemoListenerGone.Error(), org, url)
		if err != nil {
			return fmt.Errorf("keep the earlier demo run's pending events as dead: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			if _, err := tx.ExecContext(ctx, outboxTrimQuery, org, org, maxDeadWebhooksPerOrg); err != nil {
				return fmt.Errorf("trim dead webhooks of %s: %w", org, err)
			}
		}
	}
	return forgetDemoURLUnlessPending(ctx, tx, org, url)
}

// errDemoListenerGone is why an event for the listener of an earlier
// 'vigil demo' run is kept as dead unsent (demoListener).
var errDemoListenerGone = errors.New("it was for the listener of an earlier 'vigil demo' run, which is gone (its random port may be another program's now)")

// demoListener is what the dispatcher knows of the demo's webhook listener.
// 'vigil demo' listens on a new random port at each run, so the URL
// PointDemoWebhook last set is only worth sending to by the Server of that
// run: any other (a later 'vigil serve', a demo run that crashed before it
// restored the feature) would send the demo's events to a port that may be
// some other program's now. Such events become dead unsent, logged.
type demoListener struct {
	org  string          // the demo organization; "" while there is none
	last string          // the URL PointDemoWebhook last set (demoWebhookState)
	ours map[string]bool // the URLs this Server's PointDemoWebhook set
}

// goneLocked tells whether ev is for the listener of an earlier demo run.
func (d *demoListener) goneLocked(ev hookEvent) bool {
	return d.org != "" && ev.OrgID == d.org && ev.URL == d.last && !d.ours[ev.URL]
}

// demoListenerGone is goneLocked for the dispatcher, confirmed by the
// stored demoWebhookState: a set_organization_feature or the demo's restore
// may have forgotten the URL since it was read, and then ev is sent.
func (h *hooks) demoListenerGone(ev hookEvent) (bool, error) {
	h.mu.Lock()
	gone := h.demo.goneLocked(ev)
	h.mu.Unlock()
	if !gone {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	last, _, err := getState(ctx, h.db.read, demoWebhookState)
	if err != nil {
		return false, fmt.Errorf("read the demo's webhook URL: %w", err)
	}
	if string(last) == ev.URL {
		return true, nil
	}
	h.mu.Lock()
	if h.demo.last == ev.URL {
		h.demo.last = string(last)
	}
	h.mu.Unlock()
	return false, nil
}

// isOurDemoURL tells whether this Server's PointDemoWebhook set url.
func (h *hooks) isOurDemoURL(url string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.demo.ours[url]
}

// pointingDemoAt records, before PointDemoWebhook changes anything, that
// url is this Server's listener: its events are never taken for an earlier
// run's, even while the re-pointing commits.
func (h *hooks) pointingDemoAt(url string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.demo.ours == nil {
		h.demo.ours = map[string]bool{}
	}
	h.demo.ours[url] = true
}

// pointedDemoAt records what PointDemoWebhook committed.
func (h *hooks) pointedDemoAt(org, url string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.demo.org, h.demo.last = org, url
}

// loadDemoListener reads the demo organization and the URL its webhook was
// last pointed at, once delivery may begin and before anything is sent, and
// says how many pending events will therefore not be sent.
func (h *hooks) loadDemoListener() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rawInfo, ok, err := getState(ctx, h.db.read, stateDemoInfo)
	if err != nil || !ok {
		return err
	}
	var info DemoInfo
	if err := json.Unmarshal(rawInfo, &info); err != nil {
		return fmt.Errorf("stored demo info: %w", err)
	}
	last, ok, err := getState(ctx, h.db.read, demoWebhookState)
	if err != nil || !ok {
		return err
	}
	h.mu.Lock()
	if h.demo.last == "" { // else PointDemoWebhook told what is newer
		h.demo.org, h.demo.last = info.OrganizationID, string(last)
	}
	d := demoListener{org: h.demo.org, last: h.demo.last}
	ours := h.demo.ours[d.last]
	h.mu.Unlock()
	if ours {
		return nil
	}
	var n int
	if err := h.db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending' AND org_id = ? AND url = ?`, d.org, d.last).Scan(&n); err != nil {
		return fmt.Errorf("count the events of the demo's previous listener: %w", err)
	}
	if n > 0 {
		h.log.Warn("demo webhook: events pending for an earlier 'vigil demo' run's listener are not sent (its random port may be another program's now); they are kept as dead, each logged, in webhook_outbox (state 'dead', last_error says why)",
			"org", d.org, "events", n)
	}
	return nil
}
