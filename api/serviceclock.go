package api

import (
	"net/http"
	"sync/atomic"
	"time"
)

// The service's clock, not this machine's, decides when a vote's round ends,
// when a key expires and what time a policy sees: the Date header of each of
// the service's own replies says what the service's clock reads, so the client keeps an estimate of how
// far it is from this machine's and judges the service's timestamps by it.

// clockDeadBand is the skew taken for none: Date has 1-second resolution and
// a reply takes time to arrive, so a well-synced machine keeps its own clock.
const clockDeadBand = 2 * time.Second

// maxPlausibleSkew bounds what a Date header may say: a Date further than
// this from this machine's clock is a broken or hostile header (year 9999),
// not a clock, and is ignored.
const maxPlausibleSkew = 365 * 24 * time.Hour

// serviceClock is the latest estimate of the service's clock offset, safe for
// the console's concurrent requests.
type serviceClock struct {
	offset atomic.Int64 // nanoseconds the service's clock is ahead of this machine's
	known  atomic.Bool
}

// note updates the estimate from the Date header of a reply received at
// received (this machine's clock). The caller passes only the service's own
// replies (noteServiceDate). Date truncates to the second, so its midpoint is
// the best guess. A missing, unreadable or implausible header, or one of a
// reply a cache stored (it has an Age header, and Date is when the reply was
// made, not when it was served), leaves the estimate as it was.
func (s *serviceClock) note(header http.Header, received time.Time) {
	date := header.Get("Date")
	if date == "" || header.Get("Age") != "" {
		return
	}
	t, err := http.ParseTime(date)
	if err != nil {
		return
	}
	d := t.Add(500 * time.Millisecond).Sub(received) // saturates, never wraps
	if d > maxPlausibleSkew || d < -maxPlausibleSkew {
		return
	}
	s.offset.Store(int64(d))
	s.known.Store(true)
}

// noteServiceDate feeds the estimate with a reply only when it is the
// service's own: sent to base_url (the auth proxy is another host, with its
// own clock) and either a 2xx that decoded or an error in the service's error
// JSON (a gateway's 502 page is a gateway's clock).
func (c *Client) noteServiceDate(cl call, r reply, decoded bool) {
	if cl.setting != "" || !decoded {
		return
	}
	c.clock.note(r.header, r.received)
}

// skew is the offset, zero within the dead band.
func (s *serviceClock) skew() time.Duration {
	d := time.Duration(s.offset.Load())
	if d > -clockDeadBand && d < clockDeadBand {
		return 0
	}
	return d
}

// ServiceNow is the service's clock as estimated from its replies' Date
// headers: this machine's clock until a reply has told, and while the two
// agree within 2 seconds.
func (c *Client) ServiceNow() time.Time {
	if d := c.clock.skew(); d != 0 {
		return c.now().Add(d)
	}
	return c.now()
}

// ClockSkew is how far the service's clock is ahead of this machine's
// (negative: behind), zero within 2 seconds; known is false until a reply
// with a readable Date header has arrived.
func (c *Client) ClockSkew() (skew time.Duration, known bool) {
	if !c.clock.known.Load() {
		return 0, false
	}
	return c.clock.skew(), true
}
