package api

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/profile"
)

// MaxReplyBytes bounds every reply body the client reads, so that a hostile or
// broken server cannot exhaust memory.
const MaxReplyBytes = 16 << 20

// DefaultMaxListReplyBytes bounds the replies of the list queries the service
// cannot page (list_users, list_policies, …): they grow with the organization,
// and a user with a few keys and passkeys takes about 3.6 kB, so 16 MiB ends
// near 4,700 users. 256 MiB holds about 70,000 such users, and decoding it
// peaks near 1 GiB (docs/performance.md), which a workstation has.
const DefaultMaxListReplyBytes = 256 << 20

// Default retry policy of queries: up to 3 retries, backoff from 200ms doubling to
// at most 5s, with jitter.
const (
	DefaultMaxRetries   = 3
	DefaultRetryBase    = 200 * time.Millisecond
	DefaultRetryCap     = 5 * time.Second
	DefaultUserAgent    = "vigil"
	defaultHTTPTimeout  = 30 * time.Second
	maxRetryAfter       = time.Minute // a longer Retry-After gives up instead of hanging
	errorExcerptRunes   = 200
	errorMessageMaxRune = 1000
	// The service's errors carry one or two details; more, or longer codes,
	// would only flood the error line a terminal shows.
	errorDetailsMax        = 8
	errorDetailCodeMaxRune = 64
)

// Client is a typed client of the activity/query service for one organization.
// It is safe for concurrent use.
type Client struct {
	baseURL   string // without a trailing slash
	org       string
	stamper   keys.Stamper
	http      *http.Client
	now       func() time.Time
	userAgent string

	maxRetries          int
	maxReply            int64 // the most of a reply read (MaxReplyBytes, or WithMaxReplyBytes)
	maxListReply        int64 // the same for unpaged lists (unpagedLists)
	listReplySetting    string
	retryBase, retryCap time.Duration

	exact bool // leave decoded strings as sent (WithExactStrings)

	pageSizes pageSizes // the list_activities pages that fit in maxReply

	authProxyURL      string
	authProxyConfigID string

	sleep func(context.Context, time.Duration) error // waits between attempts; tests record it

	retryNotice func(RetryNotice) // told before a query is asked again (WithRetryNotice); nil: nobody

	unreachableAdvice string // what to do when the service refuses connections (WithUnreachableAdvice); "": check base_url

	clock serviceClock // the service's clock, from its replies' Date headers
}

