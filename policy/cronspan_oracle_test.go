package policy

import (
	"math/rand"
	"testing"
	"time"
)

// oracleActive: every fire from time.Date over wall dates around now, each
// window [fire, fire+dur).
func oracleActive(s cronSpan, now time.Time) bool {
	u := now.UTC()
	for d := -10; d <= 3; d++ {
		day := time.Date(u.Year(), u.Month(), u.Day()+d, 0, 0, 0, 0, time.UTC)
		if !s.cron.dayMatches(day) {
			continue
		}
		for h := 0; h < 24; h++ {
			if !s.cron.hour.has(h) {
				continue
			}
			for m := 0; m < 60; m++ {
				if !s.cron.minute.has(m) {
					continue
				}
				f := time.Date(day.Year(), day.Month(), day.Day(), h, m, 0, 0, s.loc)
				if !now.Before(f) && now.Before(f.Add(s.dur)) {
					return true
				}
			}
		}
	}
	return false
}

// TestCronSpanAgreesWithBruteForce checks CronSpan's walk, which steps from
// fire to fire, against every fire time.Date gives over the wall dates
// around now, in zones with daylight saving (skipped and doubled wall times,
// a skipped midnight), half-hour and two-hour changes, and a skipped day
// (Apia, 2011-12-30), at random instants and around the zones' transitions.
// (The review that asked for it ran it over 22 zones and 12 durations.)
func TestCronSpanAgreesWithBruteForce(t *testing.T) {
	zones := []string{"UTC", "America/New_York", "America/Santiago", "America/Havana", "Australia/Lord_Howe",
		"Pacific/Apia", "Antarctica/Troll", "Africa/Casablanca"}
	scheds := []string{"0 0 * * *", "30 1,2 * * *", "* * * * *", "0-58 * * * *", "59 23 * * *", "0 2 * * 0", "15 0-3 1 * *",
		"0 0 1 1 *", "45 12 * * 1-5", "0 0 31 * *", "* 0 * * *", "0 23 * * 6", "30 2 8-14 3 0", "0 1 * 10,11 0"}
	durs := []string{"1m", "30m", "90m", "23h", "1d1h", "7d"}
	r := rand.New(rand.NewSource(38))
	lo := time.Date(2008, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2032, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	fails := 0
	for _, z := range zones {
		loc := loadZone(t, z)
		// the zone's transitions in the range
		var trans []time.Time
		tt := time.Unix(lo, 0).In(loc)
		for {
			_, end := tt.ZoneBounds()
			if end.IsZero() || end.Unix() > hi {
				break
			}
			trans = append(trans, end)
			tt = end
		}
		for _, sc := range scheds {
			for _, du := range durs {
				s, err := parseCronSpan(sc, du, z)
				if err != nil {
					t.Fatal(err)
				}
				check := func(now time.Time) {
					if got, want := s.active(now), oracleActive(s, now); got != want && fails < 40 {
						fails++
						t.Errorf("CronSpan(%q,%q,%q) at %s (local %s): active %v, oracle %v", sc, du, z, now.UTC().Format(time.RFC3339), now.In(loc).Format("2006-01-02 15:04:05 MST"), got, want)
					}
				}
				for range 10 {
					check(time.Unix(lo+r.Int63n(hi-lo), r.Int63n(60)*1e9/4))
				}
				for i := 0; i < 12 && len(trans) > 0; i++ {
					tr := trans[r.Intn(len(trans))]
					off := time.Duration(r.Int63n(int64(9*24*time.Hour))) - 2*24*time.Hour
					check(tr.Add(off).Truncate(time.Minute).Add(time.Duration(r.Intn(4)) * 15 * time.Second))
				}
			}
		}
	}
}
