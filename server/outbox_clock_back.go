package server

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// A backward step of the service clock after an event's first attempt
// would stretch, in real time, how long its copies are sent (until
// first_sent_ns + GiveUpAfter on the clock as it runs now) by the step's
// size, past the redelivery horizon receivers remember ids for ('vigil
// webhook listen' measures it on its monotonic clock): a late copy would be
// taken for a new event. So the steps the running service sees are
// measured against its monotonic clock, and pending rows' first attempts
// moved back by them (applyBackSteps). A step while the service is stopped
// cannot be seen.

// minBackStep is the smallest drop of the service clock taken for a step:
// below it, the drift of readings taken apart. A clock slewed back (at most
// 500 ppm, some 43 s a day) stays within the receivers' slack of two
// webhook.MaxClockSkew.
const minBackStep = time.Second

// clockWatch sums the backward steps of the service clock.
type clockWatch struct {
	mu   sync.Mutex
	wall time.Time // the service clock at the last reading
	mono time.Time // time.Now at the last reading (monotonic)
	back time.Duration
}

// observe takes a reading of the service clock (now) and of this machine's
// clock just after (real), and returns the sum of the backward steps seen.
func (c *clockWatch) observe(now, real time.Time) time.Duration {
	// The service clock is time.Now in production, whose readings carry a
	// monotonic reading that a step of the wall clock does not move:
	// compared with it, no step would ever be seen.
	now = now.Round(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.wall.IsZero() {
		if step := c.wall.Add(real.Sub(c.mono)).Sub(now); step >= minBackStep {
			c.back += step
		}
	}
	c.wall, c.mono = now, real
	return c.back
}

// applyBackSteps moves the first attempts of pending rows back by the
// backward steps seen since the last move.
func (h *hooks) applyBackSteps(now, real time.Time) error {
	h.shiftMu.Lock()
	defer h.shiftMu.Unlock()
	back := h.clock.observe(now, real)
	step := back - h.appliedBack
	if step <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `UPDATE webhook_outbox SET first_sent_ns = first_sent_ns - ? WHERE state = 'pending' AND first_sent_ns != 0`, int64(step))
		return err
	}); err != nil {
		return fmt.Errorf("webhook outbox: move first attempts back %s with the service clock: %w", step, err)
	}
	h.appliedBack = back
	h.log.Warn("webhook outbox: the service clock went back; pending events are sent no longer after their first attempt than before", "step", step.Round(time.Millisecond).String())
	return nil
}