func checkBaseURL(raw string) (string, error) {
	// Its host would go to the resolver, and back in "cannot resolve the
	// host …".
	if keys.URLHoldsSecret(raw) {
		return "", fmt.Errorf("is %s", keys.SecretInFile(raw, "a URL"))
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error quotes the URL, credentials and all
		}
		return "", fmt.Errorf("%s is not a URL: %w", profile.ShowURL(raw), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%s: use an http:// or https:// URL such as https://api.example.com", profile.ShowURL(raw))
	}
	if u.Host == "" {
		return "", fmt.Errorf("%s has no host; use a URL such as https://api.example.com", profile.ShowURL(raw))
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%s: leave out the query, fragment and user info; give only scheme, host and optional path", profile.ShowURL(raw))
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// NewClient returns a client of the service at baseURL (e.g. https://api.example.com,
// without /public/v1) acting for organizationID, stamping with stamper. A nil
// stamper and an empty organizationID are allowed for a client that only calls
// WebhookJWKS and WalletKitConfig; stamped calls then fail before sending with a
// clear error (a *ValidationError naming organizationId for the missing
// organization, which every submit and query must carry).
func NewClient(baseURL, organizationID string, stamper keys.Stamper, opts ...Option) (*Client, error) {
	base, err := checkBaseURL(baseURL)
	if err != nil {
		return nil, fmt.Errorf("new client: base URL %w", err)
	}
	c := &Client{
		baseURL:      base,
		org:          organizationID,
		stamper:      stamper,
		http:         &http.Client{Timeout: defaultHTTPTimeout},
		now:          time.Now,
		userAgent:    DefaultUserAgent,
		maxRetries:   DefaultMaxRetries,
		maxReply:     MaxReplyBytes,
		maxListReply: DefaultMaxListReplyBytes,
		retryBase:    DefaultRetryBase,
		retryCap:     DefaultRetryCap,
		sleep:        sleep,
	}
	for _, opt := range opts {
		if err := opt(c); err != nil {
			return nil, fmt.Errorf("new client: %w", err)
		}
	}
	c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.http.Transport = typedProxyRefusals(c.http.Transport)
	return c, nil
}

// OrganizationID is the organization the client acts for.
func (c *Client) OrganizationID() string { return c.org }

// Stamper is the key the client stamps with; nil for none.
func (c *Client) Stamper() keys.Stamper { return c.stamper }

// BaseURL is the service base URL, without a trailing slash.
func (c *Client) BaseURL() string { return c.baseURL }

// call is one logical request.
type call struct {
	op      string // "submit/create_policy", for errors
	method  string
	url     string
	body    []byte // sent (and stamped) exactly as is; nil for GET
	stamp   bool
	retry   bool // only idempotent reads are retried
	headers map[string]string
	// setting names the profile setting the URL comes from, for transport
	// errors: "" is base_url.
	setting string
	// list: the reply is an unpaged list, bounded by maxListReply.
	list bool
	// stamper signs a submit; kept with an unknown outcome, so that only its
	// signer resends it (Resubmit).
	stamper keys.Stamper
	// sentSig, when set, gets the signature of the stamp sent (NoteSignature).
	sentSig *string
}

// replyLimit is the most of cl's reply the client reads, and the error of a
// reply over it.
func (c *Client) replyLimit(cl call) (int64, *replyTooLargeError) {
	if !cl.list {
		return c.maxReply, &replyTooLargeError{limit: c.maxReply}
	}
	setting := c.listReplySetting
	if setting == "" {
		setting = "the client's WithMaxListReplyBytes"
	}
	return c.maxListReply, &replyTooLargeError{limit: c.maxListReply, list: true, setting: setting}
}

// do performs c (retrying reads) and decodes a 2xx reply into out, then sanitises
// it (unless WithExactStrings).
func (c *Client) do(ctx context.Context, cl call, out any) error {
	if cl.stamp {
		if err := c.canStamp(cl.op); err != nil {
			return &notSentError{err}
		}
	}
	start := c.now()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return &notSentError{fmt.Errorf("%s: the request was not sent: %w", cl.op, err)}
		}
		r, err := c.roundTrip(ctx, cl)
		var failed error // the attempt's error, said with the next attempt (WithRetryNotice)
		status := r.status
		var wait time.Duration
		switch {
		case err != nil:
			var le *localError
			if errors.As(err, &le) {
				return &notSentError{fmt.Errorf("%s: %w", cl.op, err)}
			}
			var tooLarge *replyTooLargeError
			if cl.retry && (errors.As(err, &tooLarge) || wrongScheme(err) || proxyRefused(err)) {
				return fmt.Errorf("%s: %w", cl.op, err) // the same question gets the same answer
			}
			if !cl.retry {
				// A submit: unless it certainly never left, the service may have
				// recorded it (even if ctx ended or the reply was unreadable).
				if notSent(err) {
					return &notSentError{fmt.Errorf("%s: the request was not sent: %w", cl.op, err)}
				}
				return cl.outcomeUnknown(err)
			}
			if ctxErr := ctx.Err(); ctxErr != nil {
				return fmt.Errorf("%s: %w", cl.op, ctxErr)
			}
			wait = c.backoff(attempt)
			if attempt >= c.maxRetries || outlasts(ctx, wait) {
				return &triedError{op: cl.op, err: err, attempts: attempt + 1, took: c.now().Sub(start)}
			}
			failed = err
		case status >= 200 && status < 300:
			if cl.retry {
				if err := errorInSuccess(cl, status, r.body); err != nil {
					return err // the same question gets the same answer
				}
			}
			if out == nil {
				c.noteServiceDate(cl, r, true)
				return nil
			}
			err := c.decode(cl.op, r.body, out)
			c.noteServiceDate(cl, r, err == nil)
			if err != nil && !cl.retry {
				// The service accepted the submit: it may have recorded it.
				return cl.outcomeUnknown(&unreadableReplyError{err})
			}
			return err
		default:
			apiErr := newError(cl.op, status, r.body)
			apiErr.setting = cl.setting
			apiErr.RetryAfter = c.retryAfterOf(r)
			c.noteServiceDate(cl, r, isServiceError(r.body))
			if !cl.retry && mayHaveRecorded(status) && !apiErr.notRecorded() {
				return cl.outcomeUnknown(apiErr)
			}
			var again bool
			if wait, again = c.retryWait(ctx, cl, attempt, r); !again {
				if attempt > 0 {
					apiErr.attempts, apiErr.took = attempt+1, c.now().Sub(start)
				}
				return apiErr
			}
			failed = apiErr
		}
		if c.retryNotice != nil {
			c.retryNotice(RetryNotice{Operation: cl.op, Err: failed, Next: attempt + 2, Max: c.maxRetries + 1, Wait: wait})
		}
		if err := c.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: %w", cl.op, err)
		}
	}
}

