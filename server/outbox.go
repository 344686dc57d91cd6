package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// The webhook outbox (table webhook_outbox, migration 12) makes delivery
// at-least-once: castVote inserts an event in the transaction that changes
// the activity's status, and the dispatcher (one goroutine owned by hooks)
// hands due rows to the in-memory webhook.Deliverer, never more than an
// organization's room in it, and records each outcome through the writer:
// delivered rows are deleted, refused ones (3xx/4xx) and ones undelivered
// after GiveUpAfter become dead, the others wait and are queued again.

// Defaults of WebhookOptions.
const (
	DefaultWebhookRequeue     = time.Minute
	DefaultWebhookMaxRequeue  = 30 * time.Minute
	DefaultWebhookGiveUpAfter = 24 * time.Hour
)

// maxInFlightPerOrg bounds the events of one organization handed to the
// deliverer at a time. Its receiver gets two requests at once anyway
// (webhook.DefaultOrgConcurrency); the rest wait in the outbox, so that
// organizations whose receivers fail hold few places of the shared queue.
const maxInFlightPerOrg = 8

// defaultStay bounds one stay of an event in the in-memory queue (its
// retries with backoff) unless WebhookOptions.Delivery sets MaxEventAge:
// after it the outbox waits Requeue and queues the event again, so a failing
// receiver's events do not hold queue places for long.
const defaultStay = 2 * time.Minute

// WebhookRedeliveryHorizon is, with the default options, the longest time
// between a receiver's first and last copy of an event: no attempt starts
// after the give-up instant (lastSendingTime), GiveUpAfter after the status
// change that precedes the first copy, and an attempt lasts at most the
// deliverer's AttemptTimeout. A receiver that drops duplicates by event id
// ('vigil webhook listen') remembers ids at least this long.
const WebhookRedeliveryHorizon = DefaultWebhookGiveUpAfter + webhook.DefaultAttemptTimeout

// RedeliveryHorizon is, with these options, the longest time between a
// receiver's first and last copy of an event (WebhookRedeliveryHorizon with
// the defaults): a receiver that drops duplicates by event id must remember
// ids this long ('vigil webhook listen --remember').
func (o WebhookOptions) RedeliveryHorizon() time.Duration {
	o = o.withDefaults()
	attempt := o.Delivery.AttemptTimeout
	if attempt <= 0 {
		attempt = webhook.DefaultAttemptTimeout
	}
	return o.GiveUpAfter + attempt
}

// maxDeadWebhooksPerOrg bounds the dead rows kept for each organization (the
// newest), so that a receiver refusing everything cannot grow the database.
const maxDeadWebhooksPerOrg = 100

// maxOutboxError bounds the last_error kept with a row.
const maxOutboxError = 512

// WebhookOptions tunes webhook delivery. Zero values mean the defaults.
type WebhookOptions struct {
	// Delivery tunes one stay of an event in the in-memory delivery queue:
	// attempts, backoff, MaxEventAge and each organization's share. Its
	// Logger and OnResult are the service's own: those set here are ignored.
	Delivery webhook.DelivererOptions
	// Requeue is the wait before an event whose stay ended undelivered is
	// queued again; it doubles with each stay, up to MaxRequeue.
	Requeue    time.Duration
	MaxRequeue time.Duration
	// GiveUpAfter is the age (from the status change) after which an
	// event is never sent: still undelivered then, it is marked dead
	// (logged at ERROR: "webhook given up"), also when a restart finds it
	// pending.
	GiveUpAfter time.Duration
}

func (o WebhookOptions) withDefaults() WebhookOptions {
	if o.Requeue <= 0 {
		o.Requeue = DefaultWebhookRequeue
	}
	if o.MaxRequeue <= 0 {
		o.MaxRequeue = DefaultWebhookMaxRequeue
	}
	o.MaxRequeue = max(o.MaxRequeue, o.Requeue)
	if o.GiveUpAfter <= 0 {
		o.GiveUpAfter = DefaultWebhookGiveUpAfter
	}
	if o.Delivery.MaxEventAge <= 0 {
		o.Delivery.MaxEventAge = defaultStay
	}
	return o
}

