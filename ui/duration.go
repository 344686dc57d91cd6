package ui

import (
	"fmt"
	"strings"
	"time"
)

// HumanDuration shows a duration in whole units, largest first: 1d, 15m,
// 1h30m, 59m59s. Below a second (and zero or negative) it is "0s".
func HumanDuration(d time.Duration) string {
	if d < time.Second {
		return "0s"
	}
	var parts []string
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if n := d / u.d; n > 0 {
			parts = append(parts, fmt.Sprintf("%d%s", n, u.name))
			d -= n * u.d
		}
	}
	return strings.Join(parts, "")
}
