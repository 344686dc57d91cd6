package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// stateWebhookKeyStart records when the active webhook signing key took over,
// so that a schedule of rotations (vigil serve --webhook-key-rotation) carries
// across restarts instead of starting afresh at each.
const stateWebhookKeyStart = "webhook_key_start"

// keyStart is when the key Kid became the active webhook signing key.
type keyStart struct {
	Kid   string    `json:"kid"`
	Since time.Time `json:"since"`
}

// loadKeyStart reads when activeKid took over. A ring stored before these
// records were kept, or a record for another key (the ring was saved after a
// rotation but the record was not), counts the key as taking over now: the
// first start that reads it.
func loadKeyStart(ctx context.Context, tx *txn, activeKid string, now time.Time) (start keyStart, raw []byte, err error) {
	raw, ok, err := getState(ctx, tx, stateWebhookKeyStart)
	if err != nil {
		return keyStart{}, nil, err
	}
	if ok {
		if err := json.Unmarshal(raw, &start); err != nil {
			return keyStart{}, nil, fmt.Errorf("stored webhook key start: not the JSON vigil writes: %w", err)
		}
		if start.Kid == activeKid && !start.Since.IsZero() {
			return start, raw, nil
		}
	}
	start = keyStart{Kid: activeKid, Since: now.UTC()}
	if raw, err = json.Marshal(start); err != nil {
		return keyStart{}, nil, err
	}
	return start, raw, putState(ctx, tx, stateWebhookKeyStart, raw)
}

// WebhookKeyAge is how long the active webhook signing key has signed, by
// the service clock, counted across restarts (never negative, should the
// clock have gone back). A key stored by a vigil that kept no such record
// counts from the first start that read it.
func (s *Server) WebhookKeyAge() time.Duration {
	s.hooks.persistMu.Lock()
	since := s.hooks.keyStart.Since
	s.hooks.persistMu.Unlock()
	return max(s.now().Sub(since), 0)
}