// WebhookOutboxStats counts the outbox's rows.
type WebhookOutboxStats struct {
	Pending int  // events not yet delivered, in delivery or waiting
	Dead    int  // refused by their receiver or given up; the newest 100 per organization
	Held    bool // delivery not started yet (Config.HoldWebhooks, until StartWebhooks)
}

// WebhookOutbox counts the events waiting for delivery and the dead ones.
func (s *Server) WebhookOutbox(ctx context.Context) (WebhookOutboxStats, error) {
	var st WebhookOutboxStats
	err := s.db.read.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending'),
		(SELECT COUNT(*) FROM webhook_outbox WHERE state = 'dead')`).Scan(&st.Pending, &st.Dead)
	if err != nil {
		return st, fmt.Errorf("count webhook outbox: %w", err)
	}
	st.Held = !s.hooks.started()
	return st, nil
}

// insertOutbox makes ev durable in the status change's transaction, due now.
func insertOutbox(ctx context.Context, tx *txn, ev *hookEvent, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_outbox(org_id, event_id, url, body, created_ns, next_attempt_ns)
		VALUES (?, ?, ?, ?, ?, ?)`, ev.OrgID, ev.EventID, ev.URL, ev.Body, now.UnixNano(), now.UnixNano()); err != nil {
		return fmt.Errorf("queue webhook %s: %w", ev.EventID, err)
	}
	return nil
}

// outboxRow is a pending row the dispatcher has read.
type outboxRow struct {
	seq      int64
	ev       hookEvent
	created  int64
	next     int64
	stays    int
	attempts int
	// firstSent is when the event's first attempt started, in Unix
	// nanoseconds; 0 if it was never attempted.
	firstSent int64
}

// inFlight is a row handed to the deliverer whose outcome is not yet stored:
// until it is, the row is still pending in the table and must not be handed
// over again.
type inFlight struct {
	seq      int64
	created  int64
	stays    int
	attempts int // before this stay
}

// outcome is a delivery's result, as OnResult reports it.
type outcome struct {
	ev  webhook.Event
	res webhook.Result
	// undeliverable: the deliverer refused the event itself (a stored URL
	// it does not accept); retrying cannot help.
	undeliverable bool
	// tooOld: not sent, past its last sending time (dispatchOrg).
	tooOld bool
}

// eventKey names an event in flight; OnResult reports events, not rows.
func eventKey(orgID, eventID string) string { return orgID + "\x00" + eventID }

// queued tells the dispatcher that events were committed to the outbox.
func (h *hooks) queued(events []hookEvent) {
	if len(events) == 0 {
		return
	}
	h.mu.Lock()
	for _, ev := range events {
		h.dirty[ev.OrgID] = struct{}{}
	}
	h.mu.Unlock()
	h.poke()
}