// triedError is a query's last transport failure after one or more
// attempts: it says how many were made and over how long, as the last
// attempt's own words ("no reply … within 30s") would understate the wait.
type triedError struct {
	op       string
	err      error
	attempts int
	took     time.Duration
}

func (e *triedError) Error() string {
	if e.attempts <= 1 {
		return e.op + ": " + e.err.Error()
	}
	return fmt.Sprintf("%s: %s (%d attempts over %s)", e.op, e.err, e.attempts, e.took.Round(time.Second))
}
func (e *triedError) Unwrap() error { return e.err }

// canStamp checks, before anything is built or sent, that the client can make
// a stamped request: it has a stamping key and an organization to act for.
func (c *Client) canStamp(op string) error {
	if c.stamper == nil {
		return fmt.Errorf("%s: no stamping key configured; set the profile's key", op)
	}
	if c.org == "" {
		return fmt.Errorf("%s: %w", op, noOrganizationError())
	}
	return nil
}

// noOrganizationError refuses a stamped request of a client made without an
// organization: SPEC.md requires organizationId in every submit and query.
func noOrganizationError() *ValidationError {
	return &ValidationError{Field: "organizationId",
		Problem: "is empty; create the client with the id of the organization to act for (a profile's organization_id)"}
}

// outcomeUnknown is the error of a submit that was sent and not answered
// clearly; it keeps the request for Resubmit.
func (cl call) outcomeUnknown(err error) *OutcomeUnknownError {
	return &OutcomeUnknownError{Operation: cl.op, Err: err, url: cl.url, body: cl.body, stamper: cl.stamper}
}

// ReplyMayHaveRecorded reports whether a reply of this status and body to a
// submit leaves its outcome unknown: a 5xx may follow a recorded write,
// unless its body says for certain that nothing was recorded (the local
// service's 503 BUSY and STORAGE_FAILED). What a typed submit turns into an
// *OutcomeUnknownError, for callers that send raw requests (Send).
func ReplyMayHaveRecorded(status int, body []byte) bool {
	return mayHaveRecorded(status) && !newError("", status, body).notRecorded()
}

// mayHaveRecorded reports the error statuses after which a submit may have
// been recorded all the same: every 5xx. The service may fail after its
// commit, and a gateway in front of it (502, 504, a CDN's 520-524, a proxy's
// 599) may give up after the service accepted the request; no list of
// gateway statuses is complete, so none is trusted to mean "not recorded".
// The local service's own 503s that say nothing was recorded are the
// exception (Error.notRecorded), checked by the callers.
func mayHaveRecorded(status int) bool {
	return status >= 500
}

// Resubmit sends the request of a submit whose outcome was unknown again,
// byte for byte (with a fresh stamp): the service answers with the activity the
// first attempt created, or creates it now if that attempt never arrived. It
// must be sent within the service's timestamp window (five minutes) of the
// first attempt; later, the service refuses it as stale, and the activity list
// is where to look.
func (c *Client) Resubmit(ctx context.Context, prev *OutcomeUnknownError) (*Activity, error) {
	if prev == nil || prev.body == nil || !strings.HasPrefix(prev.url, c.baseURL+SubmitPrefix) {
		return nil, errors.New("resubmit: the earlier request was not a submit of this client")
	}
	// The same bytes stamped by another member count as that member's
	// approval (docs/local-service.md, "Replays"): a resend is only the
	// signer's own.
	if !sameSigner(prev.stamper, c.stamper) {
		return nil, errors.New("resubmit: the earlier request was signed with another key than this client's; resend it with the client that sent it (sending it with this key would count as this key's user's approval)")
	}
	if org := bindingOf(prev.body).org; org != c.org {
		return nil, fmt.Errorf("resubmit: the earlier request is for organization %s, not this client's %s", shown(org), shown(c.org))
	}
	return c.sendActivity(ctx, call{op: prev.Operation, method: "POST", url: prev.url, body: prev.body, stamp: true, stamper: c.stamper})
}

