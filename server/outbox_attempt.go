package server

import (
	"context"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// An event's first attempt is recorded (first_sent_ns) when its request is
// about to start, not when the dispatcher hands it to the deliverer: there
// it may still wait for one of its organization's request slots, and a
// clock jump or a stop during that wait must not make it "attempted" (given
// up 24 hours later) while no receiver ever saw it.

// handedEvent is an event handed to the deliverer whose outcome has not
// been reported yet.
type handedEvent struct {
	seq int64
	// marked: its row's first attempt is stored already.
	marked bool
	// back is hooks.appliedBack when it was handed over: its NotAfter was
	// measured in that reading of the clock (see backStep).
	back time.Duration
}

// handOver registers row r, about to be enqueued as key, for beforeAttempt.
func (h *hooks) handOver(key string, r outboxRow) {
	h.shiftMu.Lock()
	back := h.appliedBack
	h.shiftMu.Unlock()
	h.mu.Lock()
	h.handed[key] = handedEvent{seq: r.seq, marked: r.firstSent != 0, back: back}
	h.mu.Unlock()
}

// handedBack forgets key: not accepted by the deliverer, or its outcome is in.
func (h *hooks) handedBack(key string) {
	h.mu.Lock()
	delete(h.handed, key)
	h.mu.Unlock()
}

// beforeAttempt is the deliverer's Retarget, called when an attempt holds
// its request slots, just before it is signed and sent. It gives the URL to
// send to (retarget), refuses the attempt as too late when the service clock
// went back since the event was handed over and its last sending time,
// measured on the clock as it runs now, has passed, and stores the event's
// first attempt before that attempt starts, so that a stop or crash during
// it does not lose when the receiver may have had its first copy.
func (h *hooks) beforeAttempt(ev webhook.Event) (string, error) {
	url, err := h.retarget(ev)
	if err != nil {
		return "", err
	}
	key := eventKey(ev.OrgID, ev.EventID)
	h.mu.Lock()
	he, ok := h.handed[key]
	h.mu.Unlock()
	if !ok {
		return url, nil
	}
	now, real := h.now(), time.Now()
	h.shiftMu.Lock()
	defer h.shiftMu.Unlock()
	back := h.clock.observe(now, real)
	if moved := back - he.back; moved > 0 && !ev.NotAfter.IsZero() && now.After(ev.NotAfter.Add(-moved)) {
		return "", fmt.Errorf("the service clock went back %s since it was queued: %w", moved.Round(time.Second), webhook.ErrTooLate)
	}
	if he.marked {
		return url, nil
	}
	// Stored as the rows are, in the clock reading the last shift left
	// them in: the next shift (applyBackSteps) moves it with them.
	if err := h.markFirstSent(he.seq, now.Add(back-h.appliedBack)); err != nil {
		return "", err
	}
	he.marked = true
	h.mu.Lock()
	if _, still := h.handed[key]; still {
		h.handed[key] = he
	}
	h.mu.Unlock()
	return url, nil
}

// markFirstSent stores that row seq's first attempt starts at, before it
// starts.
func (h *hooks) markFirstSent(seq int64, at time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return h.db.inTx(ctx, func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET first_sent_ns = ? WHERE seq = ? AND first_sent_ns = 0`, at.UnixNano(), seq); err != nil {
			return fmt.Errorf("webhook outbox: record the first attempt of row %d: %w", seq, err)
		}
		return nil
	})
}
