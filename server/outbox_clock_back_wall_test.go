package server

import (
	"testing"
	"time"
	"unsafe"
)

// stepWall returns t with its wall clock reading moved by d (whole seconds)
// and its monotonic reading left as it is: what time.Now returns after
// settimeofday/NTP steps CLOCK_REALTIME, which leaves CLOCK_MONOTONIC alone.
func stepWall(t *testing.T, now time.Time, d time.Duration) time.Time {
	type rawTime struct {
		wall uint64
		ext  int64
		loc  *time.Location
	}
	const hasMonotonic = 1 << 63
	r := (*rawTime)(unsafe.Pointer(&now))
	if r.wall&hasMonotonic == 0 {
		t.Fatal("time.Now has no monotonic reading")
	}
	secs := int64(d / time.Second)
	r.wall = uint64(int64(r.wall) + secs<<30) // wall seconds live in bits 30..62
	return now
}

// In production the service clock is time.Now (server.go: s.now = time.Now),
// whose values carry a monotonic reading. clockWatch.observe subtracts two
// such values, so Go compares their monotonic readings and a real backward
// step of the wall clock is never seen: pending events' first attempts are
// not moved back and copies are sent past the receivers' redelivery horizon.
func TestClockWatchSeesAWallStepOfTimeNow(t *testing.T) {
	var c clockWatch
	c.observe(time.Now(), time.Now())
	const step = 2 * time.Hour
	stepped := stepWall(t, time.Now(), -step)
	if got := time.Since(stepped.Round(0)); got < step-time.Minute {
		t.Fatalf("simulation broken: wall reading only %s behind", got)
	}
	if back := c.observe(stepped, time.Now()); back < step-time.Minute {
		t.Fatalf("the wall clock stepped back %s with a time.Now-style reading (monotonic intact); clockWatch saw %s", step, back)
	}
}