func (h *hooks) poke() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// startOutbox makes every pending row due (a restart retries at once what
// waited for its next attempt) and finds the organizations that have some.
func (h *hooks) startOutbox(ctx context.Context) error {
	now := h.now().UnixNano()
	if err := h.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET next_attempt_ns = ? WHERE state = 'pending' AND next_attempt_ns > ?`, now, now)
		return err
	}); err != nil {
		return fmt.Errorf("webhook outbox: %w", err)
	}
	rows, err := h.db.read.QueryContext(ctx, `SELECT org_id, COUNT(*) FROM webhook_outbox WHERE state = 'pending' GROUP BY org_id`)
	if err != nil {
		return fmt.Errorf("webhook outbox: %w", err)
	}
	defer rows.Close()
	total := 0
	for rows.Next() {
		var org string
		var n int
		if err := rows.Scan(&org, &n); err != nil {
			return fmt.Errorf("webhook outbox: %w", err)
		}
		h.due[org] = time.Unix(0, now)
		total += n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("webhook outbox: %w", err)
	}
	if total > 0 {
		h.log.Info("webhook outbox: delivering events left pending", "pending", total, "organizations", len(h.due))
	}
	return nil
}

// dispatchLoop runs passes when events are committed, outcomes arrive or a
// row's next attempt is due, from start until stopDispatch is closed.
func (h *hooks) dispatchLoop() {
	defer close(h.dispatchDone)
	if !h.awaitStart() {
		return
	}
	// Before anything is sent: which URL is an earlier demo run's listener.
	for {
		err := h.loadDemoListener()
		if err == nil {
			break
		}
		h.log.Error("webhook delivery waits: the demo's previous listener not read; retrying", "err", err)
		select {
		case <-h.stopDispatch:
			return
		case <-time.After(time.Second):
		}
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		// wait counts from the pass's start: less the pass's own time.
		start := time.Now()
		wait, waiting := h.pass()
		timer.Stop()
		if waiting {
			timer.Reset(min(max(0, wait-time.Since(start)), clockCheckInterval))
		}
		select {
		case <-h.stopDispatch:
			return
		case <-h.wake:
		case <-timer.C:
		}
	}
}

// pass stores the outcomes reported since the last pass, then hands due
// rows to the deliverer, never more than an organization has room for. It
// visits only the organizations that may have something to hand over: new
// events, outcomes (room freed), a row fallen due, or, after any outcome,
// those stopped by the shared queue, so that a pass costs what changed, not
// every organization that has events waiting. It returns how long until the
// next row falls due (waiting false: none is waiting on time), measured
// from the pass's own reading of the clock: a second reading could see a
// backward step the pass did not, and sleep the step's size (up to
// clockCheckInterval) instead of the row's wait.
func (h *hooks) pass() (wait time.Duration, waiting bool) {
	h.mu.Lock()
	done := h.outcomes
	h.outcomes = nil
	visit := make(map[string]struct{}, len(h.dirty))
	for org := range h.dirty {
		visit[org] = struct{}{}
	}
	clear(h.dirty)
	h.mu.Unlock()

	// One reading of the service clock for the pass.
	now, real := h.now(), time.Now()
	retry := time.Time{}
	if err := h.applyBackSteps(now, real); err != nil {
		h.log.Error("webhook first attempts not moved back with the service clock; retrying", "err", err)
		retry = now.Add(time.Second)
	}
	if now.Before(h.lastPass) {
		if err := h.clampRetries(now); err != nil {
			h.log.Error("webhook retries not brought forward after the clock went back; retrying", "err", err)
			retry = now.Add(time.Second)
		} else {
			h.lastPass = now
		}
		for org := range h.due {
			visit[org] = struct{}{}
		}
	} else {
		h.lastPass = now
	}
	if len(done) > 0 {
		if err := h.record(done, now); err != nil {
			h.log.Error("webhook outcomes not saved; retrying", "events", len(done), "err", err)
			h.mu.Lock()
			h.outcomes = append(done, h.outcomes...)
			h.mu.Unlock()
			retry = now.Add(time.Second)
		}
		for _, o := range done {
			visit[o.ev.OrgID] = struct{}{}
		}
		for org := range h.blocked {
			visit[org] = struct{}{}
		}
		clear(h.blocked)
	}
	for org, due := range h.due {
		if !due.After(now) {
			visit[org] = struct{}{}
		}
	}
	for org := range visit {
		due, blocked, err := h.dispatchOrg(org, now)
		if err != nil {
			h.log.Error("webhook outbox not read", "org", org, "err", err)
			due = now.Add(time.Second)
		}
		if due.IsZero() {
			delete(h.due, org)
		} else {
			h.due[org] = due
		}
		if blocked {
			h.blocked[org] = struct{}{}
		}
	}
	next := retry
	for _, due := range h.due {
		if next.IsZero() || due.Before(next) {
			next = due
		}
	}
	if next.IsZero() {
		return 0, false
	}
	return next.Sub(now), true
}

// dispatchOrg hands org's due rows to the deliverer, up to its room, and
// returns when its next waiting row falls due (zero when none waits on
// time: it has none, or it waits for room). blocked means the shared queue
// had no room: any outcome may make some. err is a failed read; when it is
// a row's URL, that row waits (due again soon) and the others were handled.
func (h *hooks) dispatchOrg(org string, now time.Time) (due time.Time, blocked bool, err error) {
	room := min(h.deliverer.Room(org), maxInFlightPerOrg-h.perOrg[org])
	blocked = room <= 0 && h.perOrg[org] < maxInFlightPerOrg
	// Rows in flight are due too, and come first: read past them.
	rows, err := h.pendingRows(org, h.perOrg[org]+max(room, 0)+1)
	if err != nil {
		return time.Time{}, false, err
	}
	var readErr error // of a row's URL; that row is tried again soon
	for _, r := range rows {
		key := eventKey(r.ev.OrgID, r.ev.EventID)
		if _, busy := h.inFlight[key]; busy {
			continue
		}
		if r.next > now.UnixNano() {
			return time.Unix(0, r.next), false, readErr
		}
		// No attempt starts after the give-up instant (the receivers' memory
		// of ids relies on it, see lastSendingTime): an event already that
		// old, left pending by a stopped service or requeued up to that
		// instant, becomes dead unsent, whether or not its organization's
		// URL can be read, once tried minGiveUpAttempts times. One tried
		// less (the service clock jumped forward) is sent late rather than
		// lost, but never past its first attempt plus GiveUpAfter: that
		// attempt may have reached the receiver (its answer lost, or the
		// service stopped before storing it), which forgets the id then.
		// One never attempted has no earlier copy to collide with.
		r.ev.NotAfter = h.lastSendingTime(r.created)
		tooLate := fmt.Errorf("webhook %s: not sent: %w (%s after its status change)", r.ev.EventID, webhook.ErrTooLate, h.opts.GiveUpAfter)
		if !now.Before(r.ev.NotAfter) && r.attempts < minGiveUpAttempts {
			r.ev.NotAfter, tooLate = time.Time{}, nil
		}
		if r.firstSent != 0 {
			if horizon := h.lastSendingTime(r.firstSent); r.ev.NotAfter.IsZero() || horizon.Before(r.ev.NotAfter) {
				r.ev.NotAfter = horizon
				tooLate = fmt.Errorf("webhook %s: not sent: %w (%s after its first attempt, which the receiver may have had)",
					r.ev.EventID, webhook.ErrTooLate, h.opts.GiveUpAfter)
			}
		}
		if !r.ev.NotAfter.IsZero() && !now.Before(r.ev.NotAfter) {
			h.settleUnsent(key, r, outcome{ev: r.ev, tooOld: true, res: webhook.Result{Err: tooLate}})
			continue
		}
		// The current URL, and the demo's rule on the URL the event would go
		// to: an organization whose webhook an earlier, crashed demo run left
		// on its listener's port must not have its queued events re-pointed
		// there. A URL not read leaves the row pending, tried again soon; the
		// rows after it are still looked at (one may be past its give-up).
		url, unsent, err := h.currentTarget(r.ev)
		if err != nil {
			readErr = err
			continue
		}
		if unsent != nil {
			h.settleUnsent(key, r, outcome{ev: r.ev, undeliverable: true, res: webhook.Result{
				Err: fmt.Errorf("webhook %s: not sent: %w", r.ev.EventID, unsent)}})
			continue
		}
		r.ev.URL = url
		if room <= 0 {
			// Waits in the table; an outcome (of this organization, or any
			// when blocked) brings it back.
			return time.Time{}, blocked, readErr
		}
		if r.firstSent == 0 {
			// Its first attempt is recorded when it starts (beforeAttempt),
			// which cannot be earlier than now: no attempt of this stay
			// starts later than GiveUpAfter after it.
			if last := h.lastSendingTime(now.UnixNano()); r.ev.NotAfter.IsZero() || last.Before(r.ev.NotAfter) {
				r.ev.NotAfter = last
			}
		}
		h.handOver(key, r)
		err = h.deliverer.Enqueue(r.ev)
		if err != nil {
			h.handedBack(key)
		}
		switch {
		case err == nil:
			room--
			h.inFlight[key] = inFlight{seq: r.seq, created: r.created, stays: r.stays, attempts: r.attempts}
			h.perOrg[org]++
		case errors.Is(err, webhook.ErrQueueFull):
			return time.Time{}, true, readErr
		case errors.Is(err, webhook.ErrClosed):
			return time.Time{}, false, readErr
		default:
			// Never deliverable (a stored URL the deliverer refuses): dead.
			h.settleUnsent(key, r, outcome{ev: r.ev, res: webhook.Result{Err: err}, undeliverable: true})
		}
	}
	return time.Time{}, false, readErr
}

// settleUnsent records o, the outcome of row r that is not sent, at the next
// pass, as a delivery's: the row counts as in flight until then.
func (h *hooks) settleUnsent(key string, r outboxRow, o outcome) {
	h.inFlight[key] = inFlight{seq: r.seq, created: r.created, stays: r.stays, attempts: r.attempts}
	h.perOrg[r.ev.OrgID]++
	h.mu.Lock()
	h.outcomes = append(h.outcomes, o)
	h.mu.Unlock()
	h.poke()
}

// lastSendingTime is the instant after which an event created at created
// (its status change, in Unix nanoseconds) is never sent: GiveUpAfter later.
// Every attempt starts by then (webhook.Event.NotAfter), so the receiver's
// last copy comes at most WebhookRedeliveryHorizon after its first.
func (h *hooks) lastSendingTime(created int64) time.Time {
	return time.Unix(0, created).Add(h.opts.GiveUpAfter)
}

// The dispatcher's statements, which run on every pass and every batch of
// outcomes: each reads one organization's range of a partial index
// (TestOutboxStatementsUseTheirIndexes).
const (
	// outboxDueQuery: an organization's pending rows, soonest due first.
	outboxDueQuery = `SELECT seq, event_id, url, body, created_ns, next_attempt_ns, stays, attempts, first_sent_ns
		FROM webhook_outbox WHERE state = 'pending' AND org_id = ? ORDER BY next_attempt_ns LIMIT ?`
	// outboxTrimQuery: an organization's dead rows but the newest ones.
	outboxTrimQuery = `DELETE FROM webhook_outbox WHERE state = 'dead' AND org_id = ? AND seq <=
		(SELECT seq FROM webhook_outbox WHERE state = 'dead' AND org_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`
)

func (h *hooks) pendingRows(org string, limit int) ([]outboxRow, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rows, err := h.db.read.QueryContext(ctx, outboxDueQuery, org, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []outboxRow
	for rows.Next() {
		r := outboxRow{ev: hookEvent{OrgID: org}}
		if err := rows.Scan(&r.seq, &r.ev.EventID, &r.ev.URL, &r.ev.Body, &r.created, &r.next, &r.stays, &r.attempts, &r.firstSent); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// A decision is what an outcome does to its row.
type decision struct {
	outcome
	row   inFlight
	dead  bool
	next  int64 // of a row kept pending
	given bool  // dead because it outlived GiveUpAfter
}

// record stores outcomes in one write transaction: the rows of delivered
// events go, refused or too old ones become dead, the others wait for
// their next stay. Logged once committed. now is the pass's reading of the
// service clock.
func (h *hooks) record(done []outcome, now time.Time) error {
	ds := make([]decision, 0, len(done))
	for _, o := range done {
		row, ok := h.inFlight[eventKey(o.ev.OrgID, o.ev.EventID)]
		if !ok {
			continue
		}
		d := decision{outcome: o, row: row}
		retryable := webhook.Retryable(o.res.StatusCode)
		switch {
		case o.res.Delivered:
		case !retryable || o.undeliverable:
			d.dead = true
		case o.tooOld || now.Sub(time.Unix(0, row.created)) >= h.opts.GiveUpAfter && row.attempts+o.res.Attempts >= minGiveUpAttempts:
			d.dead, d.given = true, true
		default:
			d.next = now.Add(h.requeueWait(row.stays)).UnixNano()
			// Not later than the give-up instant: then it is given up,
			// not sent (dispatchOrg). One past it was tried too few times
			// to be given up and waits as usual.
			if last := h.lastSendingTime(row.created); last.After(now) {
				d.next = min(d.next, last.UnixNano())
			}
		}
		ds = append(ds, d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := h.db.inTx(ctx, func(tx *txn) error {
		trim := map[string]bool{}
		for _, d := range ds {
			if err := storeDecision(ctx, tx, d); err != nil {
				return err
			}
			if d.dead {
				trim[d.ev.OrgID] = true
			}
		}
		for org := range trim {
			if _, err := tx.ExecContext(ctx, outboxTrimQuery, org, org, maxDeadWebhooksPerOrg); err != nil {
				return fmt.Errorf("trim dead webhooks of %s: %w", org, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, d := range ds {
		delete(h.inFlight, eventKey(d.ev.OrgID, d.ev.EventID))
		if h.perOrg[d.ev.OrgID]--; h.perOrg[d.ev.OrgID] <= 0 {
			delete(h.perOrg, d.ev.OrgID)
		}
		switch {
		case d.given:
			h.log.Error("webhook given up", "org", d.ev.OrgID, "event", d.ev.EventID, "age", now.Sub(time.Unix(0, d.row.created)).Round(time.Second),
				"status", d.res.StatusCode, "err", d.res.Err)
		case d.dead && errors.Is(d.res.Err, errWebhookRemoved):
			h.log.Warn("webhook not sent: the organization's webhook was removed after the event was queued; kept as dead in webhook_outbox",
				"org", d.ev.OrgID, "event", d.ev.EventID)
		case d.dead && errors.Is(d.res.Err, errDemoListenerGone):
			h.log.Warn("webhook not sent: it was for an earlier 'vigil demo' run's listener, gone now (its port may be another program's); kept as dead in webhook_outbox",
				"org", d.ev.OrgID, "event", d.ev.EventID)
		case d.dead:
			h.log.Warn("webhook refused by its receiver; kept as dead", "org", d.ev.OrgID, "event", d.ev.EventID, "status", d.res.StatusCode, "err", d.res.Err)
		case !d.res.Delivered:
			h.log.Info("webhook not delivered yet; queued again later", "org", d.ev.OrgID, "event", d.ev.EventID,
				"attempts", d.res.Attempts, "status", d.res.StatusCode, "retry_at", time.Unix(0, d.next).UTC().Format(time.RFC3339))
		}
	}
	return nil
}

func storeDecision(ctx context.Context, tx *txn, d decision) error {
	if d.res.Delivered {
		_, err := tx.ExecContext(ctx, `DELETE FROM webhook_outbox WHERE seq = ?`, d.row.seq)
		return err
	}
	msg := ""
	if d.res.Err != nil {
		msg = d.res.Err.Error()
		if len(msg) > maxOutboxError {
			msg = msg[:maxOutboxError]
		}
	}
	state, next := "pending", d.next
	if d.dead {
		state, next = "dead", 0
	}
	_, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET state = ?, next_attempt_ns = ?, attempts = attempts + ?,
		stays = stays + 1, last_status = ?, last_error = ? WHERE seq = ?`,
		state, next, d.res.Attempts, d.res.StatusCode, msg, d.row.seq)
	return err
}