// localError marks a failure before anything was sent (building or stamping the
// request), which no retry can fix.
type localError struct {
	what string
	err  error
}

func (e *localError) Error() string { return e.what + ": " + e.err.Error() }
func (e *localError) Unwrap() error { return e.err }

// decode decodes the 2xx reply to op into out, sanitised for display unless
// the client keeps strings exact (WithExactStrings).
func (c *Client) decode(op string, reply []byte, out any) error {
	if err := json.Unmarshal(reply, out); err != nil {
		return unexpectedJSON(op, err)
	}
	if !c.exact {
		SanitizeValue(out)
		if m, ok := out.(interface{ markEscaped() }); ok {
			m.markEscaped()
		}
	}
	return nil
}

// reply is what one attempt got back.
type reply struct {
	body     []byte
	status   int
	header   http.Header
	received time.Time // this machine's clock, when the headers arrived
}

// roundTrip sends one attempt and reads the reply, at most MaxReplyBytes.
func (c *Client) roundTrip(ctx context.Context, cl call) (reply, error) {
	var body io.Reader
	if cl.body != nil {
		body = bytes.NewReader(cl.body)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, cl.url, body)
	if err != nil {
		return reply{}, &localError{"build the request", err}
	}
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	for k, v := range cl.headers {
		req.Header.Set(k, v)
	}
	if cl.stamp {
		// Re-stamping the same bytes on a retry is harmless; a fresh stamp keeps
		// stampers that embed time (WebAuthn assertions) valid.
		signStart := time.Now()
		name, value, err := c.stamper.Stamp(cl.body)
		if err != nil {
			return reply{}, &localError{"stamp the request", err}
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			// A key behind the ssh-agent may wait for a confirmation, touch or
			// PIN past the caller's deadline. net/http would then fail before
			// asking for a connection, which the write trace cannot tell from
			// a request lost in flight: say here that nothing went out.
			return reply{}, &localError{"stamp the request", fmt.Errorf("the key took %s to sign, and the time for the request ran out meanwhile (%w); nothing was sent: try again, answering any confirmation, touch or PIN the key asks for sooner",
				time.Since(signStart).Round(100*time.Millisecond), ctxErr)}
		}
		req.Header.Set(name, value)
		if cl.sentSig != nil {
			*cl.sentSig = stampSignature(name, value)
		}
	}
	req, trace := traceWrites(req)
	resp, err := c.http.Do(req)
	if err != nil {
		setting := cl.setting
		if setting == "" {
			setting = "base_url"
		}
		if ctx.Err() == nil {
			err = describeTransportError(req.URL.Host, setting, proxyAddr(c.http, req), c.unreachableAdvice, c.http.Timeout, err)
		} // else the caller's own deadline or cancellation, said as it is
		if trace.unwritten() {
			err = &unwrittenError{err}
		}
		return reply{}, err
	}
	defer resp.Body.Close()
	received := c.now()
	limit, tooLarge := c.replyLimit(cl)
	if resp.ContentLength > limit {
		return reply{}, tooLarge // refused before reading it
	}
	got, err := readBody(resp.Body, resp.ContentLength, limit)
	if err != nil {
		if ctx.Err() == nil {
			return reply{}, describeBodyError(req.URL.Host, resp.StatusCode, len(got), c.http.Timeout, err)
		}
		return reply{}, fmt.Errorf("read reply: %w", err) // the caller's own deadline or cancellation
	}
	if int64(len(got)) > limit {
		return reply{}, tooLarge
	}
	return reply{body: got, status: resp.StatusCode, header: resp.Header, received: received}, nil
}

// transportError says in plain words what went wrong on the way to the service,
// instead of Go's `Post "https://…": dial tcp …` text; the cause stays reachable
// with errors.Is/As.
type transportError struct {
	msg string
	err error
}

func (e *transportError) Error() string { return e.msg }
func (e *transportError) Unwrap() error { return e.err }

