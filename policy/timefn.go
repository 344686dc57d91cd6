package policy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// The time field's functions, as documented in the service's "Time
// expressions": Timestamp('<rfc3339>') with a zero UTC offset, and
// CronSpan('<cron>', '<duration>', '<tz>'), true when the evaluation's clock
// (time.now) falls inside a window [fire, fire+duration) of the schedule.

// maxSpan is the longest CronSpan window.
const maxSpan = 7 * 24 * time.Hour

// parseTimestamp parses an RFC 3339 time whose offset is zero (Z, z, +00:00
// or -00:00); other offsets are refused, as the service refuses them.
func parseTimestamp(s string) (time.Time, error) {
	u := s
	if len(u) > 10 && u[10] == 't' {
		u = u[:10] + "T" + u[11:]
	}
	if strings.HasSuffix(u, "z") {
		u = u[:len(u)-1] + "Z"
	}
	t, err := time.Parse(time.RFC3339Nano, u)
	if err != nil {
		return time.Time{}, fmt.Errorf("Timestamp(%s) is not an RFC 3339 time, e.g. '2025-01-01T00:00:00Z'", quoteLiteral(s))
	}
	if _, offset := t.Zone(); offset != 0 {
		return time.Time{}, fmt.Errorf("Timestamp(%s): the time must be in UTC with a zero offset (Z, +00:00 or -00:00), e.g. '2025-01-01T00:00:00Z'", quoteLiteral(s))
	}
	return t.UTC(), nil
}

// cronField is the set of values one cron field matches.
type cronField struct {
	any    bool
	values []bool // indexed by value
}

func (f cronField) has(v int) bool { return f.any || v < len(f.values) && f.values[v] }

// cron is a parsed 5-field schedule of the documented subset.
type cron struct {
	minute, hour, dom, month, dow cronField
	// For each minute (hour), the latest matching one at or before it, or
	// -1: what lets a walk step from fire to fire (latest).
	minuteAtOrBefore [60]int8
	hourAtOrBefore   [24]int8
}

var cronRanges = [5]struct {
	name     string
	min, max int
}{{"minute", 0, 59}, {"hour", 0, 23}, {"day of month", 1, 31}, {"month", 1, 12}, {"day of week", 0, 6}}

// parseCron parses `minute hour day-of-month month day-of-week` with numbers,
// ranges (1-5), lists (1,3,5) and `*`; steps, macros, names and a seconds
// field are refused, as the service refuses them.
func parseCron(s string) (cron, error) {
	parts := strings.Fields(s)
	if len(parts) != 5 {
		return cron{}, fmt.Errorf("CronSpan: the schedule %s has %d fields; it needs 5: minute hour day-of-month month day-of-week", quoteLiteral(s), len(parts))
	}
	var fields [5]cronField
	for i, p := range parts {
		r := cronRanges[i]
		if p == "*" {
			fields[i] = cronField{any: true}
			continue
		}
		f := cronField{values: make([]bool, r.max+1)}
		for item := range strings.SplitSeq(p, ",") {
			lo, hi, isRange := strings.Cut(item, "-")
			a, errA := strconv.Atoi(lo)
			b := a
			var errB error
			if isRange {
				b, errB = strconv.Atoi(hi)
			}
			if errA != nil || errB != nil || strings.ContainsAny(item, "+ ") {
				return cron{}, fmt.Errorf("CronSpan: %s in the %s field is not a number, a range (1-5) or a list (1,3,5); steps, names and macros are not supported", quoteLiteral(item), r.name)
			}
			if a < r.min || b > r.max || a > b {
				return cron{}, fmt.Errorf("CronSpan: %s is outside the %s field's %d-%d", quoteLiteral(item), r.name, r.min, r.max)
			}
			for v := a; v <= b; v++ {
				f.values[v] = true
			}
		}
		fields[i] = f
	}
	c := cron{minute: fields[0], hour: fields[1], dom: fields[2], month: fields[3], dow: fields[4]}
	atOrBefore(c.minute, c.minuteAtOrBefore[:])
	atOrBefore(c.hour, c.hourAtOrBefore[:])
	return c, nil
}

// dayMatches applies cron's rule: when both day fields are restricted, a day
// matches if either does.
func (c cron) dayMatches(t time.Time) bool {
	if !c.month.has(int(t.Month())) {
		return false
	}
	dom, dow := c.dom.has(t.Day()), c.dow.has(int(t.Weekday()))
	if !c.dom.any && !c.dow.any {
		return dom || dow
	}
	return dom && dow
}

