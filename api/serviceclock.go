package api

import (
	"net/http"
	"sync/atomic"
	"time"
)

// The service's clock, not this machine's, decides when a vote's round ends,
// when a key expires and what time a policy sees: every reply's Date header
// says what the service's clock reads, so the client keeps an estimate of how
// far it is from this machine's and judges the service's timestamps by it.

// clockDeadBand is the skew taken for none: Date has 1-second resolution and
// a reply takes time to arrive, so a well-synced machine keeps its own clock.
const clockDeadBand = 2 * time.Second

// serviceClock is the latest estimate of the service's clock offset, safe for
// the console's concurrent requests.
type serviceClock struct {
	offset atomic.Int64 // nanoseconds the service's clock is ahead of this machine's
	known  atomic.Bool
}

// note updates the estimate from a reply's Date header received at received
// (this machine's clock). Date truncates to the second, so its midpoint is the
// best guess. A missing or unreadable header leaves the estimate as it was.
func (s *serviceClock) note(date string, received time.Time) {
	if date == "" {
		return
	}
	t, err := http.ParseTime(date)
	if err != nil {
		return
	}
	s.offset.Store(int64(t.Add(500 * time.Millisecond).Sub(received)))
	s.known.Store(true)
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
