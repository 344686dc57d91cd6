package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of DelivererOptions.
const (
	DefaultMaxAttempts    = 8
	DefaultBaseBackoff    = time.Second
	DefaultMaxBackoff     = 5 * time.Minute
	DefaultMaxEventAge    = 15 * time.Minute
	DefaultQueueSize      = 1024
	DefaultOrgQueueSize   = DefaultQueueSize / 8
	DefaultConcurrency    = 16
	DefaultOrgConcurrency = 2
	DefaultAttemptTimeout = 10 * time.Second
)

// Enqueue errors.
var (
	// ErrQueueFull: as many events as DelivererOptions.QueueSize are already
	// being delivered, or as many as OrgQueueSize of the event's
	// organization. The event was not accepted; record it and try later.
	ErrQueueFull = errors.New("webhook delivery queue is full")
	// ErrClosed: Close has been called.
	ErrClosed = errors.New("webhook deliverer is closed")
	// ErrTooLate: an attempt would have started after the event's NotAfter;
	// it was not sent.
	ErrTooLate = errors.New("webhook past its last sending time")
	// ErrInvalidURL: the delivery URL, given to Enqueue or returned by
	// DelivererOptions.Retarget, is not an absolute http(s) URL.
	ErrInvalidURL = errors.New("not an absolute http(s) URL")
)

// Event is one webhook to deliver.
type Event struct {
	OrgID   string
	EventID string // stable across retries; receivers use it to drop duplicates
	URL     string // http or https
	Body    []byte // the full activity object, sent and signed unchanged
	// NotAfter, if set, is the last instant an attempt may start (a sender
	// that gives events up at some age, so that its receivers know how long
	// to remember ids): later, the event is reported undelivered, unsent.
	NotAfter time.Time
}

// Result is the outcome of an event, after its last attempt.
type Result struct {
	Delivered bool
	// Attempts counts the requests started: an attempt that ended before
	// its request (ErrTooLate, Retarget's error, a shutdown while it waited
	// for a request slot) is not counted.
	Attempts   int
	StatusCode int    // of the last attempt; 0 if it got no HTTP reply
	KeyID      string // that signed the last attempt
	Err        error  // why it was not delivered; nil if Delivered
}

// DelivererOptions tunes a Deliverer. Zero values mean the defaults above.
type DelivererOptions struct {
	MaxAttempts int           // attempts per event, first included
	BaseBackoff time.Duration // wait before the first retry; doubles each retry
	MaxBackoff  time.Duration // cap of the wait between attempts
	// MaxEventAge bounds how long an event stays in the queue, whatever the
	// receiver's Retry-After: no retry is scheduled to start later than this
	// after Enqueue.
	MaxEventAge time.Duration
	QueueSize   int // events accepted and not yet finished, all organizations
	// OrgQueueSize is each organization's share of QueueSize (0: an eighth
	// of it), so that one organization whose receiver fails cannot take the
	// others' room.
	OrgQueueSize int
	// Concurrency is the HTTP requests at once, all organizations; half of
	// them (rounded down), but at most Concurrency - OrgConcurrency, go only
	// to organizations with no request under way, so that receivers that
	// hang cannot hold them all: every slot is in use only while more
	// organizations than that reserve have requests under way. Concurrency
	// 1 has no reserve; 2 has one slot with OrgConcurrency 1. A freed slot
	// goes to the attempt that has waited longest among those that may take
	// it.
	Concurrency int
	// OrgConcurrency is each organization's share of Concurrency, so that a
	// receiver that never answers cannot hold every request slot. An
	// organization sending alone always gets all of it.
	OrgConcurrency int
	AttemptTimeout time.Duration // of one HTTP attempt
	Logger         *slog.Logger  // nil: discard
	// Retarget, if set, is called before each attempt of an event, the
	// first included, once the attempt holds its request slots, with the
	// event as enqueued; the attempt goes to the URL it returns. A sender
	// whose destination may change while an event is retried (vigil's
	// service: the root quorum replaces an organization's webhook) uses it
	// so that no attempt goes to a URL replaced meanwhile. An error, or a
	// URL that is not an absolute http(s) one (ErrInvalidURL), ends the
	// event unsent by that attempt: OnResult gets the error.
	Retarget func(Event) (string, error)
	// OnResult, if set, is called once per accepted event with its outcome,
	// from the delivering goroutine (so possibly concurrently): keep it short.
	OnResult func(Event, Result)
	// Now is the sender's clock (nil: time.Now): MaxEventAge, NotAfter and
	// each attempt's signing time are read on it, so that a sender with its
	// own clock (vigil's service, Config.Now) governs delivery with it.
	Now func() time.Time
}

