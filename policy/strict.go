package policy

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"
)

// The real service's engine does not short-circuit (tkhq/docs,
// features/policies/language.mdx, Appendix "Policy evaluation"): "if any
// clause within the condition field of a policy results in an error, the
// evaluated outcome for that policy will be an error", even when the other
// side of an `||` is true or of an `&&` false. CEL's `&&`, `||` and `?:`
// absorb an error on the side that does not decide, and its all/any stop at
// the first element that decides; an ALLOW `A && (true || <error>)` would
// allow here and fail there.
//
// So each expression is planned from a copy rewritten for evaluation only
// (checks, warnings and the prefilter read the expression as written):
//
//	a && b      → _vand(a, b)      both sides evaluated, an error if either is
//	a || b      → _vor(a, b)       likewise
//	c ? a : b   → _vcond(c, a, b)  all three evaluated, an error if any is
//
// and every loop (all, any, exists, exists_one, filter, map) runs over every
// element. The macros' own steps (`accu && p`, `accu || p`) become _vand and
// _vor too, so an element whose predicate fails makes the loop an error; the
// ternary a filter or exists_one step is made of is the macro's, not a
// clause, and stays (its predicate is rewritten). has() is a presence test
// and gives a bool, never an error, when the field is absent. Every operand
// is evaluated before an error decides, so a clause reading a keyword the
// activity lacks is noticed (the activation's recorder: the policy does not
// apply) even beside one that fails.
const (
	fnAnd  = "_vand"
	fnOr   = "_vor"
	fnCond = "_vcond"
)

// strictFunctions declare the three functions. They are planned as
// logicCalls (strictLogicCalls); the bindings, which do the same, are what
// the planner needs to resolve them.
func strictFunctions() []cel.EnvOption {
	t := cel.TypeParamType("T")
	binding := func(name string) cel.OverloadOpt {
		return cel.FunctionBinding(func(args ...ref.Val) ref.Val { return logic(name, args) })
	}
	return []cel.EnvOption{
		cel.Function(fnAnd, cel.Overload("vigil_strict_and", []*cel.Type{cel.BoolType, cel.BoolType}, cel.BoolType,
			cel.OverloadIsNonStrict(), binding(fnAnd))),
		cel.Function(fnOr, cel.Overload("vigil_strict_or", []*cel.Type{cel.BoolType, cel.BoolType}, cel.BoolType,
			cel.OverloadIsNonStrict(), binding(fnOr))),
		cel.Function(fnCond, cel.Overload("vigil_strict_cond", []*cel.Type{cel.BoolType, t, t}, t,
			cel.OverloadIsNonStrict(), binding(fnCond))),
	}
}

// strictLogicCalls is the program decorator that plans _vand, _vor and
// _vcond as logicCalls.
func strictLogicCalls(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok {
		return i, nil
	}
	switch call.Function() {
	case fnAnd, fnOr, fnCond:
		return logicCall{InterpretableCall: call, args: call.Args()}, nil
	}
	return i, nil
}

// logicCall evaluates every operand of _vand, _vor or _vcond, then logic.
// Like CEL's own &&, || and ?:, it is not charged: the work is its
// operands'. (As a function call it would be charged, and the cost
// tracker would allocate at each one.)
type logicCall struct {
	interpreter.InterpretableCall
	args []interpreter.InterpretableV2 // Args() builds a new slice at each call
}

func (c logicCall) Eval(a interpreter.Activation) ref.Val {
	return interpreter.EvalActivation(a, c.Exec)
}

func (c logicCall) Exec(f *interpreter.ExecutionFrame) ref.Val {
	var buf [3]ref.Val
	if len(c.args) > len(buf) {
		return types.NewErr("%s: %d operands", c.Function(), len(c.args))
	}
	vals := buf[:len(c.args)]
	for i, a := range c.args {
		vals[i] = a.Exec(f)
	}
	return logic(c.Function(), vals)
}

// logic is _vand, _vor or _vcond of evaluated operands: the first operand
// that is an error, when one is; else the operator's result.
func logic(fn string, vals []ref.Val) ref.Val {
	for _, v := range vals {
		if types.IsUnknownOrError(v) {
			return v
		}
	}
	bools := vals
	if fn == fnCond {
		bools = vals[:1]
	}
	for _, v := range bools {
		if _, ok := v.(types.Bool); !ok {
			return types.NewErr("&&, || and ?: need bools, not %s", kindArticle(shownKind(v)))
		}
	}
	switch {
	case fn == fnAnd && len(vals) == 2:
		return vals[0].(types.Bool) && vals[1].(types.Bool)
	case fn == fnOr && len(vals) == 2:
		return vals[0].(types.Bool) || vals[1].(types.Bool)
	case fn == fnCond && len(vals) == 3:
		if vals[0] == types.True {
			return vals[1]
		}
		return vals[2]
	}
	return types.NewErr("%s: %d operands", fn, len(vals))
}

