package policy

import (
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/interpreter"
)

// The docs call some string fields case-insensitive (caseInsensitive:
// TempoCall input, "hex comparisons work regardless of casing"). Their value
// is lower-cased when the activation is built, and so is the other side of
// every ==, !=, `in`, contains(), startsWith() and endsWith() that compares
// one of them, a character or slice of one (`input[34..74]`), or a
// concatenation holding one ('0x' + input[34..74], itself lower-cased),
// with something: a literal in checksum case, a list of them, or a value
// read at evaluation. Only ASCII letters are folded: the values are hex.

// caseFoldedOperands are the IDs of the expressions to lower-case at
// evaluation: the other operands of the comparisons with a case-insensitive
// field. checked must be a checked AST.
func caseFoldedOperands(checked *cel.Ast) map[int64]bool {
	native := checked.NativeRep()
	folded := map[int64]bool{}
	insensitive := map[int64]bool{} // expressions whose value is a folded field's, or part of it
	ast.PostOrderVisit(native.Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		switch e.Kind() {
		case ast.SelectKind:
			sel := e.AsSelect()
			if !sel.IsTestOnly() && caseInsensitive[native.GetType(sel.Operand().ID()).TypeName()][sel.FieldName()] {
				insensitive[e.ID()] = true
			}
		case ast.CallKind:
			call := e.AsCall()
			operands := call.Args()
			if call.IsMemberFunction() {
				operands = append([]ast.Expr{call.Target()}, operands...)
			}
			switch call.FunctionName() {
			case fnIndex, fnSlice:
				if call.IsMemberFunction() && insensitive[call.Target().ID()] {
					insensitive[e.ID()] = true
				}
			case operators.Conditional, fnCond:
				if len(operands) == 3 && (insensitive[operands[1].ID()] || insensitive[operands[2].ID()]) {
					insensitive[e.ID()] = true
				}
			case operators.Add:
				// A concatenation holding part of a folded field ('0x' +
				// input[34..74]) compares as that part does: its whole value
				// is lower-cased, and so is what it is compared with.
				if slices.ContainsFunc(operands, func(o ast.Expr) bool { return insensitive[o.ID()] }) {
					insensitive[e.ID()] = true
					folded[e.ID()] = true
				}
			case operators.Equals, operators.NotEquals, operators.In, "contains", "startsWith", "endsWith":
				involved := slices.ContainsFunc(operands, func(o ast.Expr) bool {
					return insensitive[o.ID()] || o.Kind() == ast.ListKind &&
						slices.ContainsFunc(o.AsList().Elements(), func(el ast.Expr) bool { return insensitive[el.ID()] })
				})
				if !involved {
					return
				}
				for _, o := range operands {
					if !insensitive[o.ID()] {
						folded[o.ID()] = true
					}
				}
			}
		}
	}))
	return folded
}

// caseFold is the program decorator that lower-cases the values of the
// expressions ids names (caseFoldedOperands).
func caseFold(ids map[int64]bool) interpreter.InterpretableDecoratorV2 {
	return func(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
		if !ids[i.ID()] {
			return i, nil
		}
		switch n := i.(type) {
		case interpreter.InterpretableConst:
			return interpreter.NewConstValue(i.ID(), lowerASCII(n.Value())), nil
		case interpreter.InterpretableConstructor:
			// A list literal of constants (an allowlist) is folded once.
			if n.Type() == types.ListType {
				vals := make([]ref.Val, 0, len(n.InitVals()))
				for _, v := range n.InitVals() {
					c, ok := v.(interpreter.InterpretableConst)
					if !ok {
						return foldedValue{i}, nil
					}
					vals = append(vals, lowerASCII(c.Value()))
				}
				return interpreter.NewConstValue(i.ID(), types.NewRefValList(adapter{base: types.DefaultTypeAdapter}, vals)), nil
			}
		}
		return foldedValue{i}, nil
	}
}

// foldedValue is an expression whose value is lower-cased.
type foldedValue struct{ interpreter.InterpretableV2 }

func (f foldedValue) Eval(a interpreter.Activation) ref.Val {
	return interpreter.EvalActivation(a, f.Exec)
}

func (f foldedValue) Exec(fr *interpreter.ExecutionFrame) ref.Val {
	return lowerASCII(f.InterpretableV2.Exec(fr))
}

// lowerASCII lower-cases the ASCII letters of a string, of the strings of a
// list (at any depth), or of a map's string keys; any other value is
// returned as it is.
func lowerASCII(v ref.Val) ref.Val {
	ad := adapter{base: types.DefaultTypeAdapter}
	switch t := v.(type) {
	case types.String:
		return types.String(lowerString(string(t)))
	case traits.Lister:
		n, ok := t.Size().(types.Int)
		if !ok {
			return v
		}
		out := make([]ref.Val, n)
		for i := range out {
			out[i] = lowerASCII(t.Get(types.Int(i)))
		}
		return types.NewRefValList(ad, out)
	case traits.Mapper:
		out := make(map[ref.Val]ref.Val)
		for it := t.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			out[lowerASCII(k)] = t.Get(k)
		}
		return ordered(types.NewRefValMap(ad, out))
	}
	return v
}

// lowerString is s with its ASCII letters lower-cased.
func lowerString(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}