// parseSpanDuration parses a whole-number duration of days, hours and
// minutes (8h, 90m, 1d12h), greater than zero and at most 7 days.
func parseSpanDuration(s string) (time.Duration, error) {
	// Built only when refused: the message quotes and escapes the literal.
	bad := func() error {
		return fmt.Errorf("CronSpan: the duration %s must be whole days, hours and minutes, e.g. '8h', '90m' or '1d12h'", quoteLiteral(s))
	}
	tooLong := func() error {
		return fmt.Errorf("CronSpan: the duration %s must be more than zero and at most 7 days", quoteLiteral(s))
	}
	if s == "" {
		return 0, bad()
	}
	var total time.Duration
	rest := s
	lastUnit := -1
	for rest != "" {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i == len(rest) || i > 6 {
			return 0, bad()
		}
		n, _ := strconv.Atoi(rest[:i])
		u := strings.IndexByte("dhm", rest[i])
		if u < 0 || u <= lastUnit {
			return 0, bad()
		}
		lastUnit = u
		unit := [...]time.Duration{24 * time.Hour, time.Hour, time.Minute}[u]
		// Checked before multiplying: a large count would wrap around
		// time.Duration into a short, accepted window.
		if time.Duration(n) > maxSpan/unit {
			return 0, tooLong()
		}
		total += time.Duration(n) * unit
		rest = rest[i+1:]
	}
	if total <= 0 || total > maxSpan {
		return 0, tooLong()
	}
	return total, nil
}

// cronSpan is a parsed CronSpan call.
type cronSpan struct {
	cron cron
	dur  time.Duration
	loc  *time.Location
}

func parseCronSpan(schedule, duration, tz string) (cronSpan, error) {
	c, err := parseCron(schedule)
	if err != nil {
		return cronSpan{}, err
	}
	d, err := parseSpanDuration(duration)
	if err != nil {
		return cronSpan{}, err
	}
	loc, err := loadZoneNamed(tz)
	if err != nil {
		return cronSpan{}, err
	}
	return cronSpan{cron: c, dur: d, loc: loc}, nil
}

// loadZoneNamed reads an IANA time zone from the zone database; the
// machine's own ("Local", "") is refused, as the service refuses it.
func loadZoneNamed(tz string) (*time.Location, error) {
	bad := func() error {
		return fmt.Errorf("CronSpan: %s is not an IANA time zone name, e.g. 'America/New_York' or 'UTC'", quoteLiteral(tz))
	}
	if tz == "" || tz == "Local" {
		return nil, bad()
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, bad()
	}
	return loc, nil
}

// active reports whether now lies in [fire, fire+dur) for some fire of the
// schedule, that is whether some fire's instant lies in (now-dur, now].
func (s cronSpan) active(now time.Time) bool {
	active, _ := s.walk(now)
	return active
}

// walk is active, and the number of steps it took (days and fires looked
// at, zone transitions read), which is what a call is charged.
//
// Fires are local wall-clock times in the zone. A wall time that does not
// exist (skipped by a daylight-saving change) fires at the instant Go's
// time.Date gives it; a wall time that occurs twice fires at its first
// occurrence. Across a change, wall-clock order and instant order differ, and
// a skipped midnight fires on the previous local day (America/Santiago's
// 00:00 of 2026-09-06 is 23:00 of 09-05), so the walk is bounded by the
// zone's offsets rather than by local days: a fire at wall time w (read as
// if it were UTC) is at the instant w-offset, for one of the offsets the zone
// has around now.
//
// The fires whose wall time may lie in that bound are visited latest first,
// each found from the previous one arithmetically (cron.latest). A fire whose
// instant is after now has a wall time within the zone's offset spread of
// now+maxOff, and one whose instant is at or before now-dur has one within
// the spread of the bound's start; any other is in the window and ends the
// walk. So a walk looks at the days of the bound (at most about ten) and at
// the fires of two stretches as long as the offset spread (an hour or two
// around a daylight-saving change, nothing elsewhere).
func (s cronSpan) walk(now time.Time) (active bool, steps int) {
	from := now.Add(-s.dur)
	minOff, maxOff, transitions := offsetRange(s.loc, from.Add(-2*24*time.Hour), now.Add(2*24*time.Hour))
	steps = 1 + transitions
	// Wall times (as UTC) whose instant may lie in (from, now].
	lo, hi := from.Add(minOff).UTC(), now.Add(maxOff).UTC()
	day := time.Date(hi.Year(), hi.Month(), hi.Day(), 0, 0, 0, 0, time.UTC)
	upTo := int(hi.Sub(day) / time.Minute) // the day's last minute at or before hi
	for ; day.Add(24 * time.Hour).After(lo); day, upTo = day.Add(-24*time.Hour), minutesPerDay-1 {
		steps++
		if !s.cron.dayMatches(day) {
			continue
		}
		for {
			h, m, ok := s.cron.latest(upTo)
			if !ok {
				break
			}
			wall := day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
			if !wall.After(lo) {
				return false, steps
			}
			steps++
			fire := time.Date(day.Year(), day.Month(), day.Day(), h, m, 0, 0, s.loc)
			if fire.After(from) && !fire.After(now) {
				return true, steps
			}
			upTo = h*60 + m - 1
		}
	}
	return false, steps
}

