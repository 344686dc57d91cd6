package server

import (
	"context"
	"fmt"
	"time"
)

// The outbox runs on the service clock (Config.Now), which may step: a
// forward jump must not give events up unsent, nor a backward step delay
// their retries by its size.

// minGiveUpAttempts is how many attempts an event must have had before it is
// given up: past GiveUpAfter alone it is still sent, so that a forward jump
// of the service clock does not drop events never tried since; but never
// past its first attempt plus GiveUpAfter (dispatchOrg).
const minGiveUpAttempts = 3

// clockCheckInterval bounds the dispatcher's sleep, so that a step of the
// service clock is seen within it (a backward one is undone by
// clampRetries).
const clockCheckInterval = time.Minute

// requeueWait is the wait before the next stay of a row that has had stays
// stays: Requeue, doubled each stay, up to MaxRequeue.
func (h *hooks) requeueWait(stays int) time.Duration {
	wait := h.opts.Requeue
	for i := 0; i < stays && wait < h.opts.MaxRequeue; i++ {
		wait *= 2
	}
	return min(wait, h.opts.MaxRequeue)
}

// clampRetries brings every pending row due later than now plus the wait it
// was given (requeueWait, none before its first stay) back to that: only a
// backward step of the service clock leaves a row so, and its retry must
// not wait the size of the step. Rows are grouped by stays, as their waits.
func (h *hooks) clampRetries(now time.Time) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := h.db.inTx(ctx, func(tx *txn) error {
		for stays := 0; ; stays++ {
			var wait time.Duration
			if stays > 0 {
				wait = h.requeueWait(stays - 1)
			}
			due := now.Add(wait).UnixNano()
			if wait >= h.opts.MaxRequeue {
				_, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET next_attempt_ns = ?
					WHERE state = 'pending' AND stays >= ? AND next_attempt_ns > ?`, due, stays, due)
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET next_attempt_ns = ?
				WHERE state = 'pending' AND stays = ? AND next_attempt_ns > ?`, due, stays, due); err != nil {
				return err
			}
		}
	})
	if err != nil {
		return fmt.Errorf("webhook outbox: bring retries forward: %w", err)
	}
	return nil
}