// proxy is the HTTP proxy's address (proxyAddr), or "". timeout is the
// client's own limit (http.Client.Timeout), said in the message when it ran
// out; the caller's context deadline never reaches here. unreachable, when
// set, replaces the advice given when nothing listens at host.
func describeTransportError(host, setting, proxy, unreachable string, timeout time.Duration, err error) error {
	host = SanitizeID(host)
	var dnsErr *net.DNSError
	var opErr *net.OpError
	var netErr net.Error
	var refused *proxyRefusedError
	if errors.As(err, &refused) {
		return &transportError{proxyRefusedMessage(host, refused), err}
	}
	if e, ok := proxyError(host, proxy, err); ok {
		return e
	}
	if e, ok := untrustedCertError(host, setting, err); ok {
		return e
	}
	switch {
	case wrongScheme(err):
		return wrongSchemeError(host, setting, err)
	case errors.As(err, &dnsErr):
		return &transportError{fmt.Sprintf("cannot resolve the host %s; check the profile's %s", host, setting), err}
	case isTLSHandshakeTimeout(err):
		return &transportError{fmt.Sprintf("the TLS handshake with %s did not finish in time; nothing was sent. Check the profile's %s and that the service is running", host, setting), err}
	case errors.As(err, &opErr) && opErr.Op == "dial":
		advice := unreachable
		if advice == "" {
			advice = fmt.Sprintf("check the profile's %s and that the service is running", setting)
		}
		return &transportError{fmt.Sprintf("cannot connect to %s (%s); %s", host, Sanitize(opErr.Err.Error()), advice), err}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		within := ""
		if timeout > 0 {
			within = " within " + timeout.String()
		}
		return &transportError{fmt.Sprintf("no reply from %s%s; the service or the network is slow", host, within), err}
	case errors.Is(err, syscall.ECONNRESET):
		return &transportError{fmt.Sprintf("the connection to %s was reset before a reply came", host), err}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &transportError{fmt.Sprintf("%s closed the connection without a reply", host), err}
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return &transportError{fmt.Sprintf("the connection to %s failed (%s)", host, Sanitize(err.Error())), err}
}

// describeBodyError says in plain words why a reply whose headers came
// (status, after got bytes of its body) could not be read to its end,
// instead of Go's "context deadline exceeded (Client.Timeout or context
// cancellation while reading body)"; the cause stays reachable.
func describeBodyError(host string, status, got int, timeout time.Duration, err error) error {
	host = SanitizeID(host)
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		within := ""
		if timeout > 0 {
			within = " within " + timeout.String()
		}
		return &transportError{fmt.Sprintf("the reply from %s (HTTP %d) did not finish arriving%s (%d bytes came); the service or the network is slow, try again", host, status, within, got), err}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
		return &transportError{fmt.Sprintf("%s closed the connection before its reply (HTTP %d) was complete (%d bytes came); try again, and check the service or the proxy in front of it if it persists", host, status, got), err}
	}
	return &transportError{fmt.Sprintf("the reply from %s (HTTP %d) could not be read to its end (%s)", host, status, Sanitize(err.Error())), err}
}

