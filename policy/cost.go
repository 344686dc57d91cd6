package policy

import (
	"errors"
	"fmt"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// programOptions are the limits every compiled expression runs under.
func programOptions(zones *zoneCache) []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.CostLimit(CostLimit),
		cel.CostTracking(workCost{}),
		cel.EvalOptions(cel.OptOptimize),
		cel.CustomDecoratorV2(orderMapLiterals),
		cel.CustomDecoratorV2(strictEquality),
		cel.CustomDecoratorV2(strictLogicCalls),
		cel.CustomDecoratorV2(cronSpanCalls(zones)),
		cel.CustomDecoratorV2(matchCalls),
	}
}

// workCost charges the functions whose work grows with their arguments by
// that work, where CEL would charge them one unit: the dialect's slicing,
// string indexing, list contains and string comparisons, and size of a
// string (which counts its characters); string contains, startsWith,
// endsWith and concatenation, which CEL charges by length only when the
// checker resolved the overload (not on a dyn parameter); and the work CEL does not see
// (chargeWork): building a map literal at evaluation, a CronSpan call. Scanning a string costs what CEL
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
	case fnWork:
		if n, ok := args[0].(types.Int); ok && n >= 0 {
			return charge(uint64(n))
		}
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
		if l, ok := args[0].(traits.Lister); ok {
			return charge(1 + uint64(l.Size().(types.Int)))
		}
		// CEL charges a string's contains by its lengths only when the
		// checker resolved the overload, which it cannot on a parameter
		// (dyn): charged here either way, by the bytes it scans.
		if s, ok := args[0].(types.String); ok {
			if sub, ok := args[1].(types.String); ok {
				return charge(scanCost(len(s) + len(sub)))
			}
		}
	case overloads.StartsWith, overloads.EndsWith:
		if _, ok := args[0].(types.String); ok && len(args) == 2 {
			if affix, ok := args[1].(types.String); ok {
				return charge(scanCost(len(affix)))
			}
		}
	case operators.Add:
		// Concatenation copies both strings (unresolved on dyn operands,
		// where CEL would charge one unit).
		if a, ok := args[0].(types.String); ok && len(args) == 2 {
			if b, ok := args[1].(types.String); ok {
				return charge(scanCost(len(a) + len(b)))
			}
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

// eval evaluates prg within the cost limit. There is no wall-clock bound:
// it would depend on the machine's load (a DENY that timed out would be an
// error, which does not deny), and ContextEval's interrupt checks made every
// decision half again as slow; the cost limit, charged by the work done
// (workCost), is what bounds an evaluation.
// The cost charged is added to act.spent; once it reaches act.stopAt no
// further expression runs, so a decision overruns its budget by at most one.
func eval(prg cel.Program, act *activation) (ref.Val, error) {
	if act.stopAt != 0 && act.spent >= act.stopAt {
		return nil, errNotJudged
	}
	out, det, err := prg.Eval(act)
	if c := det.ActualCost(); c != nil {
		act.spent += *c
	}
	if err != nil && strings.Contains(err.Error(), "cost limit exceeded") {
		return nil, fmt.Errorf("%w (%d): the expression does too much work; simplify it", errCostLimit, CostLimit)
	}
	return out, err
}

// errCostLimit is the error of an expression stopped at CostLimit. A deny
// stopped so is not ignored (decide): how much work it does can depend on
// the activity's size, which its submitter chooses.
var errCostLimit = errors.New("evaluation cost limit exceeded")
