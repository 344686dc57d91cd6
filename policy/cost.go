package policy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/interpreter"
)

// MaxEvaluationTime bounds one evaluation of one expression, whatever the
// cost limit lets through: the service evaluates inside its write
// transaction. A policy within the cost limit takes milliseconds (see
// docs/performance.md), so this only stops what the cost model misses. It
// is far above that on purpose: a wall-clock bound depends on the machine's
// load, and a DENY that times out is an error, which does not deny; the cost
// limit, which does not depend on load, is what bounds a policy.
const MaxEvaluationTime = 2 * time.Second

// interruptCheckFrequency is how many comprehension iterations run between
// two checks of the evaluation's deadline.
const interruptCheckFrequency = 100

// programOptions are the limits every compiled expression runs under.
func programOptions() []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.CostLimit(CostLimit),
		cel.CostTracking(workCost{}),
		cel.InterruptCheckFrequency(interruptCheckFrequency),
		cel.EvalOptions(cel.OptOptimize),
	}
}

// workCost charges the functions whose work grows with their arguments by
// that work, where CEL would charge them one unit: the dialect's slicing,
// string indexing, list contains and string comparisons, and size of a
// string (which counts its characters). Scanning a string costs what CEL
// charges for its own string functions, a tenth of a unit per byte; copying
// or scanning a list costs a unit per element.
type workCost struct{}

// scanCost is CEL's cost of scanning n bytes of a string.
func scanCost(n int) uint64 { return 1 + uint64(n)/10 }

func (workCost) CallCost(function, _ string, args []ref.Val, result ref.Val) *uint64 {
	if len(args) == 0 {
		return nil
	}
	charge := func(c uint64) *uint64 { return &c }
	switch function {
	case fnIndex, overloads.Size:
		if s, ok := args[0].(types.String); ok {
			return charge(scanCost(len(s)))
		}
	case fnSlice:
		if s, ok := args[0].(types.String); ok {
			return charge(scanCost(len(s)))
		}
		if l, ok := result.(traits.Lister); ok {
			return charge(1 + uint64(l.Size().(types.Int)))
		}
	case overloads.Contains:
		// String contains is CEL's own, and charged by CEL.
		if l, ok := args[0].(traits.Lister); ok {
			return charge(1 + uint64(l.Size().(types.Int)))
		}
	case operators.Less, operators.LessEquals, operators.Greater, operators.GreaterEquals:
		if a, ok := args[0].(types.String); ok && len(args) == 2 {
			if b, ok := args[1].(types.String); ok {
				return charge(scanCost(min(len(a), len(b))))
			}
		}
	}
	return nil
}

// eval evaluates prg within the cost limit and the time limit.
func eval(prg cel.Program, act interpreter.Activation, limit time.Duration) (ref.Val, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	out, _, err := prg.ContextEval(ctx, act)
	switch {
	case err == nil:
		return out, nil
	case strings.Contains(err.Error(), "cost limit exceeded"):
		return nil, fmt.Errorf("evaluation cost limit exceeded (%d): the expression does too much work; simplify it", CostLimit)
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("evaluation took longer than %v: the expression does too much work; simplify it", limit)
	}
	return nil, err
}
