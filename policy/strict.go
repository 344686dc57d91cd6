package policy

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
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
// and gives a bool, never an error, when the field is absent.
const (
	fnAnd  = "_vand"
	fnOr   = "_vor"
	fnCond = "_vcond"
)

// strictFunctions declare the three functions. They are non-strict in CEL's
// sense (called with error arguments) so that every operand is evaluated
// before one error decides: a clause reading a keyword the activity lacks
// is noticed (activation's recorder) even beside a clause that fails.
func strictFunctions() []cel.EnvOption {
	t := cel.TypeParamType("T")
	logic := func(name string, op func(a, b types.Bool) types.Bool) cel.EnvOption {
		return cel.Function(name,
			cel.Overload("vigil_strict"+name, []*cel.Type{cel.BoolType, cel.BoolType}, cel.BoolType,
				cel.OverloadIsNonStrict(),
				cel.BinaryBinding(func(a, b ref.Val) ref.Val {
					if err := firstError(a, b); err != nil {
						return err
					}
					x, okA := a.(types.Bool)
					y, okB := b.(types.Bool)
					if !okA || !okB {
						return notBool(a, b)
					}
					return op(x, y)
				})))
	}
	return []cel.EnvOption{
		logic(fnAnd, func(a, b types.Bool) types.Bool { return a && b }),
		logic(fnOr, func(a, b types.Bool) types.Bool { return a || b }),
		cel.Function(fnCond,
			cel.Overload("vigil_strict_cond", []*cel.Type{cel.BoolType, t, t}, t,
				cel.OverloadIsNonStrict(),
				cel.FunctionBinding(func(args ...ref.Val) ref.Val {
					if err := firstError(args...); err != nil {
						return err
					}
					c, ok := args[0].(types.Bool)
					if !ok {
						return notBool(args[0])
					}
					if c {
						return args[1]
					}
					return args[2]
				}))),
	}
}

// firstError is the first argument that is an error (or unknown), or nil.
func firstError(args ...ref.Val) ref.Val {
	for _, a := range args {
		if types.IsUnknownOrError(a) {
			return a
		}
	}
	return nil
}

// notBool is the error of a dyn value that is not a bool where &&, || or a
// ternary's condition needs one.
func notBool(args ...ref.Val) ref.Val {
	for _, a := range args {
		if _, ok := a.(types.Bool); !ok {
			return types.NewErr("&&, || and ?: need bools, not %s", kindArticle(shownKind(a)))
		}
	}
	return types.NewErr("&&, || and ?: need bools")
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
			c.LoopCondition().SetKindCase(ctx.NewLiteral(types.True))
			step := c.LoopStep()
			walk(step, step.Kind() == ast.CallKind && step.AsCall().FunctionName() == operators.Conditional)
			walk(c.Result(), false)
		}
	}
	walk(a.Expr(), false)
	return a
}

// strictProgram plans a checked expression for non-short-circuit evaluation
// in run, the checking environment extended with strictFunctions.
func strictProgram(opt *cel.StaticOptimizer, run *cel.Env, checked *cel.Ast, opts []cel.ProgramOption) (cel.Program, error) {
	rewritten, iss := opt.Optimize(run, checked)
	if iss != nil && iss.Err() != nil {
		return nil, fmt.Errorf("planning evaluation: %w", iss.Err())
	}
	return run.Program(rewritten, opts...)
}