// Deliverer POSTs signed events in the background. Each attempt is signed
// afresh with the ring's active key and the current time, under the same
// event id, so a retry is never refused as stale and a rotated-out key is
// only needed by attempts already on the wire. 2xx means delivered; 5xx and
// network errors are retried with capped exponential backoff and jitter;
// 3xx and 4xx are final (redirects are not followed).
type Deliverer struct {
	ring   *KeyRing
	client *http.Client
	opts   DelivererOptions
	log    *slog.Logger

	slots    chan struct{} // one per accepted, unfinished event
	requests *requestSlots // one per HTTP request under way
	refused  atomic.Uint64 // events refused with ErrQueueFull
	ctx      context.Context
	cancel   context.CancelFunc
	mu       sync.Mutex // guards closed, orgs and the Add side of wg
	closed   bool
	orgs     map[string]*orgQueue // organizations with unfinished events
	wg       sync.WaitGroup
}

// orgQueue is one organization's share of the Deliverer.
type orgQueue struct {
	events   int           // accepted, unfinished; guarded by Deliverer.mu
	requests chan struct{} // one per HTTP request of this organization under way
	onWire   int           // of those, the ones holding a Deliverer slot; guarded by requestSlots.mu
}

// Stats is a snapshot of a Deliverer's counters.
type Stats struct {
	InProgress int    // events accepted and not yet finished
	Requests   int    // HTTP requests under way
	Waiting    int    // attempts waiting for a request slot (not the organization's)
	Refused    uint64 // events refused with ErrQueueFull since NewDeliverer
}

