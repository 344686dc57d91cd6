package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/webhook"
)

const webhookListenUsage = `Usage: vigil webhook listen --addr HOST:PORT [--json] [--save DIR] [--max-age D]

Receives webhook deliveries on HOST:PORT (any path, POST) and verifies each
against the profile's published keys ({base_url}/public/v1/discovery/webhooks/jwks,
cached as its Cache-Control allows, refetched once when a delivery names a key
id it does not hold). A delivery is refused when its signature does not verify,
it was signed more than --max-age ago, it is not for the profile's
organization_id (403; the service signs every organization's deliveries with
the same keys), or its event id was already accepted (a replay). Only verified
deliveries are answered 2xx; an unknown key id or unreachable key set is
answered 503, so the service retries it later.

One line per delivery on standard output; with --json one JSON object per line:
{"verified":…,"eventId":…,"keyId":…,"organizationId":…,"activityId":…,"type":…,
"status":…,"reason":…}, and "saved" (the files' name, without .body) with --save.
With --save DIR every verified delivery is written as DIR/NNNNNN-EVENT.body
(exactly as received) and .headers ('Name: value' lines), for 'vigil webhook
verify'; a refused one goes to DIR/refused/ instead. Nothing is written over: a
restart on the same DIR numbers on after the deliveries already there.

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
	saveDir := fs.String("save", "", "write each delivery's body and headers to `DIR`")
	maxAge := fs.Duration("max-age", webhook.DefaultMaxAge, "refuse deliveries signed longer ago than this")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if *addr == "" {
		return usagef("webhook listen: --addr HOST:PORT is required, e.g. --addr 127.0.0.1:8430")
	}
	if *maxAge <= 0 {
		return usagef("webhook listen: --max-age %s must be positive", *maxAge)
	}
	if *saveDir != "" {
		if err := os.MkdirAll(*saveDir, 0o700); err != nil {
			return fmt.Errorf("webhook listen: --save: %w", err)
		}
	}
	p, err := webhookProfile(c, conn)
	if err != nil {
		return err
	}
	base, err := profileBaseURL(p)
	if err != nil {
		return err
	}
	report := func(r deliveryReport) { r.write(c.stdout, conn.json) }
	ln, serve, err := startWebhookListener(*addr, base, p.OrganizationID, *maxAge, *saveDir, report)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "listening for webhook deliveries of organization %s on http://%s/ (keys from %s)\n",
		api.SanitizeID(p.OrganizationID), ln.Addr(), base+api.JWKSPath)
	return serve(ctx)
}

// startWebhookListener listens on addr for deliveries of organization org
// verified against the JWKS of base; report is called for each, one at a
// time. serve runs until ctx ends. `vigil webhook listen` and the console's
// webhook_listen use it.
func startWebhookListener(addr, base, org string, maxAge time.Duration, saveDir string, report func(deliveryReport)) (net.Listener, func(context.Context) error, error) {
	if org == "" {
		return nil, nil, errors.New("webhook listen: the profile has no organization_id to accept deliveries for")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("webhook listen on %s: %w", addr, err)
	}
	l := &listener{
		keys:     webhook.NewJWKSCache(base+api.JWKSPath, nil, nil),
		org:      org,
		maxAge:   maxAge,
		saveDir:  saveDir,
		seen:     map[string]time.Time{},
		nextFile: 1,
		report:   report,
	}
	if saveDir != "" {
		// A restart on the same directory goes on after the deliveries
		// already there rather than numbering from 1 again.
		last, err := lastSavedNumber(saveDir)
		if err != nil {
			ln.Close()
			return nil, nil, fmt.Errorf("webhook listen: --save %s: %w", saveDir, err)
		}
		l.nextFile = last + 1
	}
	// As `vigil serve` is served: bounded headers, timeouts, and at most
	// maxConns connections (maxConnsPerPeer from one address), since the
	// usage suggests binding it to every interface. Its errors are not
	// printed: the console owns the terminal.
	srv := newHTTPServer(l, log.New(io.Discard, "", 0))
	limited := limitConns(srv, ln)
	serve := func(ctx context.Context) error {
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
	keys    webhook.KeySource
	org     string // the only organization whose deliveries are accepted
	maxAge  time.Duration
	saveDir string

	mu       sync.Mutex
	seen     map[string]time.Time // accepted event ids, until they would be stale anyway
	nextFile int                  // the number of the next saved delivery
	report   func(deliveryReport)
}

func (l *listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "webhook deliveries are POSTed", http.StatusMethodNotAllowed)
		return
	}
	now := time.Now()
	// What needs no body first: a request without the headers, a stale
	// replay or another organization's delivery is refused unread and unsaved.
	if herr := webhook.CheckHeaders(l.org, r.Header, now, l.maxAge); herr != nil {
		l.mu.Lock()
		rep := reportDelivery(r.Header, nil, nil, herr)
		l.report(rep)
		l.mu.Unlock()
		http.Error(w, "delivery refused: "+api.Sanitize(rep.Reason), refusalStatus(herr))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxDeliveryBody))
	if err != nil {
		http.Error(w, "body unreadable or too large", http.StatusRequestEntityTooLarge)
		return
	}
	d, verr := webhook.VerifyForOrganization(r.Context(), l.org, r.Header, body, l.keys, now, l.maxAge)
	status := http.StatusNoContent
	if verr != nil {
		status = refusalStatus(verr)
	}

	l.mu.Lock()
	if verr == nil {
		l.forgetLocked(now)
		if at, dup := l.seen[d.EventID]; dup {
			verr = fmt.Errorf("replayed: event %s was already accepted at %s", d.EventID, at.UTC().Format(time.RFC3339))
			status = http.StatusConflict
		} else {
			l.seen[d.EventID] = now
		}
	}
	rep := reportDelivery(r.Header, body, d, verr)
	if l.saveDir != "" {
		name, err := l.saveLocked(rep.EventID, verr == nil, r.Header, body)
		if err != nil {
			rep.Reason = strings.TrimPrefix(rep.Reason+"; ", "; ") + "not saved: " + err.Error()
		} else {
			rep.Saved = name
		}
	}
	l.report(rep)
	l.mu.Unlock()

	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	http.Error(w, "delivery refused: "+api.Sanitize(rep.Reason), status)
}

// refusalStatus is the status a refused delivery is answered with.
func refusalStatus(err error) int {
	switch {
	case errors.Is(err, webhook.ErrUnknownKey), errors.Is(err, webhook.ErrJWKSUnavailable):
		// Perhaps a key newer than the cached set that may not be refetched
		// yet: the service retries later.
		return http.StatusServiceUnavailable
	case errors.Is(err, webhook.ErrMalformed):
		return http.StatusBadRequest
	case errors.Is(err, webhook.ErrOtherOrganization):
		return http.StatusForbidden
	}
	return http.StatusUnauthorized
}

// forgetLocked drops event ids old enough that a replay of them is refused as
// stale anyway.
func (l *listener) forgetLocked(now time.Time) {
	for id, at := range l.seen {
		if now.Sub(at) > l.maxAge+2*webhook.MaxClockSkew {
			delete(l.seen, id)
		}
	}
}

// refusedDir is the subdirectory of --save DIR that refused deliveries go
// to, so that a forgery can never take the name of a verified delivery.
const refusedDir = "refused"

// saveLocked writes the delivery as DIR/NNNNNN-EVENT.body and .headers (0600),
// or under DIR/refused/ when it was not verified. Files are created, never
// written over: a name already taken (by an earlier run, or anything else)
// moves the delivery to the next number.
func (l *listener) saveLocked(eventID string, verified bool, h http.Header, body []byte) (string, error) {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, eventID)
	if len(safe) > 100 {
		safe = safe[:100]
	}
	var hb strings.Builder
	for _, k := range signedHeaders {
		for _, v := range h.Values(k) {
			fmt.Fprintf(&hb, "%s: %s\n", k, strings.NewReplacer("\r", "", "\n", "").Replace(v))
		}
	}
	dir := l.saveDir
	if !verified {
		dir = filepath.Join(l.saveDir, refusedDir)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
	}
	const maxTaken = 1000 // names in a row found taken before giving up
	for range maxTaken {
		base := filepath.Join(dir, fmt.Sprintf("%06d-%s", l.nextFile, safe))
		l.nextFile++
		err := createExclusive(base+".body", body)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		err = createExclusive(base+".headers", []byte(hb.String()))
		if errors.Is(err, fs.ErrExist) {
			os.Remove(base + ".body") // ours, just written: the pair moves on
			continue
		}
		if err != nil {
			return "", err
		}
		return base, nil
	}
	return "", fmt.Errorf("%d names in a row in %s are taken; save to an empty directory", maxTaken, dir)
}

// createExclusive writes data to a new file at path (0600); it fails with
// fs.ErrExist rather than write over a file that is there.
func createExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path) // ours, and incomplete
	}
	return err
}

// lastSavedNumber is the highest NNNNNN of the deliveries saved in dir and
// dir/refused, 0 when there are none.
func lastSavedNumber(dir string) (int, error) {
	last := 0
	for _, d := range []string{dir, filepath.Join(dir, refusedDir)} {
		entries, err := os.ReadDir(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, err
		}
		for _, e := range entries {
			digits, _, ok := strings.Cut(e.Name(), "-")
			if !ok || len(digits) < 6 || len(digits) > 9 {
				continue
			}
			n, err := strconv.Atoi(digits)
			if err == nil && n > last {
				last = n
			}
		}
	}
	return last, nil
}

// consoleWebhookFeed starts the profile's webhook_listen listener for the
// console's Webhooks screen (nil when the profile has none); it stops with
// ctx. Deliveries are answered as 'vigil webhook listen' answers them and
// logged; none is printed, the console owns the terminal.
func consoleWebhookFeed(ctx context.Context, p Profile, logger *slog.Logger) (*screens.WebhookFeed, error) {
	if p.WebhookListen == "" {
		return nil, nil
	}
	if p.BaseURL == "" {
		return nil, fmt.Errorf("profile %q: webhook_listen needs base_url, where the webhook keys are published", p.Name)
	}
	ch := make(chan screens.WebhookDelivery, 256)
	var mu sync.Mutex
	closed := false
	report := func(r deliveryReport) {
		d := screens.WebhookDelivery{At: time.Now(), Verified: r.Verified, EventID: r.EventID, KeyID: r.KeyID,
			OrganizationID: r.OrganizationID, ActivityID: r.ActivityID, Type: r.Type, Status: r.Status, Reason: r.Reason}
		logger.Info("webhook delivery", "verified", r.Verified, "event", api.SanitizeID(r.EventID), "org", api.SanitizeID(r.OrganizationID),
			"kid", api.SanitizeID(r.KeyID), "reason", api.Sanitize(r.Reason))
		mu.Lock()
		defer mu.Unlock()
		if closed {
			return
		}
		select {
		case ch <- d:
		default:
			logger.Warn("webhook delivery not shown: the console is behind", "event", api.SanitizeID(r.EventID))
		}
	}
	ln, serve, err := startWebhookListener(p.WebhookListen, strings.TrimRight(p.BaseURL, "/"), p.OrganizationID, webhook.DefaultMaxAge, "", report)
	if err != nil {
		return nil, fmt.Errorf("profile %q: webhook_listen: %w", p.Name, err)
	}
	go func() {
		if err := serve(ctx); err != nil {
			logger.Error("webhook listener stopped", "err", err)
		}
		mu.Lock()
		closed = true
		close(ch)
		mu.Unlock()
	}()
	return &screens.WebhookFeed{Addr: ln.Addr().String(), Deliveries: ch}, nil
}
