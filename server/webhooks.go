package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

const stateWebhookRing = "webhook_keyring"

// ringSyncInterval is how often the ring is compared with its stored copy, to
// persist the drop of a retired key whose last delivery completed between
// other saves (see hooks.sync).
const ringSyncInterval = time.Second

// hooks delivers activity status changes to the URL of an organization's
// FEATURE_NAME_WEBHOOK, signed with the service's key ring (kept in the store),
// from the durable outbox (outbox.go).
type hooks struct {
	ring      *webhook.KeyRing
	deliverer *webhook.Deliverer
	log       *slog.Logger
	db        *store
	opts      WebhookOptions
	// readWebhookURL reads an organization's webhook URL ("" when it has
	// none) for the dispatcher and each attempt: storedWebhookURL, which
	// tests replace, before delivery starts, to make the read fail.
	readWebhookURL func(ctx context.Context, org string) (string, error)

	// persistMu serializes saves, so an older Marshal never overwrites a
	// newer one; persisted is the ring as last written to the store.
	persistMu sync.Mutex
	persisted []byte
	// keyStart is when the active key took over, saved with the ring;
	// persistedStart is it as last written.
	keyStart       keyStart
	persistedStart []byte
	now            func() time.Time

	stopSync chan struct{}
	syncDone chan struct{}

	// mu guards what committers and deliveries tell the dispatcher:
	// organizations with new events, and outcomes to store.
	mu       sync.Mutex
	dirty    map[string]struct{}
	outcomes []outcome
	demo     demoListener  // whose events are not sent (demo_webhook.go)
	wake     chan struct{} // a pass is wanted (buffered: wakes coalesce)

	// The dispatcher's own (dispatchLoop, then close once it has stopped).
	due      map[string]time.Time // organizations with rows waiting, by when the soonest falls due
	blocked  map[string]struct{}  // organizations stopped by the shared queue being full
	inFlight map[string]inFlight  // by eventKey
	perOrg   map[string]int       // rows in flight, by organization
	lastPass time.Time            // the service clock at the last pass: one earlier means it went back

	// handed: events in the deliverer, for beforeAttempt (guarded by mu).
	handed map[string]handedEvent
	// clock sums the service clock's backward steps; shiftMu orders the
	// moves of stored first attempts by them (appliedBack: the sum moved
	// so far) with the writes of first attempts (outbox_clock_back.go).
	clock       clockWatch
	shiftMu     sync.Mutex
	appliedBack time.Duration

	// start is closed when delivery may begin: at once, or by StartWebhooks
	// under Config.HoldWebhooks (webhook_hold.go).
	start     chan struct{}
	startOnce sync.Once

	stopDispatch chan struct{}
	dispatchDone chan struct{}
}

// hookEvent is a delivery decided inside a transaction, stored in the outbox
// by that transaction.
type hookEvent = webhook.Event

