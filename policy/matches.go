package policy

import (
	"fmt"
	"math/bits"
	"regexp"
	"regexp/syntax"

	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"
)

// CEL charges matches() only after the call returns, and RE2's work grows
// with the string's length times the pattern's compiled size: a pattern read
// from the activity (`s.matches(s)` on a 10,000-character parameter) ran for
// a second, and a long one for minutes, past every cost limit, in the local
// service's single writer. So every matches() call is planned as a matchCall,
// charged before it runs. A submitted policy may only match a string literal
// (checkMatchPatterns), compiled once (constMatch), and charged by what
// matching it costs (constMatch.cost). A pattern computed at evaluation (only
// policies stored before that rule hold one) is charged first what CEL would
// charge by the two lengths (so a huge pattern is refused before it is
// compiled), then, once compiled, by its size. A call that would pass the
// cost limit is stopped before it matches.
//
// The charge errs above the work rather than below: a DENY over its cost
// limit holds the decision for the root quorum (overLimit), while work
// charged below what it takes stalls the single writer.

// matchInstsPerUnit is how many (character × regex instruction) steps a cost
// unit pays for: RE2's NFA takes about 8 to 12 ns for each
// (BenchmarkMatches), and the budgets assume about 100 ns a unit.
const matchInstsPerUnit = 8

// matchLengthCost is CEL's own cost of s.matches(p) by the lengths alone.
func matchLengthCost(n, m int) uint64 { return scanCost(n) * (1 + uint64(m)/4) }

// matchCost is the cost of matching n bytes with a compiled program of insts
// instructions, at worst.
func matchCost(n, insts int) uint64 {
	return 1 + (uint64(n)+1)*(uint64(insts)+1)/matchInstsPerUnit
}

// matchCalls is the program decorator that plans matches() as a matchCall.
func matchCalls(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok || call.Function() != overloads.Matches || len(call.Args()) != 2 {
		return i, nil
	}
	m := matchCall{InterpretableCall: call, args: call.Args()}
	if c, ok := m.args[1].(interpreter.InterpretableConst); ok {
		if p, ok := c.Value().(types.String); ok {
			constant, err := newConstMatch(string(p))
			if err != nil {
				return nil, fmt.Errorf("matches(): %w", err)
			}
			m.constant = constant
		}
	}
	return m, nil
}

// matchCall is s.matches(p) (or matches(s, p)), charged before it runs.
// constant is the pattern when it is one.
type matchCall struct {
	interpreter.InterpretableCall
	args     []interpreter.InterpretableV2
	constant *constMatch
}

// Function is not "matches": cel-go's regex optimizer (OptOptimize) runs
// after this decorator and would replace a call with a constant pattern by
// its own, which is charged only after it runs.
func (c matchCall) Function() string { return "vigil_matches" }

func (c matchCall) Eval(a interpreter.Activation) ref.Val {
	return interpreter.EvalActivation(a, c.Exec)
}

func (c matchCall) Exec(f *interpreter.ExecutionFrame) ref.Val {
	sv := c.args[0].Exec(f)
	if types.IsUnknownOrError(sv) {
		return sv
	}
	pv := c.args[1].Exec(f)
	if types.IsUnknownOrError(pv) {
		return pv
	}
	s, ok1 := sv.(types.String)
	p, ok2 := pv.(types.String)
	if !ok1 || !ok2 {
		return types.NewErr("matches() needs a string and a pattern string, not %s and %s",
			kindArticle(shownKind(sv)), kindArticle(shownKind(pv)))
	}
	if c.constant != nil {
		chargeBefore(f, c.constant.cost(len(s)))
		return types.Bool(c.constant.match(string(s)))
	}
	charged := matchLengthCost(len(s), len(p))
	chargeBefore(f, charged)
	re, insts, err := compilePattern(string(p))
	if err != nil {
		return types.NewErr("matches(): %v", err)
	}
	if full := matchCost(len(s), insts); full > charged {
		chargeBefore(f, full-charged)
	}
	return types.Bool(re.MatchString(string(s)))
}

// chargeBefore charges work about to be done, or stops the evaluation with
// the cost-limit error, as CEL's tracker does, when it would pass the limit.
// What is refused is not charged: the cost reported is the work done.
func chargeBefore(f *interpreter.ExecutionFrame, units uint64) {
	costs := f.CostTracker()
	if costs == nil {
		return
	}
	if costs.Limit != nil && (units > *costs.Limit || costs.ActualCost() > *costs.Limit-units) {
		panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded,
			Message: "operation cancelled: actual cost limit exceeded"})
	}
	chargeWork(f, units)
}

// compilePattern compiles a regular expression and counts its program's
// instructions, which (with the string's length) is what matching costs.
func compilePattern(p string) (*regexp.Regexp, int, error) {
	parsed, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, 0, err
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, 0, err
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, 0, err
	}
	return re, programSize(prog), nil
}

// programSize is a program's instructions, a character class of many ranges
// counted as several: RE2 tests a character against one by a binary search
// (\pL, about 650 ranges, takes a few times what [a-z] takes).
func programSize(prog *syntax.Prog) int {
	n := 0
	for _, inst := range prog.Inst {
		n++
		if inst.Op == syntax.InstRune {
			n += bits.Len(uint(len(inst.Rune)/2)) / 3
		}
	}
	return n
}