const minutesPerDay = 24 * 60

// latest is the schedule's latest hour and minute of a day at or before
// minute upTo of that day (0 to 1439); ok is false when there is none.
func (c cron) latest(upTo int) (h, m int, ok bool) {
	if upTo < 0 {
		return 0, 0, false
	}
	h, m = upTo/60, upTo%60
	if c.hour.has(h) && c.minuteAtOrBefore[m] >= 0 {
		return h, int(c.minuteAtOrBefore[m]), true
	}
	if h == 0 || c.hourAtOrBefore[h-1] < 0 {
		return 0, 0, false
	}
	// The minute field matches at least one minute, so [59] is one.
	return int(c.hourAtOrBefore[h-1]), int(c.minuteAtOrBefore[59]), true
}

// atOrBefore is, for each value v of a field of n values from 0, the
// greatest value at or before v that the field matches, or -1.
func atOrBefore(f cronField, out []int8) {
	last := int8(-1)
	for v := range out {
		if f.has(v) {
			last = int8(v)
		}
		out[v] = last
	}
}

// offsetRange is the least and the greatest UTC offset loc has between from
// and to, and how many transitions it read to find them.
func offsetRange(loc *time.Location, from, to time.Time) (lo, hi time.Duration, transitions int) {
	t := from.In(loc)
	_, off := t.Zone()
	lo, hi = time.Duration(off)*time.Second, time.Duration(off)*time.Second
	for {
		_, end := t.ZoneBounds()
		if end.IsZero() || end.After(to) || !end.After(t) {
			return lo, hi, transitions
		}
		transitions++
		t = end
		_, off = t.Zone()
		d := time.Duration(off) * time.Second
		lo, hi = min(lo, d), max(hi, d)
	}
}

// timeFunctions declares Timestamp and CronSpan. CronSpan's calls are
// planned by the program's decorator (cronSpanCalls), which charges them
// their work; its binding here is what CEL requires of a function, and
// evaluates a call that was not so planned, correctly but uncharged.
func timeFunctions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function(fnTimestmp,
			cel.Overload("vigil_timestamp_string", []*cel.Type{cel.StringType}, cel.TimestampType,
				cel.UnaryBinding(func(s ref.Val) ref.Val {
					str, ok := s.(types.String)
					if !ok {
						return types.NewErr("Timestamp() needs a string, not %s", s.Type().TypeName())
					}
					t, err := parseTimestamp(string(str))
					if err != nil {
						return types.WrapErr(err)
					}
					return types.Timestamp{Time: t}
				}))),
		cel.Function(fnCronSpan,
			cel.Overload("vigil_cronspan", []*cel.Type{cel.TimestampType, cel.StringType, cel.StringType, cel.StringType}, cel.BoolType,
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					now, ok := args[0].(types.Timestamp)
					if !ok {
						return types.NewErr("CronSpan: no clock")
					}
					var strs [3]string
					for i := range strs {
						s, ok := args[i+1].(types.String)
						if !ok {
							return types.NewErr("CronSpan() needs three strings, not %s", args[i+1].Type().TypeName())
						}
						strs[i] = string(s)
					}
					span, err := parseCronSpan(strs[0], strs[1], strs[2])
					if err != nil {
						return types.WrapErr(err)
					}
					return types.Bool(span.active(now.Time))
				}))),
	}
}

var errNoClock = errors.New("the policy has a time expression but the evaluation has no clock (Input.Now is zero)")
