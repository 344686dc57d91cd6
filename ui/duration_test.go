package ui

import (
	"testing"
	"time"
)

func TestHumanDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{900 * time.Second, "15m"}, {86400 * time.Second, "1d"}, {90 * time.Minute, "1h30m"},
		{26*time.Hour + 5*time.Second, "1d2h5s"}, {500 * time.Millisecond, "0s"}, {-time.Hour, "0s"},
	} {
		if got := HumanDuration(c.d); got != c.want {
			t.Errorf("HumanDuration(%s) = %q, want %q", c.d, got, c.want)
		}
	}
}