// strictLogic is the ASTOptimizer that rewrites an expression for
// non-short-circuit evaluation (see above).
type strictLogic struct{}

var strictNames = map[string]string{operators.LogicalAnd: fnAnd, operators.LogicalOr: fnOr, operators.Conditional: fnCond}

func (strictLogic) Optimize(ctx *cel.OptimizerContext, a *ast.AST) *ast.AST {
	var walk func(e ast.Expr, macroStep bool)
	walk = func(e ast.Expr, macroStep bool) {
		switch e.Kind() {
		case ast.CallKind:
			call := e.AsCall()
			if call.IsMemberFunction() {
				walk(call.Target(), false)
			}
			for _, arg := range call.Args() {
				walk(arg, false)
			}
			if fn, ok := strictNames[call.FunctionName()]; ok && !macroStep {
				e.SetKindCase(ctx.NewCall(fn, call.Args()...))
			}
		case ast.SelectKind:
			walk(e.AsSelect().Operand(), false)
		case ast.ListKind:
			for _, el := range e.AsList().Elements() {
				walk(el, false)
			}
		case ast.MapKind:
			for _, en := range e.AsMap().Entries() {
				walk(en.AsMapEntry().Key(), false)
				walk(en.AsMapEntry().Value(), false)
			}
		case ast.StructKind:
			for _, f := range e.AsStruct().Fields() {
				walk(f.AsStructField().Value(), false)
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			walk(c.IterRange(), false)
			walk(c.AccuInit(), false)
			// Every element is visited: the loop stops at none that decides.
			// The condition still reads what it read, now _vor'ed with true,
			// so an iteration is charged what it was (the budgets assume
			// a cost unit takes about as long as it did).
			alwaysTrue(ctx, c.LoopCondition())
			step := c.LoopStep()
			walk(step, step.Kind() == ast.CallKind && step.AsCall().FunctionName() == operators.Conditional)
			walk(c.Result(), false)
		}
	}
	walk(a.Expr(), false)
	return a
}

// alwaysTrue makes a loop condition always true: the macros' condition
// `@not_strictly_false(x)` becomes `@not_strictly_false(_vor(x, true))`, which
// still reads x, so that an iteration is charged what it was (the budgets
// assume a cost unit takes as long as it did); any other becomes
// `_vor(cond, true)`.
func alwaysTrue(ctx *cel.OptimizerContext, cond ast.Expr) {
	if cond.Kind() == ast.LiteralKind && cond.AsLiteral() == types.True {
		return // map, filter, exists_one
	}
	if call := cond.AsCall(); cond.Kind() == ast.CallKind && call.FunctionName() == operators.NotStrictlyFalse && len(call.Args()) == 1 {
		cond.SetKindCase(ctx.NewCall(operators.NotStrictlyFalse, ctx.NewCall(fnOr, call.Args()[0], ctx.NewLiteral(types.True))))
		return
	}
	orig, _ := ctx.CopyAST(ctx.NewAST(cond))
	cond.SetKindCase(ctx.NewCall(fnOr, orig, ctx.NewLiteral(types.True)))
}

// strictPlan returns the AST a checked expression is planned from for
// non-short-circuit evaluation in run, the checking environment extended
// with strictFunctions. An expression with nothing that short-circuits is
// planned as it is: the rewrite checks the expression again, which makes a
// compilation allocate half again as much. The rewrite renumbers the
// expression's nodes: what refers to nodes by id (caseFoldedOperands) must
// read the plan's AST.
func strictPlan(opt *cel.StaticOptimizer, run *cel.Env, checked *cel.Ast) (*cel.Ast, error) {
	if !shortCircuits(checked.NativeRep().Expr()) {
		return checked, nil
	}
	rewritten, iss := opt.Optimize(run, checked)
	if iss != nil && iss.Err() != nil {
		return nil, fmt.Errorf("planning evaluation: %w", iss.Err())
	}
	return rewritten, nil
}

// shortCircuits reports whether an expression has a node CEL evaluates with
// a short-circuit: &&, ||, ?: or a loop.
func shortCircuits(e ast.Expr) bool {
	found := false
	ast.PostOrderVisit(e, ast.NewExprVisitor(func(e ast.Expr) {
		switch e.Kind() {
		case ast.ComprehensionKind:
			found = true
		case ast.CallKind:
			if _, ok := strictNames[e.AsCall().FunctionName()]; ok {
				found = true
			}
		}
	}))
	return found
}