func openHooks(ctx context.Context, db *store, client *http.Client, log *slog.Logger, now func() time.Time, opts WebhookOptions, hold bool) (*hooks, error) {
	var ring *webhook.KeyRing
	var saved, savedStart []byte
	var start keyStart
	err := db.inTx(ctx, func(tx *txn) error {
		raw, ok, err := getState(ctx, tx, stateWebhookRing)
		if err != nil {
			return err
		}
		if ok {
			if ring, err = webhook.LoadKeyRing(raw); err != nil {
				return fmt.Errorf("stored webhook key ring: %w", err)
			}
		} else {
			if ring, err = webhook.NewKeyRing(); err != nil {
				return err
			}
			if raw, err = ring.Marshal(); err != nil {
				return err
			}
			if err := putState(ctx, tx, stateWebhookRing, raw); err != nil {
				return err
			}
		}
		saved = raw
		start, savedStart, err = loadKeyStart(ctx, tx, ring.ActiveKeyID(), now())
		return err
	})
	if err != nil {
		return nil, err
	}
	h := &hooks{ring: ring, log: log, db: db, opts: opts.withDefaults(), persisted: saved,
		keyStart: start, persistedStart: savedStart, now: now,
		stopSync: make(chan struct{}), syncDone: make(chan struct{}),
		dirty: map[string]struct{}{}, wake: make(chan struct{}, 1),
		due: map[string]time.Time{}, blocked: map[string]struct{}{}, inFlight: map[string]inFlight{}, perOrg: map[string]int{},
		handed: map[string]handedEvent{},
		start:  make(chan struct{}), stopDispatch: make(chan struct{}), dispatchDone: make(chan struct{})}
	h.readWebhookURL = h.storedWebhookURL
	if hz := h.opts.RedeliveryHorizon(); hz > WebhookRedeliveryHorizon {
		// Receivers sized for the defaults would take a late copy for new.
		log.Warn("webhook redelivery horizon longer than the default: receivers that drop duplicates by event id must remember ids this long",
			"horizon", hz.String(), "default", WebhookRedeliveryHorizon.String(), "listener", "vigil webhook listen --remember "+hz.String())
	}
	if !hold {
		h.release()
	}
	if err := h.startOutbox(ctx); err != nil {
		return nil, err
	}
	delivery := h.opts.Delivery
	delivery.Logger = log
	delivery.Retarget = h.beforeAttempt
	delivery.Now = now
	delivery.OnResult = func(ev webhook.Event, r webhook.Result) {
		h.handedBack(eventKey(ev.OrgID, ev.EventID))
		h.mu.Lock()
		h.outcomes = append(h.outcomes, outcome{ev: ev, res: r, undeliverable: !r.Delivered && neverSendable(r.Err)})
		h.mu.Unlock()
		h.poke()
		// The attempt has released its key: a retired key may just have
		// been dropped from the ring.
		h.syncLogged()
	}
	h.deliverer = webhook.NewDeliverer(ring, client, delivery)
	go h.syncLoop()
	go h.dispatchLoop()
	return h, nil
}

// jwks is the published key set. The store is brought up to date first, so
// that what a receiver sees is what a restarted service would publish.
func (h *hooks) jwks() api.JWKS {
	h.syncLogged()
	return h.ring.JWKS()
}

// rotate saves the ring with a fresh key active, then makes it sign and
// publishes it: a key a receiver has seen is never one a crash could lose.
// If the save fails, the ring is unchanged and the previous key signs on.
// The previous key stays published until the deliveries signed with it
// complete.
func (h *hooks) rotate(ctx context.Context) (newKid, oldKid string, err error) {
	h.persistMu.Lock()
	defer h.persistMu.Unlock()
	oldKid = h.ring.ActiveKeyID()
	next, err := webhook.NewNextKey()
	if err != nil {
		return "", oldKid, err
	}
	raw, err := h.ring.MarshalRotated(next)
	if err != nil {
		return "", oldKid, fmt.Errorf("save webhook key ring: %w", err)
	}
	ks := keyStart{Kid: next.ID(), Since: h.now().UTC()}
	start, err := json.Marshal(ks)
	if err != nil {
		return "", oldKid, fmt.Errorf("save webhook key ring: %w", err)
	}
	if err := h.save(ctx, raw, start); err != nil {
		return "", oldKid, fmt.Errorf("webhook key not rotated, %s signs on: %w", oldKid, err)
	}
	if err := h.ring.RotateTo(next); err != nil {
		// Not expected (a fresh key is in no ring). The store now names
		// next: the next sync saves the ring as it is.
		return "", oldKid, err
	}
	h.keyStart = ks
	return next.ID(), oldKid, nil
}

// sync writes the ring to the store if it changed since the last save. The
// ring changes on rotation and when a retiring key's last in-flight delivery
// completes (webhook.KeyRing drops it then, with no notification): the
// deliverer's OnResult, the JWKS handler, a once-a-second check and close
// all call sync, so the store follows every change.
func (h *hooks) sync(ctx context.Context) error {
	h.persistMu.Lock()
	defer h.persistMu.Unlock()
	return h.syncLocked(ctx)
}

func (h *hooks) syncLocked(ctx context.Context) error {
	raw, err := h.ring.Marshal()
	if err != nil {
		return fmt.Errorf("save webhook key ring: %w", err)
	}
	start, err := json.Marshal(h.keyStart)
	if err != nil {
		return fmt.Errorf("save webhook key ring: %w", err)
	}
	if bytes.Equal(raw, h.persisted) && bytes.Equal(start, h.persistedStart) {
		return nil
	}
	return h.save(ctx, raw, start)
}

