package cli

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

const webhookListenUsage = `Usage: vigil webhook listen --addr HOST:PORT [--json] [--save DIR] [--max-age D] [--remember D]

Receives webhook deliveries on HOST:PORT (any path, POST) and verifies each
against the profile's published keys ({base_url}/public/v1/discovery/webhooks/jwks,
cached as its Cache-Control allows, refetched once when a delivery names a key
id it does not hold). A delivery is refused when its signature does not verify,
it was signed more than --max-age ago or over a minute ahead of this machine's
clock (answered 503, so the service retries it re-signed: if every delivery
says so, fix the clock), it is not for the profile's
organization_id (403; the service signs every organization's deliveries with
the same keys), or its event id was already accepted with another body (a
replay, 409). The same event id with the same body is the service sending an
accepted event again (its answer was lost): answered 200, printed as a
redelivery, not saved again. Only verified deliveries are answered 2xx; an
unknown key id or unreachable key set is answered 503, so the service retries
it later.

One line per delivery on standard output; with --json one JSON object per line:
{"verified":…,"eventId":…,"keyId":…,"organizationId":…,"activityId":…,"type":…,
"status":…,"reason":…}, and "saved" (the files' name, without .body) with --save.
With --save DIR every verified delivery is written as DIR/NNNNNN-EVENT.body
(exactly as received), .headers ('Name: value' lines) and .jwk (the public
key that verified it), for 'vigil webhook verify'; the newest 100 refused ones go to DIR/refused/ instead (bodies cut to
64 KiB, saved as .body.part). Nothing is written over: a restart on the same
DIR numbers on after the deliveries already there, and still knows the event
ids accepted in the last 24 hours, while the service may send them again (kept
in DIR/accepted-events). A delivery is answered 204 once synced to disk (503 if
that fails: the service sends it again). One listener per DIR: a second one
on the same DIR is refused while the first runs. It stops when its standard
output's reader has gone (| head -1), as Ctrl-C stops it.

Accepted event ids are remembered for --remember (default 24h0m10s, how long
vigil's service may send an event again with its default options). A service
whose Config.Webhooks gives up later logs its own horizon at start ('webhook
redelivery horizon longer than the default'): give the listener that.

Point the organization's webhook at the listener (needs the root quorum):
  vigil feature set --value http://HOST:PORT/ webhook

Examples:
  vigil webhook listen --addr 127.0.0.1:8430
  vigil webhook listen --addr 0.0.0.0:8430 --json --save ./deliveries | jq .

Flags:
`

func webhookListen(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("webhook listen", webhookListenUsage)
	var conn connFlags
	conn.registerReportFlags(fs, `print one JSON object per delivery, one a line ({"verified":…,"eventId":…}), values exact`)
	addr := fs.String("addr", "", "`HOST:PORT` to receive deliveries on")
	saveDir := fs.String("save", "", "write each delivery's body and headers to `DIR` (a directory only you may write)")
	maxAge := fs.Duration("max-age", webhook.DefaultMaxAge, "refuse deliveries signed longer ago than this")
	remember := fs.Duration("remember", server.WebhookRedeliveryHorizon, "remember accepted event ids this long: the service's redelivery horizon")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if *addr == "" {
		return usagef("webhook listen: --addr HOST:PORT is required, e.g. --addr 127.0.0.1:8430")
	}
	if *maxAge <= 0 {
		return usagef("webhook listen: --max-age %s must be positive", *maxAge)
	}
	if *remember < server.WebhookRedeliveryHorizon {
		return usagef("webhook listen: --remember %s is shorter than the service's redelivery horizon with its default options (%s): a late copy of an accepted event would be saved as new; give at least %s, or the horizon the service logs at start",
			*remember, server.WebhookRedeliveryHorizon, server.WebhookRedeliveryHorizon)
	}
	var err error
	if *saveDir, err = flagPath(c, "webhook listen", "save", *saveDir); err != nil {
		return err
	}
	p, err := webhookProfile(c, conn)
	if err != nil {
		return err
	}
	base, err := profileBaseURL(p)
	if err != nil {
		return err
	}
	// A standard output whose reader has gone (| head -1, a jq that
	// exited) ends the listener, as it ends every verb: left running, it
	// would answer every delivery it can no longer show 503, silently,
	// until the service gives the events up. The delivery whose line could
	// not be written is not acknowledged unless --save kept it.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	report := func(r deliveryReport) error {
		err := r.write(c.stdout, conn.json)
		if stdoutClosed(err) {
			stop(err)
		}
		return err
	}
	ln, serve, err := startWebhookListener(*addr, base, p.OrganizationID, *maxAge, *remember, *saveDir, report)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "listening for webhook deliveries of organization %s on http://%s/ (keys from %s)\n",
		api.SanitizeID(p.OrganizationID), ln.Addr(), base+api.JWKSPath)
	if err := serve(ctx); err != nil {
		return err
	}
	if cause := context.Cause(ctx); stdoutClosed(cause) {
		return cause
	}
	return nil
}

