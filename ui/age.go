package ui

import (
	"fmt"
	"time"
)

// AgePhrase is how long ago something of age d happened, as a whole phrase:
// "5m0s ago", "3d ago", or "in the future by 1h0m0s" when it is dated after
// the clock it is measured by. The CLI and the console both say it this way,
// so the same proof reads the same in both.
func AgePhrase(d time.Duration) string {
	switch {
	case d < 0:
		return "in the future by " + (-d).Round(time.Second).String()
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return d.Round(time.Second).String() + " ago"
}

// FutureBy is how far then is after now, rounded to the second, when that is
// more than a second; zero otherwise (a second's difference is rounding and
// ordinary clock skew, not a clock to check).
func FutureBy(now, then time.Time) time.Duration {
	if d := then.Sub(now); d > time.Second {
		return d.Round(time.Second)
	}
	return 0
}
