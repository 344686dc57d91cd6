package api

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// When and how long the client waits before it sends a request again: the
// statuses worth a retry, the backoff between attempts and the service's
// Retry-After.

// retryableStatus reports the replies to a query worth asking again: a 429
// and any 5xx, the service's or a gateway's (as `vigil activity wait` rides
// them out).
func retryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// retryWait says whether a query answered r should be asked again, and after
// how long: the backoff, or the service's Retry-After when that is longer. A
// Retry-After beyond maxRetryAfter gives up at once instead of hanging. Typed
// calls (do) and raw ones (Send) follow this one rule.
// A wait that would outlast ctx's deadline gives up at once too: the reply
// says more than the deadline's "no answer in time" would, later.
func (c *Client) retryWait(ctx context.Context, cl call, attempt int, r reply) (time.Duration, bool) {
	if !cl.retry || !retryableStatus(r.status) || attempt >= c.maxRetries {
		return 0, false
	}
	retryAfter := parseRetryAfter(r.header.Get("Retry-After"), c.ServiceNow()) // an HTTP date is the service's
	if retryAfter > maxRetryAfter {
		return 0, false
	}
	wait := max(c.backoff(attempt), retryAfter)
	if outlasts(ctx, wait) {
		return 0, false
	}
	return wait, true
}

// outlasts reports whether waiting d would run past ctx's deadline.
func outlasts(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return ok && time.Until(deadline) < d
}

// retryAfterOf is the wait a rate-limiting or unavailable reply (429, 503)
// asks for, for its error (Error.RetryAfter); 0 for other replies or none
// said.
func (c *Client) retryAfterOf(r reply) time.Duration {
	if r.status != http.StatusTooManyRequests && r.status != http.StatusServiceUnavailable {
		return 0
	}
	return parseRetryAfter(r.header.Get("Retry-After"), c.ServiceNow())
}

// RetryNotice is what a client about to ask a query again tells the
// WithRetryNotice callback: which operation failed and how, and which
// attempt comes next, after how long.
type RetryNotice struct {
	Operation string        // e.g. "query/list_activities"
	Err       error         // why the last attempt failed (sanitised, as every error of the client)
	Next, Max int           // the attempt about to be made (2…) and the most there will be
	Wait      time.Duration // before the next attempt
}

// backoff is the wait before retry number attempt+1: exponential, capped, with
// "equal jitter" (half fixed, half random) so that clients spread out.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.retryBase
	for range attempt {
		d *= 2
		if d >= c.retryCap {
			d = c.retryCap
			break
		}
	}
	d = min(d, c.retryCap)
	if d <= 0 {
		return 0
	}
	half := d / 2
	return half + rand.N(half+1)
}

// retryAfterCeiling bounds a parsed Retry-After (Error.RetryAfter): a longer
// wait, in seconds or as a far-future date, means "not today", and a
// saturated duration would be shown as "wait 2562047h47m16s".
const retryAfterCeiling = 24 * time.Hour

// parseRetryAfter reads a Retry-After header (seconds or an HTTP date),
// capped at retryAfterCeiling.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	secs, err := strconv.Atoi(strings.TrimSpace(v))
	if err == nil {
		if secs < 0 {
			return 0
		}
		return time.Duration(min(secs, int(retryAfterCeiling/time.Second))) * time.Second
	}
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(strings.TrimSpace(v), "-") {
		// Too many seconds for an int: far over any wait worth making.
		return retryAfterCeiling
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return min(d, retryAfterCeiling)
		}
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