// startWebhookListener listens on addr for deliveries of organization org
// verified against the JWKS of base, remembering accepted event ids for
// remember; report is called for each, one at a time (an error from it for a
// new verified delivery answers it 503, so the service sends it again). serve
// runs until ctx ends; with saveDir, the directory stays locked until serve
// returns (lockSaveDir). `vigil webhook listen` and the console's
// webhook_listen use it.
func startWebhookListener(addr, base, org string, maxAge, remember time.Duration, saveDir string, report func(deliveryReport) error) (net.Listener, func(context.Context) error, error) {
	if org == "" {
		return nil, nil, errors.New("webhook listen: the profile has no organization_id to accept deliveries for")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("webhook listen on %s: %w", addr, err)
	}
	// DIR is made last, once everything else has checked out: a run
	// refused on its profile or its address leaves no empty directory.
	if saveDir != "" {
		if err := os.MkdirAll(saveDir, 0o700); err != nil {
			ln.Close()
			return nil, nil, fmt.Errorf("webhook listen: --save: %w", err)
		}
	}
	lock, err := lockSaveDir(saveDir)
	if err != nil {
		ln.Close()
		return nil, nil, err
	}
	l, err := newListener(webhook.NewJWKSCache(base+api.JWKSPath, nil, nil), org, maxAge, remember, saveDir, report, time.Now())
	if err != nil {
		lock.Release()
		ln.Close()
		return nil, nil, fmt.Errorf("webhook listen: --save %s: %w", saveDir, err)
	}
	// As `vigil serve` is served: bounded headers, timeouts, and at most
	// maxConns connections (maxConnsPerPeer from one address), since the
	// usage suggests binding it to every interface. Its errors are not
	// printed: the console owns the terminal.
	srv := newHTTPServer(l, log.New(io.Discard, "", 0))
	limited := limitConns(srv, ln)
	serve := func(ctx context.Context) error {
		defer lock.Release()
		errc := make(chan error, 1)
		go func() { errc <- srv.Serve(limited) }()
		select {
		case <-ctx.Done():
			shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			srv.Shutdown(shut)
			return nil
		case err := <-errc:
			return fmt.Errorf("webhook listen: %w", err)
		}
	}
	return ln, serve, nil
}

// listener verifies deliveries as they arrive.
type listener struct {
	keys   webhook.KeySource
	org    string // the only organization whose deliveries are accepted
	maxAge time.Duration
	// remember is how long the service may send an accepted event again
	// (--remember, server.WebhookOptions.RedeliveryHorizon).
	remember time.Duration
	saveDir  string
	// bodies bounds the delivery bodies held at once, across connections.
	bodies *bodyBudget

	mu       sync.Mutex
	seen     map[string]acceptedEvent // accepted event ids, while the service may send them again
	swept    time.Time                // when seen last dropped what it no longer needs
	nextFile int                      // the number of the next saved delivery
	refused  []string                 // the refused deliveries kept in DIR/refused, oldest first
	// journalLines counts the lines of DIR/accepted-events.
	journalLines int
	report       func(deliveryReport) error
	// now is this machine's clock, which deliveries' timestamps are held
	// to; tests set another.
	now func() time.Time
	// fsync syncs a saved file or DIR; nil is (*os.File).Sync. Tests
	// count what reaches the disk before an acknowledgement.
	fsync func(*os.File) error
}

// acceptedEvent is what the listener remembers of an event it accepted.
type acceptedEvent struct {
	at   time.Time // its last acceptance: the first delivery, or a redelivery
	body [sha256.Size]byte
}

