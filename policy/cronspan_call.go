package policy

import (
	"sync"
	"time"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"
)

// A CronSpan call is planned by the program's decorator (cronSpanCalls) so
// that it is charged the work it does, which CEL would charge one unit
// whatever it did, and so that its arguments, when they are constants, are
// parsed once when the program is built. Computed arguments are parsed at
// each call and charged for it; only their time zones are kept, in a cache
// of bounded size, so that no expression can make the process remember more
// with each evaluation.

// Units charged for a CronSpan call (the budgets assume about 100 ns a
// unit; BenchmarkCronSpanLoops measures it, docs/performance.md).
const (
	// cronStepCost is a step of the walk: a day or a fire looked at, a
	// zone transition read (about 50 ns each, twice that with the loop
	// that calls it).
	cronStepCost = 2
	// cronParseCost is parsing a computed schedule and duration (about 2 µs).
	cronParseCost = 30
	// zoneLoadCost is reading a time zone from the zone database, found or
	// not (45 to 110 µs).
	zoneLoadCost = 1500
)

// maxCachedZones bounds the time zones kept for computed CronSpan arguments:
// far more than an organization's policies name, few enough to be small.
const maxCachedZones = 64

// zoneCache is the time zones CronSpan has loaded, at most maxCachedZones.
// Zone names are not a bounded set (time.LoadLocation accepts "./UTC",
// "././UTC" ...), so an entry is dropped to make room for a new one.
type zoneCache struct {
	mu    sync.Mutex
	zones map[string]*time.Location
}

// load is the named zone, and whether it had to be read from the zone
// database (which is what costs).
func (z *zoneCache) load(name string) (loc *time.Location, read bool, err error) {
	z.mu.Lock()
	loc, ok := z.zones[name]
	z.mu.Unlock()
	if ok {
		return loc, false, nil
	}
	loc, err = loadZoneNamed(name)
	if err != nil {
		return nil, true, err
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.zones == nil {
		z.zones = make(map[string]*time.Location)
	}
	if len(z.zones) >= maxCachedZones {
		for k := range z.zones { // any one: which matters less than the bound
			delete(z.zones, k)
			break
		}
	}
	z.zones[name] = loc
	return loc, true, nil
}

// size is how many zones are kept.
func (z *zoneCache) size() int {
	z.mu.Lock()
	defer z.mu.Unlock()
	return len(z.zones)
}

// cronSpanCalls is the program decorator that plans each CronSpan call as a
// cronSpanCall.
func cronSpanCalls(zones *zoneCache) interpreter.InterpretableDecoratorV2 {
	return func(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
		call, ok := i.(interpreter.InterpretableCall)
		if !ok || call.Function() != fnCronSpan || len(call.Args()) != 4 {
			return i, nil
		}
		c := cronSpanCall{call: call, zones: zones}
		var args [3]string
		for n, a := range call.Args()[1:] {
			k, ok := a.(interpreter.InterpretableConst)
			if !ok {
				return c, nil
			}
			s, ok := k.Value().(types.String)
			if !ok {
				return c, nil
			}
			args[n] = string(s)
		}
		// Constant arguments that do not parse are refused at compile time
		// (checkLiterals); were one not, each call reports it.
		if span, _, err := parseCronSpanIn(args, zones); err == nil {
			c.span = &span
		}
		return c, nil
	}
}

// cronSpanCall is a planned CronSpan call.
type cronSpanCall struct {
	call  interpreter.InterpretableCall
	span  *cronSpan // parsed when the program was built; nil: computed arguments
	zones *zoneCache
}

func (c cronSpanCall) ID() int64 { return c.call.ID() }

func (c cronSpanCall) Eval(a interpreter.Activation) ref.Val {
	return interpreter.EvalActivation(a, c.Exec)
}

func (c cronSpanCall) Exec(f *interpreter.ExecutionFrame) ref.Val {
	args := c.call.Args()
	v := args[0].Exec(f)
	if types.IsUnknownOrError(v) {
		return v
	}
	now, ok := v.(types.Timestamp)
	if !ok {
		return types.NewErrWithNodeID(c.ID(), "CronSpan: no clock")
	}
	units := uint64(1) // CEL's charge for a call
	span := c.span
	if span == nil {
		var strs [3]string
		for n, a := range args[1:] {
			v := a.Exec(f)
			if types.IsUnknownOrError(v) {
				return v
			}
			s, ok := v.(types.String)
			if !ok {
				return types.NewErrWithNodeID(c.ID(), "CronSpan() needs three strings, not %s", v.Type().TypeName())
			}
			strs[n] = string(s)
			units += scanCost(len(s))
		}
		units += cronParseCost
		parsed, read, err := parseCronSpanIn(strs, c.zones)
		if read {
			units += zoneLoadCost
		}
		if err != nil {
			chargeWork(f, units)
			return types.LabelErrNode(c.ID(), types.WrapErr(err))
		}
		span = &parsed
	}
	active, steps := span.walk(now.Time)
	chargeWork(f, units+uint64(steps)*cronStepCost)
	return types.Bool(active)
}

// parseCronSpanIn parses CronSpan's arguments, the zone from zones; read
// reports that the zone had to be read from the zone database.
func parseCronSpanIn(args [3]string, zones *zoneCache) (span cronSpan, read bool, err error) {
	c, err := parseCron(args[0])
	if err != nil {
		return cronSpan{}, false, err
	}
	d, err := parseSpanDuration(args[1])
	if err != nil {
		return cronSpan{}, false, err
	}
	loc, read, err := zones.load(args[2])
	if err != nil {
		return cronSpan{}, read, err
	}
	return cronSpan{cron: c, dur: d, loc: loc}, read, nil
}

// chargeWork charges units to the evaluation's cost tracker, through its
// call cost (workCost, fnWork), so the cost limit applies.
func chargeWork(f *interpreter.ExecutionFrame, units uint64) {
	if costs := f.CostTracker(); costs != nil {
		costs.EvalUnary(nil, 0, work{}, types.Int(units), types.NullValue)
	}
}

// fnWork names, to the cost tracker, work that CEL does not see (a map
// literal built, a CronSpan walk): workCost charges it the units its
// argument says.
const fnWork = "vigil.work"

// work is the call the tracker is told of by chargeWork.
type work struct{}

func (work) Function() string   { return fnWork }
func (work) OverloadID() string { return fnWork }