// NewDeliverer returns a Deliverer signing with ring. A nil client means a
// plain http.Client; the client is copied so that redirects are not followed,
// no cookie jar is used, and (when its Transport is nil or an *http.Transport)
// a reply's headers are read up to MaxReplyHeaderBytes and deliveries to
// localhost or a loopback address never go through its proxy.
func NewDeliverer(ring *KeyRing, client *http.Client, opts DelivererOptions) *Deliverer {
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.BaseBackoff <= 0 {
		opts.BaseBackoff = DefaultBaseBackoff
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	opts.MaxBackoff = max(opts.MaxBackoff, opts.BaseBackoff)
	if opts.MaxEventAge <= 0 {
		opts.MaxEventAge = DefaultMaxEventAge
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.OrgQueueSize <= 0 {
		opts.OrgQueueSize = max(1, opts.QueueSize/8)
	}
	opts.OrgQueueSize = min(opts.OrgQueueSize, opts.QueueSize)
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.OrgConcurrency <= 0 {
		opts.OrgConcurrency = DefaultOrgConcurrency
	}
	opts.OrgConcurrency = min(opts.OrgConcurrency, opts.Concurrency)
	if opts.AttemptTimeout <= 0 {
		opts.AttemptTimeout = DefaultAttemptTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := deliveryClient(client)
	ctx, cancel := context.WithCancel(context.Background())
	return &Deliverer{
		ring:     ring,
		client:   c,
		opts:     opts,
		log:      log,
		slots:    make(chan struct{}, opts.QueueSize),
		requests: newRequestSlots(opts.Concurrency, opts.OrgConcurrency),
		orgs:     make(map[string]*orgQueue),
		ctx:      ctx,
		cancel:   cancel,
	}
}

// Enqueue accepts ev for delivery and returns at once. It fails, without
// blocking, when ev is invalid, the queue or the organization's share of it
// is full (ErrQueueFull, counted in Stats) or the Deliverer is closed
// (ErrClosed).
func (d *Deliverer) Enqueue(ev Event) error {
	if d.ring == nil {
		return errors.New("enqueue webhook: the deliverer has no key ring; build it with NewDeliverer(ring, ...)")
	}
	if err := validateEvent(ev); err != nil {
		return err
	}
	ev.Body = append([]byte(nil), ev.Body...) // the caller may reuse its slice
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("enqueue webhook %s: %w", ev.EventID, ErrClosed)
	}
	q := d.orgs[ev.OrgID]
	if q != nil && q.events >= d.opts.OrgQueueSize {
		d.refused.Add(1)
		return fmt.Errorf("enqueue webhook %s: %w: organization %s already has %d events in progress, its share of the queue",
			ev.EventID, ErrQueueFull, ev.OrgID, q.events)
	}
	select {
	case d.slots <- struct{}{}:
	default:
		d.refused.Add(1)
		return fmt.Errorf("enqueue webhook %s: %w (%d events in progress)", ev.EventID, ErrQueueFull, d.opts.QueueSize)
	}
	if q == nil {
		q = &orgQueue{requests: make(chan struct{}, d.opts.OrgConcurrency)}
		d.orgs[ev.OrgID] = q
	}
	q.events++
	d.wg.Add(1)
	go d.deliver(ev, q)
	return nil
}

// Room is how many more events of orgID Enqueue would accept now: what is
// left of the organization's share of the queue, or of the whole queue if
// that is less; 0 once closed. A caller that keeps its own backlog (the
// service's durable outbox) hands over no more than this, so that its events
// wait in the backlog instead of being refused.
func (d *Deliverer) Room(orgID string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return 0
	}
	n := d.opts.OrgQueueSize
	if q := d.orgs[orgID]; q != nil {
		n -= q.events
	}
	return max(0, min(n, d.opts.QueueSize-len(d.slots)))
}

// Stats returns the Deliverer's counters.
func (d *Deliverer) Stats() Stats {
	requests, waiting := d.requests.counts()
	return Stats{InProgress: len(d.slots), Requests: requests, Waiting: waiting, Refused: d.refused.Load()}
}

// finish gives back the queue places of an event of q's organization.
func (d *Deliverer) finish(orgID string, q *orgQueue) {
	d.mu.Lock()
	q.events--
	if q.events == 0 {
		delete(d.orgs, orgID)
	}
	d.mu.Unlock()
	<-d.slots
}

func validateEvent(ev Event) error {
	if !validOrgID(ev.OrgID) {
		return fmt.Errorf("enqueue webhook: organization id %s is not 1..%d printable ASCII characters without spaces", quote(ev.OrgID), maxIDLen)
	}
	if !validID(ev.EventID) {
		return fmt.Errorf("enqueue webhook: event id %s must be 1..%d characters, each one of A-Z a-z 0-9 - _ or a colon", quote(ev.EventID), maxIDLen)
	}
	if err := checkURL(ev.URL); err != nil {
		return fmt.Errorf("enqueue webhook %s: %w", ev.EventID, err)
	}
	return nil
}

// checkURL tells whether raw is a URL an event may be sent to.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("delivery URL %s is %w; set FEATURE_NAME_WEBHOOK to one", quote(raw), ErrInvalidURL)
	}
	return nil
}

// errNotStarted marks an attempt that ended before its request was made
// (the deliverer was shut down while it waited for a request slot): it is
// not counted in Result.Attempts.
type errNotStarted struct{ err error }

func (e errNotStarted) Error() string { return e.err.Error() }
func (e errNotStarted) Unwrap() error { return e.err }

// errRetargeted marks an attempt that Retarget ended unsent.
type errRetargeted struct{ err error }

func (e errRetargeted) Error() string { return e.err.Error() }
func (e errRetargeted) Unwrap() error { return e.err }

// Close stops accepting events and waits for those in progress to finish,
// retries included. If ctx ends first, the remaining deliveries are abandoned
// (reported to OnResult with the context's error) and ctx.Err() is returned.
func (d *Deliverer) Close(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()

	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
		d.cancel()
		return nil
	case <-ctx.Done():
		d.cancel()
		<-done
		return fmt.Errorf("close webhook deliverer: %w", ctx.Err())
	}
}