// newListener builds a listener; with saveDir it numbers on after the
// deliveries saved there, and remembers the event ids accepted there within
// the memory window (a restart does not make a redelivery new again).
func newListener(keys webhook.KeySource, org string, maxAge, remember time.Duration, saveDir string, report func(deliveryReport) error, now time.Time) (*listener, error) {
	l := &listener{keys: keys, org: org, maxAge: maxAge, remember: remember, saveDir: saveDir, bodies: newBodyBudget(deliveryBodyBudget), seen: map[string]acceptedEvent{}, nextFile: 1, report: report, now: time.Now}
	if saveDir == "" {
		return l, nil
	}
	last, err := lastSavedNumber(saveDir)
	if err != nil {
		return nil, err
	}
	l.nextFile = last + 1
	if err := checkRefusedDir(filepath.Join(saveDir, refusedDir)); err != nil {
		return nil, err
	}
	if l.refused, err = savedBases(filepath.Join(saveDir, refusedDir)); err != nil {
		return nil, err
	}
	if err := l.loadAcceptedLocked(now); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "webhook deliveries are POSTed", http.StatusMethodNotAllowed)
		return
	}
	now := l.now()
	// What needs no body first: a request without the headers or another
	// organization's delivery is refused unread and unsaved. A timestamp
	// outside the window is not refused here: only the signature tells the
	// service's delivery (a clock to fix: answered so that it is retried)
	// from a forged one.
	if herr := webhook.CheckHeaders(l.org, r.Header, now, l.maxAge); herr != nil {
		l.mu.Lock()
		rep := reportDelivery(r.Header, nil, nil, herr)
		rep.unread = true
		l.report(rep)
		l.mu.Unlock()
		http.Error(w, "delivery refused: "+api.Sanitize(rep.Reason), refusalStatus(herr))
		return
	}
	body, release, err := l.bodies.readBody(w, r, maxDeliveryBody)
	defer release()
	if errors.Is(err, errBodyBudgetSpent) {
		l.mu.Lock()
		rep := reportDelivery(r.Header, nil, nil, err)
		rep.unread = true
		l.report(rep)
		l.mu.Unlock()
		w.Header().Set("Retry-After", "1")
		http.Error(w, "delivery not read: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	if err != nil {
		// Said on the output: the service retries either answer, and
		// whoever runs the listener must see why the event does not arrive.
		// Only a body over the bound is a 413 (the service logs it as a
		// bound to raise); a body that did not arrive whole (cut off, the
		// read timeout) is the connection's fault: 503, sent again.
		reason := fmt.Errorf("body not read whole (%w): not verified nor saved; answered 503, the service sends it again", err)
		status := http.StatusServiceUnavailable
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			reason = fmt.Errorf("body over %d MiB, the most a delivery may be; not read", maxDeliveryBody>>20)
			status = http.StatusRequestEntityTooLarge
		} else if errors.Is(err, io.ErrUnexpectedEOF) {
			end := "its Content-Length" // a chunked body has none
			if r.ContentLength < 0 {
				end = "its last chunk"
			}
			reason = fmt.Errorf("body truncated: the connection ended before %s arrived; not verified nor saved; answered 503, the service sends it again", end)
		}
		l.mu.Lock()
		rep := reportDelivery(r.Header, nil, nil, reason)
		rep.unread = true
		l.report(rep)
		l.mu.Unlock()
		http.Error(w, "delivery refused: "+api.Sanitize(rep.Reason), status)
		return
	}
	d, verr := webhook.VerifyForOrganization(r.Context(), l.org, r.Header, body, l.keys, now, l.maxAge)
	l.mu.Lock()
	rep, status := l.acceptLocked(r.Header, body, d, verr, now)
	l.mu.Unlock()
	if status/100 == 2 {
		w.WriteHeader(status)
		return
	}
	http.Error(w, "delivery refused: "+api.Sanitize(rep.Reason), status)
}

