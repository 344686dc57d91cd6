package policy

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestCronSpanMidnightSkippedByDaylightSaving: where daylight saving skips
// 00:00 (America/Santiago on 2026-09-06, America/Havana on 2026-03-08), Go's
// time.Date puts that day's midnight at 23:00 of the previous local day. Its
// window must open there: a "deny at night" policy must not be inactive
// (fail open) for the first hour of that night.
func TestCronSpanMidnightSkippedByDaylightSaving(t *testing.T) {
	for _, tc := range []struct {
		zone      string
		day       [3]int // the day whose midnight is skipped
		now       string // inside the window
		windowDur string
	}{
		{"America/Santiago", [3]int{2026, 9, 6}, "2026-09-06T03:30:00Z", "1h"},
		{"America/Santiago", [3]int{2026, 9, 6}, "2026-09-06T03:30:00Z", "6h"},
		{"America/Havana", [3]int{2026, 3, 8}, "2026-03-08T04:30:00Z", "1h"},
	} {
		loc := loadZone(t, tc.zone)
		fire := time.Date(tc.day[0], time.Month(tc.day[1]), tc.day[2], 0, 0, 0, 0, loc)
		now := mustTime(t, tc.now)
		d, err := parseSpanDuration(tc.windowDur)
		if err != nil {
			t.Fatal(err)
		}
		if now.Before(fire) || !now.Before(fire.Add(d)) {
			t.Fatalf("test set-up: %s is not in [%s, +%s)", now, fire.UTC(), tc.windowDur)
		}
		expr := "CronSpan('0 0 * * *', '" + tc.windowDur + "', '" + tc.zone + "')"
		c, err := CompileSource(Source{Time: expr})
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.Run(Input{Now: now})
		if err != nil || !r.Active {
			t.Errorf("%s at %s (local %s): active=%v (%v); the fire of %04d-%02d-%02d 00:00 is at %s by time.Date, so the window [%s, %s) holds it",
				expr, tc.now, now.In(loc).Format("2006-01-02 15:04 MST"), r.Active, err,
				tc.day[0], tc.day[1], tc.day[2], fire.UTC().Format(time.RFC3339), fire.UTC().Format("15:04Z"), fire.Add(d).UTC().Format("15:04Z"))
		}
	}
}

// TestCronSpanAcrossDaylightSavingMatchesEveryFire compares CronSpan, minute
// by minute around daylight-saving changes, with the windows of every fire
// that time.Date gives: no window may be lost (a deny would fail open) and
// none invented. Windows shorter and longer than the gap, gaps of 30
// minutes, an hour and a whole day, skipped and doubled wall times.
func TestCronSpanAcrossDaylightSavingMatchesEveryFire(t *testing.T) {
	for _, tc := range []struct {
		zone           string
		day            [3]int // the day of the change
		hours, minutes []int
		dur            string
	}{
		{"America/Santiago", [3]int{2026, 9, 6}, []int{0}, []int{0}, "1h"},
		{"America/Santiago", [3]int{2026, 9, 6}, []int{0}, []int{0}, "6h"},
		{"America/Santiago", [3]int{2026, 9, 6}, []int{23, 0}, []int{30}, "45m"},
		{"America/Santiago", [3]int{2026, 4, 5}, []int{23}, []int{30}, "30m"}, // 23:xx of 04-04 happens twice
		{"America/Havana", [3]int{2026, 3, 8}, []int{0}, []int{0}, "1h"},
		{"America/Havana", [3]int{2026, 3, 8}, []int{0, 1}, []int{0, 20}, "10m"},
		{"America/New_York", [3]int{2026, 3, 8}, []int{1, 2}, []int{30}, "20m"},
		{"America/New_York", [3]int{2026, 3, 8}, []int{22}, []int{0}, "8h"},
		{"America/New_York", [3]int{2026, 11, 1}, []int{1}, []int{30}, "1h"},
		{"Australia/Lord_Howe", [3]int{2026, 10, 4}, []int{1, 2}, []int{15, 50}, "5m"}, // a 30-minute gap
		{"Europe/London", [3]int{2026, 3, 29}, []int{1}, []int{30}, "2h"},
		{"Pacific/Apia", [3]int{2011, 12, 30}, []int{12}, []int{0}, "1h"}, // the whole day skipped
		{"Pacific/Apia", [3]int{2011, 12, 30}, []int{0}, []int{0}, "1d"},
	} {
		loc := loadZone(t, tc.zone)
		schedule := fmt.Sprintf("%s %s * * *", joinInts(tc.minutes), joinInts(tc.hours))
		span, err := parseCronSpan(schedule, tc.dur, tc.zone)
		if err != nil {
			t.Fatal(err)
		}
		// Every fire from well before to well after the change, by time.Date.
		var fires []time.Time
		for d := -10; d <= 3; d++ {
			for _, h := range tc.hours {
				for _, m := range tc.minutes {
					fires = append(fires, time.Date(tc.day[0], time.Month(tc.day[1]), tc.day[2]+d, h, m, 0, 0, loc))
				}
			}
		}
		start := time.Date(tc.day[0], time.Month(tc.day[1]), tc.day[2]-1, 0, 0, 0, 0, time.UTC)
		for now := start; now.Before(start.Add(3 * 24 * time.Hour)); now = now.Add(30 * time.Second) {
			want := false
			for _, f := range fires {
				if !now.Before(f) && now.Before(f.Add(span.dur)) {
					want = true
					break
				}
			}
			if got := span.active(now); got != want {
				t.Errorf("CronSpan('%s', '%s', '%s') at %s (local %s): active %v, want %v",
					schedule, tc.dur, tc.zone, now.Format(time.RFC3339), now.In(loc).Format("2006-01-02 15:04:05 MST"), got, want)
				break
			}
		}
	}
}

// TestCronSpanDurationOverflowIsRefused: a day or hour count large enough to
// wrap around time.Duration must get the "at most 7 days" error, not be
// accepted as some other, short window.
func TestCronSpanDurationOverflowIsRefused(t *testing.T) {
	for _, dur := range []string{"213504d", "213505d", "171838d999984h", "999999d", "8d", "169h", "10081m"} {
		_, err := CompileSource(Source{Time: "CronSpan('0 9 * * *', '" + dur + "', 'UTC')"})
		if err == nil || !strings.Contains(err.Error(), "at most 7 days") {
			got, _ := parseSpanDuration(dur)
			t.Errorf("CronSpan duration %q: %v (parsed as %v); want the 'at most 7 days' error", dur, err, got)
		}
	}
	for _, dur := range []string{"7d", "168h", "10080m", "6d23h60m"} {
		if _, err := CompileSource(Source{Time: "CronSpan('0 9 * * *', '" + dur + "', 'UTC')"}); err != nil {
			t.Errorf("CronSpan duration %q (7 days): %v", dur, err)
		}
	}
}

func loadZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("time zone %s: %v", name, err)
	}
	return loc
}

func joinInts(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ",")
}