// Retryable reports whether an attempt that got status (0: no HTTP reply)
// may succeed later: no reply, 5xx, and the 4xx answers that say so,
// 408 Request Timeout and 429 Too Many Requests (a receiver shedding load
// must not lose the event), and 413 Content Too Large: a receiver whose body
// bound is below MaxBodyBytes refuses a genuine event, and retrying gives its
// operator the time to raise the bound rather than losing the event. Any
// other 3xx or 4xx is final.
func Retryable(status int) bool {
	switch status {
	case 0, http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusRequestEntityTooLarge:
		return true
	}
	return status >= 500
}

// deliver runs every attempt of one event.
func (d *Deliverer) deliver(ev Event, q *orgQueue) {
	defer d.wg.Done()
	deadline, limit := d.opts.Now().Add(d.opts.MaxEventAge), d.opts.MaxEventAge.String()
	if !ev.NotAfter.IsZero() && ev.NotAfter.Before(deadline) {
		deadline, limit = ev.NotAfter, "its last sending time, "+ev.NotAfter.UTC().Format(time.RFC3339)
	}
	// Log the host only: a delivery URL may carry a secret token.
	target := ev.URL
	hostOf := func(raw string) string {
		if u, err := url.Parse(raw); err == nil {
			return u.Host
		}
		return raw
	}

	var res Result
	for attempt := 1; ; attempt++ {
		res.Attempts = attempt
		status, kid, retryAfter, err := d.attempt(ev, q, &target)
		host := hostOf(target)
		res.StatusCode, res.KeyID, res.Err = status, kid, err
		if errors.Is(err, ErrTooLate) {
			res.Attempts = attempt - 1 // this one was not sent
			d.log.Warn("webhook not sent: past its last sending time", "org", ev.OrgID, "event", ev.EventID, "host", host, "attempts", res.Attempts)
			break
		}
		if ns, ok := err.(errNotStarted); ok {
			// Shut down while waiting for a request slot: nothing was sent.
			res.Attempts, res.Err = attempt-1, ns.err
			d.log.Warn("webhook abandoned at shutdown before its attempt was sent", "org", ev.OrgID, "event", ev.EventID, "attempts", res.Attempts)
			break
		}
		if re, ok := err.(errRetargeted); ok {
			res.Attempts, res.Err = attempt-1, re.err
			d.log.Warn("webhook not sent: no URL to send it to now", "org", ev.OrgID, "event", ev.EventID, "attempts", res.Attempts, "err", re.err)
			break
		}
		if err == nil {
			res.Delivered = true
			d.log.Info("webhook delivered", "event", ev.EventID, "host", host, "attempt", attempt, "status", status)
			break
		}
		if status == http.StatusRequestEntityTooLarge {
			// Retried, but no retry succeeds until the receiver reads more:
			// its operator must hear of it.
			d.log.Error("webhook receiver refused the body as too large; it must read at least webhook.MaxBodyBytes", "org", ev.OrgID, "event", ev.EventID, "host", host, "attempt", attempt, "bytes", len(ev.Body), "max_body_bytes", MaxBodyBytes)
		}
		if !Retryable(status) || attempt >= d.opts.MaxAttempts || d.ctx.Err() != nil {
			d.log.Warn("webhook not delivered", "event", ev.EventID, "host", host, "attempts", attempt, "status", status, "err", err)
			break
		}
		wait := d.backoff(attempt, retryAfter)
		if d.opts.Now().Add(wait).After(deadline) {
			res.Err = fmt.Errorf("webhook %s given up after %d attempts, its retries would outlast %s: %w", ev.EventID, attempt, limit, err)
			d.log.Warn("webhook not delivered in time", "org", ev.OrgID, "event", ev.EventID, "host", host, "attempts", attempt, "status", status, "max_age", d.opts.MaxEventAge)
			break
		}
		d.log.Info("webhook attempt failed; retrying", "event", ev.EventID, "host", host, "attempt", attempt, "status", status, "err", err, "retry_in", wait)
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-d.ctx.Done():
			t.Stop()
			res.Err = fmt.Errorf("webhook %s abandoned at shutdown after %d attempts: %w", ev.EventID, attempt, err)
			d.log.Warn("webhook abandoned at shutdown", "event", ev.EventID, "host", host, "attempts", attempt)
		}
		if d.ctx.Err() != nil {
			break
		}
	}
	// The queue places are given back before OnResult hears of the outcome:
	// an event it enqueues in turn (or a Stats it reads) finds them free.
	d.finish(ev.OrgID, q)
	if d.opts.OnResult != nil {
		d.opts.OnResult(ev, res)
	}
}