// acceptLocked decides on a delivery whose body was read and verified (or
// not: verr), saves and reports it, and returns the report and the status to
// answer. A redelivery of an accepted event (same id, same body: the service
// sends again what it stored, signed afresh, when an answer was lost) is
// answered 200 and reported as one, neither saved nor listed again: refusing
// it would make the service keep a delivered event as dead. The same event id
// with another body is no redelivery and is refused (409).
func (l *listener) acceptLocked(h http.Header, body []byte, d *webhook.Delivery, verr error, now time.Time) (deliveryReport, int) {
	sum := sha256.Sum256(body)
	if verr == nil {
		l.forgetLocked(now)
		if prev, dup := l.seen[d.EventID]; dup {
			if prev.body == sum {
				rep := reportDelivery(h, body, d, nil)
				rep.Redelivery = true
				rep.Reason = fmt.Sprintf("redelivery of event %s, already accepted at %s: not saved again", d.EventID, prev.at.UTC().Format(time.RFC3339))
				// Remembered from now on, as long as this copy could be replayed.
				l.seen[d.EventID] = acceptedEvent{at: now, body: sum}
				if _, err := l.journalLocked(d.EventID, sum, now); err != nil {
					rep.Reason += "; " + err.Error()
				}
				l.report(rep) // already accepted: a report that fails loses nothing
				return rep, http.StatusOK
			}
			verr = fmt.Errorf("event %s was already accepted at %s with another body; a redelivery repeats the body, so this is refused as a replay", d.EventID, prev.at.UTC().Format(time.RFC3339))
			rep := reportDelivery(h, body, d, verr)
			l.saveRefusedLocked(&rep, h, body)
			l.report(rep)
			return rep, http.StatusConflict
		}
	}
	rep := reportDelivery(h, body, d, verr)
	if verr != nil {
		if errors.Is(verr, webhook.ErrStale) {
			rep.Reason += "; answered 503: the service sends it again, re-signed, until it gives up on it (24 hours by default)"
		}
		l.saveRefusedLocked(&rep, h, body)
		l.report(rep)
		return rep, refusalStatus(verr)
	}
	if l.saveDir != "" {
		// Kept on disk, and remembered there across restarts, before it
		// is acknowledged; else it is not acknowledged and comes again.
		name, err := l.keepLocked(d, h, body, sum, now)
		if err != nil {
			rep.Verified = false
			rep.Reason = "verified but not saved (" + err.Error() + "): answered 503, the service sends it again"
			l.report(rep)
			return rep, http.StatusServiceUnavailable
		}
		rep.Saved = name
		l.seen[d.EventID] = acceptedEvent{at: now, body: sum}
		l.report(rep) // saved: a report that fails loses nothing
		return rep, http.StatusNoContent
	}
	if err := l.report(rep); err != nil {
		// Neither shown nor kept: the service sends it again.
		rep.Reason = "not taken: " + err.Error()
		return rep, http.StatusServiceUnavailable
	}
	l.seen[d.EventID] = acceptedEvent{at: now, body: sum}
	return rep, http.StatusNoContent
}

// refusalStatus is the status a refused delivery is answered with.
func refusalStatus(err error) int {
	switch {
	case errors.Is(err, webhook.ErrUnknownKey), errors.Is(err, webhook.ErrJWKSUnavailable):
		// Perhaps a key newer than the cached set that may not be refetched
		// yet: the service retries later.
		return http.StatusServiceUnavailable
	case errors.Is(err, webhook.ErrStale):
		// Not badly signed (that is ErrBadSignature): the service's own
		// delivery when the clocks disagree. A final refusal would lose
		// every event until the clock is fixed; the service signs each
		// retry afresh, so one arrives once it is. A replayed copy is
		// refused all the same: a 503 gains its sender nothing.
		return http.StatusServiceUnavailable
	case errors.Is(err, webhook.ErrMalformed):
		return http.StatusBadRequest
	case errors.Is(err, webhook.ErrOtherOrganization):
		return http.StatusForbidden
	}
	return http.StatusUnauthorized
}

// memoryWindow is how long an accepted event id is remembered. A replayed
// copy is refused as stale after --max-age anyway, but the service signs
// each attempt afresh and sends an event again until it gives up on it, also
// at its next start after a crash between this listener's 204 and its own
// record of it: a redelivery that late must still be known as one, not
// saved as new. The service's redelivery horizon bounds how late (24 h 10 s
// with its defaults, server.WebhookRedeliveryHorizon; --remember says
// another); both instants are read on this listener's clock, so the margin
// of two clock skews is not needed for the service's clock, only kept as
// slack.
func (l *listener) memoryWindow() time.Duration {
	return max(l.maxAge, l.remember) + 2*webhook.MaxClockSkew
}

// forgetLocked drops event ids the service no longer sends again, at most
// once a minute: seen holds a day of events, too many to walk per delivery.
func (l *listener) forgetLocked(now time.Time) {
	if now.Sub(l.swept) < time.Minute && now.After(l.swept) {
		return
	}
	l.swept = now
	for id, e := range l.seen {
		if now.Sub(e.at) > l.memoryWindow() {
			delete(l.seen, id)
		}
	}
}
