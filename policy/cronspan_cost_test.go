package policy

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// hundredCalls is a time expression that calls CronSpan 100 times.
func hundredCalls(call string) string {
	ten := "[0,1,2,3,4,5,6,7,8,9]"
	return ten + ".all(a, " + ten + ".all(b, !" + call + "))"
}

// TestCronSpanIsChargedTheFiresItLooksAt: a CronSpan call is charged the
// walk it does, not CEL's one unit, so that the cost limit and the decision
// budget bound the time a hostile time expression takes. At New York's
// fall-back, where an hour of wall times occurs twice, a call whose schedule
// fires every minute but the current one looks at an hour of fires (59)
// before it can answer; one whose schedule fires once a year looks at none.
func TestCronSpanIsChargedTheFiresItLooksAt(t *testing.T) {
	loadZone(t, "America/New_York")
	now := mustTime(t, "2026-11-01T05:59:30Z") // 01:59:30 EDT; 01:00-01:58 EST are still to come
	work := func(schedule string) uint64 {
		t.Helper()
		c, err := CompileSource(Source{Time: hundredCalls("CronSpan('" + schedule + "', '1m', 'America/New_York')")})
		if err != nil {
			t.Fatal(err)
		}
		p := Policy{ID: "deny at times", Effect: api.EffectDeny, Compiled: c}
		d := Decide([]Policy{p}, Input{Now: now}, Quorum{Threshold: 1, UserIDs: []string{"r"}}, false)
		// Every call finds no fire in the last minute, so all 100 run and
		// the deny is active.
		if d.Exhausted || d.Outcome != api.OutcomeDenyExplicit {
			t.Fatalf("%s: decision %s (exhausted %v), want the deny active", schedule, d.Outcome, d.Exhausted)
		}
		return d.Work
	}
	everyMinuteButNow, yearly := work("0-58 * * * *"), work("0 0 1 1 *")
	if everyMinuteButNow < yearly+100*59 {
		t.Errorf("100 calls looking at an hour of fires each were charged %d units, 100 calls looking at none %d: a call is not charged the fires it looks at",
			everyMinuteButNow, yearly)
	}
}

// TestCronSpanLoopsStopAtTheBudget: ten deny policies whose time expression
// calls CronSpan 100,000 times: the decision stops at DecideBudget, undecided
// (it fails safe), having charged every call.
func TestCronSpanLoopsStopAtTheBudget(t *testing.T) {
	ten := "[0,1,2,3,4,5,6,7,8,9]"
	expr := ten + ".all(a, " + ten + ".all(b, " + ten + ".all(c, " + ten + ".all(d, " + ten +
		".all(e, !CronSpan('0-58 * * * *', '1m', 'UTC'))))))"
	c, err := CompileSource(Source{Condition: "true", Time: expr})
	if err != nil {
		t.Fatal(err)
	}
	pols := make([]Policy, 10)
	for i := range pols {
		pols[i] = Policy{ID: fmt.Sprint("deny-", i), Effect: api.EffectDeny, Compiled: c}
	}
	now := time.Date(2026, 11, 28, 10, 59, 30, 0, time.UTC) // no fire in (10:58:30, 10:59:30]
	d := Decide(pols, Input{Now: now}, Quorum{Threshold: 1, UserIDs: []string{"r"}}, false)
	if !d.Exhausted || d.Outcome == api.OutcomeAllow {
		t.Errorf("decision %s, exhausted %v: want it stopped by the budget, undecided", d.Outcome, d.Exhausted)
	}
	if d.Work > DecideBudget+CostLimit {
		t.Errorf("the decision did %d units of work, more than the budget plus one expression (%d)", d.Work, DecideBudget+CostLimit)
	}
}

// TestCronSpanComputedArgumentsAreNotKept: a time expression may compute
// CronSpan's arguments from the clock, so that every evaluation names new
// ones. Evaluating it must not leave anything behind: the memory the
// process holds must not grow with evaluations.
func TestCronSpanComputedArgumentsAreNotKept(t *testing.T) {
	ten := "[0,1,2,3,4,5,6,7,8,9]"
	expr := ten + ".all(a, " + ten + ".all(b, " + ten + ".all(c, !CronSpan(string(a) + ',' + string(b) + ',' + string(c) + ',' + " +
		"string(time.now.getSeconds()) + ' 0 1 1 *', '1m', 'UTC'))))"
	c, err := CompileSource(Source{Condition: "true", Time: expr})
	if err != nil {
		t.Fatal(err)
	}
	run := func(seconds int) {
		if _, err := c.Run(Input{Now: time.Date(2026, 6, 1, 12, 0, seconds, 0, time.UTC)}); err != nil {
			t.Fatal(err)
		}
	}
	run(59) // whatever is built once
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for s := range 40 { // 40,000 schedules never seen before
		run(s)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 2<<20 {
		t.Errorf("40 evaluations left the heap %d KiB larger: computed CronSpan arguments are kept", grown>>10)
	}
}

// TestZoneCacheIsBounded: time zone names are not a bounded set
// (time.LoadLocation reads "./UTC", "././UTC" ...), so the zones kept for
// computed CronSpan arguments are at most maxCachedZones.

// TestZoneCacheIsBounded: time zone names are not a bounded set
// (time.LoadLocation reads "./UTC", "././UTC" ...), so the zones kept for
// computed CronSpan arguments are at most maxCachedZones.
func TestZoneCacheIsBounded(t *testing.T) {
	loadZone(t, "UTC")
	var z zoneCache
	for i := range 3 * maxCachedZones {
		name := strings.Repeat("./", i) + "UTC"
		loc, _, err := z.load(name)
		if err != nil {
			t.Skipf("%s: %v (the zone database reads no such names here)", name, err)
		}
		if _, off := time.Date(2026, 1, 1, 0, 0, 0, 0, loc).Zone(); off != 0 {
			t.Fatalf("%s has offset %d", name, off)
		}
	}
	if n := z.size(); n > maxCachedZones {
		t.Errorf("%d zones kept, more than %d", n, maxCachedZones)
	}
}
