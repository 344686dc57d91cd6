package server

import (
	"context"
	"time"
)

// heldWarnEvery is how often a hold on webhook delivery (Config.HoldWebhooks)
// that the program has not lifted is logged: a forgotten StartWebhooks must
// show, since held events are sent to no one.
const heldWarnEvery = time.Minute

// StartWebhooks starts the webhook delivery that Config.HoldWebhooks held:
// the events in the outbox are sent to the URLs they hold from now on. It is
// a no-op without the hold and when called again.
func (s *Server) StartWebhooks() {
	if s.hooks.release() {
		s.log.Info("webhook delivery started", "pending", s.hooks.pendingCount())
	}
}

// release lets delivery begin; true the first time.
func (h *hooks) release() (first bool) {
	h.startOnce.Do(func() { close(h.start); first = true })
	return first
}

func (h *hooks) started() bool {
	select {
	case <-h.start:
		return true
	default:
		return false
	}
}

// awaitStart waits until delivery may begin, warning while it is held; false
// when the service closes first.
func (h *hooks) awaitStart() bool {
	if h.started() {
		return true
	}
	t := time.NewTicker(heldWarnEvery)
	defer t.Stop()
	for {
		select {
		case <-h.start:
			return true
		case <-h.stopDispatch:
			return false
		case <-t.C:
			h.log.Warn("webhook delivery held: nothing is sent until the program calls StartWebhooks (Config.HoldWebhooks)", "pending", h.pendingCount())
		}
	}
}

// warnNeverStarted, at close, says that a hold was never lifted and what
// became of the events: they wait in the outbox for the next start.
func (h *hooks) warnNeverStarted() {
	if h.started() {
		return
	}
	h.log.Warn("webhook delivery was held and never started (Config.HoldWebhooks without StartWebhooks); pending events stay in the outbox for the next start", "pending", h.pendingCount())
}

// pendingCount is for the hold's logs; -1 when the outbox cannot be read.
func (h *hooks) pendingCount() int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n := -1
	if err := h.db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending'`).Scan(&n); err != nil {
		h.log.Error("webhook outbox not counted", "err", err)
	}
	return n
}