// attempt makes one signed POST, to the URL Retarget gives if set, which it
// stores in target. It returns the HTTP status (0 without a reply), the key
// id used, any Retry-After, and an error unless 2xx.
func (d *Deliverer) attempt(ev Event, q *orgQueue, target *string) (status int, kid string, retryAfter time.Duration, err error) {
	// The organization's slot first: events waiting behind their own
	// organization's slow receiver hold no slot another organization needs.
	select {
	case q.requests <- struct{}{}:
		defer func() { <-q.requests }()
	case <-d.ctx.Done():
		return 0, "", 0, errNotStarted{fmt.Errorf("webhook %s: not sent: %w", ev.EventID, d.ctx.Err())}
	}
	if err := d.requests.acquire(d.ctx, q); err != nil {
		return 0, "", 0, errNotStarted{fmt.Errorf("webhook %s: not sent: %w", ev.EventID, err)}
	}
	defer d.requests.release(q)
	// A slot freed by the shutdown itself may win the select above.
	if err := d.ctx.Err(); err != nil {
		return 0, "", 0, errNotStarted{fmt.Errorf("webhook %s: not sent: %w", ev.EventID, err)}
	}

	// Checked once the slots are held: waiting for them may take past it.
	now := d.opts.Now()
	if !ev.NotAfter.IsZero() && now.After(ev.NotAfter) {
		return 0, "", 0, fmt.Errorf("webhook %s: not sent: it may not be sent after %s: %w", ev.EventID, ev.NotAfter.UTC().Format(time.RFC3339), ErrTooLate)
	}
	if d.opts.Retarget != nil {
		to, err := d.opts.Retarget(ev)
		if err == nil {
			err = checkURL(to)
		}
		if err != nil {
			return 0, "", 0, errRetargeted{fmt.Errorf("webhook %s: not sent: %w", ev.EventID, err)}
		}
		*target = to
	}
	h, release, err := d.ring.signHeld(ev.OrgID, ev.EventID, now, ev.Body)
	if err != nil {
		return 0, "", 0, err
	}
	// The key stays published until the receiver has answered (or we gave up).
	defer release()
	kid = h.Get(HeaderKeyID)

	ctx, cancel := context.WithTimeout(d.ctx, d.opts.AttemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, *target, bytes.NewReader(ev.Body))
	if err != nil {
		return 0, kid, 0, fmt.Errorf("webhook %s: %w", ev.EventID, err)
	}
	req.Header = h
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "vigil-webhooks/1")
	resp, err := d.client.Do(req)
	if err != nil {
		// *url.Error repeats the whole URL, which may carry a secret token.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, kid, 0, fmt.Errorf("webhook %s: POST to %s failed: %w", ev.EventID, req.URL.Host, err)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxReplyBodyBytes)) // lets the connection be reused
	resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.StatusCode, kid, 0, nil
	}
	return resp.StatusCode, kid, parseRetryAfter(resp.Header.Get("Retry-After")),
		fmt.Errorf("webhook %s: receiver answered HTTP %d", ev.EventID, resp.StatusCode)
}

// backoff is the wait after failed attempt n (1-based): BaseBackoff·2^(n-1)
// capped at MaxBackoff, with "equal jitter" (half fixed, half random) so that
// many failing events do not retry in lockstep. A receiver's Retry-After is
// honoured up to MaxBackoff.
func (d *Deliverer) backoff(n int, retryAfter time.Duration) time.Duration {
	wait := d.opts.BaseBackoff
	for i := 1; i < n && wait < d.opts.MaxBackoff; i++ {
		if wait > d.opts.MaxBackoff/2 {
			wait = d.opts.MaxBackoff
			break
		}
		wait *= 2
	}
	wait = min(wait, d.opts.MaxBackoff)
	wait = wait/2 + rand.N(wait/2+1)
	if retryAfter > wait {
		wait = min(retryAfter, d.opts.MaxBackoff)
	}
	return wait
}

// parseRetryAfter reads a delta-seconds Retry-After (dates are ignored).
func parseRetryAfter(v string) time.Duration {
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil {
		return 0
	}
	return time.Duration(n) * time.Second
}