// readBody reads at most limit+1 bytes of body. The buffer grows as bytes
// arrive, doubling up to the length the reply says it has, so a large list
// ends in a buffer of its size (not in one of the next power of two), while
// a reply that claims a length and sends little costs what it sent: the
// header alone never decides what is allocated.
func readBody(body io.Reader, contentLength, limit int64) ([]byte, error) {
	if contentLength < 0 {
		return io.ReadAll(io.LimitReader(body, limit+1))
	}
	const firstPiece = 64 << 10
	want := min(contentLength, limit) + 1 // one byte more, to see a body longer than its header
	src := io.LimitReader(body, limit+1)
	buf := make([]byte, 0, min(want, firstPiece))
	for {
		if len(buf) == cap(buf) {
			grown := 2 * int64(cap(buf))
			if grown >= want-1 { // the next doubling holds the announced body: to its length, and one byte to see the end
				grown = want
			}
			if grown <= int64(cap(buf)) { // past the announced length
				grown = min(2*int64(cap(buf)), limit+1)
			}
			buf = append(make([]byte, 0, grown), buf...)
		}
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

type replyTooLargeError struct {
	limit   int64
	list    bool   // an unpaged list (maxListReply)
	setting string // for a list: where its bound is raised
}

func (e *replyTooLargeError) Error() string {
	if e.list {
		return fmt.Sprintf("the list is larger than %s, the most vigil reads of one list the service cannot page; refusing to read it. Raise %s if this machine has the memory (decoding takes about 4 times the list's size)", byteSize(e.limit), e.setting)
	}
	return fmt.Sprintf("the reply is larger than %s; refusing to read it", byteSize(e.limit))
}

// byteSize is n in MiB when it is a whole number of them, else in bytes.
func byteSize(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// notSent reports errors that happen before any byte of the request left, after
// which a submit certainly did not reach the service: dialing, DNS, and the
// server's certificate failing verification (the TLS handshake ends before
// the request is written). Other TLS errors (alerts, bad records) may come
// after the request was written on a reused connection: they stay unknown.
// net/http reports an HTTP reply to the ClientHello (http.ErrSchemeMismatch)
// only for the handshake of a new connection: that request was not written.
func notSent(err error) bool {
	var unwritten *unwrittenError
	if wrongScheme(err) || errors.As(err, &unwritten) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var verifyErr *tls.CertificateVerificationError
	var authorityErr x509.UnknownAuthorityError
	var hostnameErr x509.HostnameError
	var invalidErr x509.CertificateInvalidError
	return errors.As(err, &verifyErr) || errors.As(err, &authorityErr) || errors.As(err, &hostnameErr) || errors.As(err, &invalidErr)
}

// isServiceError reports whether body is the service's error JSON, which a
// gateway's or proxy's error page is not.
func isServiceError(body []byte) bool {
	_, ok, _ := readErrorBody(body)
	return ok
}

// newError builds the *Error of a non-2xx reply. A body that is not the service's
// error JSON still gives a readable error: the status text and a short, sanitised
// excerpt of what came back. A body that JSON readers can read two ways is
// believed in nothing (no code, no details, so no "nothing was recorded"):
// the error says so instead. Its HTTP status still maps to a sentinel
// (ErrAlreadyExists for 409 and so on), since the status line is not
// ambiguous; but a two-ways 404 is not taken for a wrong URL (twoWays).
func newError(op string, status int, body []byte) *Error {
	e := &Error{StatusCode: status, Operation: op}
	eb, ok, twoWays := readErrorBody(body)
	if twoWays != nil {
		e.Message = twoWaysMessage(status, twoWays)
		e.twoWays = true
		return e
	}
	if ok {
		SanitizeValue(&eb)
		e.Code = eb.Code
		e.Message = truncateRunes(eb.Message, errorMessageMaxRune)
		e.Details, e.detailsLeftOut = boundDetails(eb.Details)
		e.fromService = true
		return e
	}
	e.Message = http.StatusText(status)
	if e.Message == "" {
		e.Message = "unexpected reply"
	}
	if excerpt := strings.TrimSpace(string(body)); excerpt != "" {
		// Quoted with the display escapes (as SanitizeID quotes), not strconv.Quote,
		// so that the excerpt shows control and invisible characters as every
		// other server string does.
		e.Message += ": \"" + escape(truncateRunes(excerpt, errorExcerptRunes), true) + "\""
	}
	return e
}

// boundDetails keeps the first few details that carry an error code, each
// code cut short, and counts those left out.
func boundDetails(all []ErrorDetail) (kept []ErrorDetail, leftOut int) {
	for _, d := range all {
		if d.ErrorCode == "" {
			continue
		}
		if len(kept) == errorDetailsMax {
			leftOut++
			continue
		}
		d.Type = truncateRunes(d.Type, errorDetailCodeMaxRune*2)
		d.ErrorCode = truncateRunes(d.ErrorCode, errorDetailCodeMaxRune)
		kept = append(kept, d)
	}
	return kept, leftOut
}

// ClipMessage cuts a message from the service to the length its error
// messages are cut to (errorMessageMaxRune), for one-line notices such as an
// activity's failure reason: a hostile reply must not flood the terminal.
func ClipMessage(s string) string { return truncateRunes(s, errorMessageMaxRune) }

func truncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos] + "…"
		}
		i++
	}
	return s
}

// stampSignature is the signature a stamp header carries, as the service
// records it with a vote; "" when it cannot be read.
func stampSignature(name, value string) string {
	if strings.EqualFold(name, keys.HeaderStampWebAuthn) {
		s, err := keys.ParseWebAuthnStamp(value)
		if err != nil {
			return ""
		}
		return s.Signature
	}
	s, err := keys.DecodeStamp(value)
	if err != nil {
		return ""
	}
	return s.Signature
}
