package ui

import (
	"testing"
	"time"
)

// A document signed up to a second ahead of this machine's clock is
// ordinary skew: no "future" age, no advice to check the clock. Beyond a
// second the difference is reported, rounded to the second.
func TestFutureByIgnoresSkewOfASecondOrLess(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, ahead := range []time.Duration{-time.Hour, 0, 600 * time.Millisecond, time.Second} {
		if d := FutureBy(now, now.Add(ahead)); d != 0 {
			t.Errorf("FutureBy(now, now.Add(%v)) = %v, want 0: a second or less is rounding", ahead, d)
		}
	}
	for _, ahead := range []time.Duration{1600 * time.Millisecond, 90 * time.Second} {
		if d := FutureBy(now, now.Add(ahead)); d <= time.Second || d%time.Second != 0 || (d-ahead).Abs() > time.Second/2 {
			t.Errorf("FutureBy(now, now+%v) = %v, want it reported, rounded to the second", ahead, d)
		}
	}
}