// save writes the ring raw and its key's start (persistMu held).
func (h *hooks) save(ctx context.Context, raw, start []byte) error {
	// One transaction: a restarted service never sees a new key with the
	// previous key's start time, which would rotate it early.
	err := h.db.inTx(ctx, func(tx *txn) error {
		if err := putState(ctx, tx, stateWebhookRing, raw); err != nil {
			return err
		}
		return putState(ctx, tx, stateWebhookKeyStart, start)
	})
	if err != nil {
		return fmt.Errorf("save webhook key ring: %w", err)
	}
	h.persisted, h.persistedStart = raw, start
	return nil
}

func (h *hooks) syncLogged() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.sync(ctx); err != nil {
		h.log.Error("webhook key ring not saved", "err", err)
	}
}

func (h *hooks) syncLoop() {
	defer close(h.syncDone)
	t := time.NewTicker(ringSyncInterval)
	defer t.Stop()
	for {
		select {
		case <-h.stopSync:
			return
		case <-t.C:
			h.syncLogged()
		}
	}
}

// close stops handing out events, waits (up to ctx) for deliveries in
// progress, stores their outcomes (an abandoned one stays pending, for the
// next start) and saves the key ring.
func (h *hooks) close(ctx context.Context) error {
	close(h.stopDispatch)
	<-h.dispatchDone
	h.warnNeverStarted()
	busy := h.deliverer.Stats().InProgress
	err := h.deliverer.Close(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// With none in progress the deliverer was done whichever way its
		// Close chose (ctx may have ended before it was called).
		if busy > 0 {
			h.log.Warn("webhook deliveries abandoned at shutdown; they stay in the outbox for the next start", "deliveries", busy)
		}
		err = nil
	}
	h.mu.Lock()
	done := h.outcomes
	h.outcomes = nil
	h.mu.Unlock()
	if len(done) > 0 {
		if rerr := h.record(done, h.now()); rerr != nil {
			// The rows stay pending as they were: the next start delivers them.
			h.log.Error("webhook outcomes not saved at shutdown", "events", len(done), "err", rerr)
		}
	}
	close(h.stopSync)
	<-h.syncDone
	// Every delivery has ended, so every retiring key is gone: save that.
	return errors.Join(err, h.sync(context.Background()))
}

// eventFor builds the delivery of the activity's current state to url, the
// organization's webhook (Server.webhookURL), or nil when it has none.
func (h *hooks) eventFor(url string, a *activity) (*hookEvent, error) {
	if url == "" {
		return nil, nil
	}
	// api.Marshal, as get_activity: the body is that reply's bytes, and
	// '<' '>' '&' stay one byte each rather than six, so the body stays
	// under webhook.MaxBodyBytes.
	body, err := api.Marshal(a.toAPI("", false))
	if err != nil {
		return nil, fmt.Errorf("webhook event for %s: %w", a.ID, err)
	}
	if len(body) > webhook.MaxBodyBytes {
		// Not expected (docs/webhooks.md bounds it); sent anyway, so a
		// receiver with a larger bound still gets it, but said loudly.
		h.log.Error("webhook body over the bound receivers are told to read", "event", a.ID+":"+a.Status, "bytes", len(body), "bound", webhook.MaxBodyBytes)
	}
	return &hookEvent{OrgID: a.OrgID, EventID: a.ID + ":" + a.Status, URL: url, Body: body}, nil
}

// RotateWebhookKey makes a fresh Ed25519 key sign new webhook deliveries and
// returns its key id. The JWKS publishes the new key at once; the previous key
// stays published until the deliveries signed with it are done, then is
// dropped. The key ring is saved in the store before the new key signs or is
// published (a failed save leaves the previous key active, and is logged),
// and again after the previous key is dropped.
func (s *Server) RotateWebhookKey(ctx context.Context) (newKid string, err error) {
	newKid, oldKid, err := s.hooks.rotate(ctx)
	if err != nil {
		s.log.Error("webhook signing key not rotated: the new key could not be saved; the previous key still signs", "kid", oldKid, "err", err)
		return "", fmt.Errorf("rotate webhook key: %w", err)
	}
	s.log.Info("webhook signing key rotated", "kid", newKid, "previous_kid", oldKid)
	return newKid, nil
}

// ActiveWebhookKeyID is the key id that signs new webhook deliveries (the
// X-Service-Signature-Key-Id they carry).
func (s *Server) ActiveWebhookKeyID() string { return s.hooks.ring.ActiveKeyID() }
