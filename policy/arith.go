package policy

import (
	"math"
	"math/big"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/env"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/overloads"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// CEL dispatches +, -, *, / and % to the left operand's method, so an Int or
// a Uint on the left never sees a bigInt on the right (`10 / wide` was "no
// such overload"), and a bigInt without a method made CEL's interpreter panic.
// These operators are therefore declared here, with CEL's own overloads and
// overload ids (so the checker and cost tracking see no difference), and one
// binding that sends any operation with a bigInt operand to its exact
// big.Int form.

// arithmeticExcluded are the standard library's operators arithmeticOperators replaces.
func arithmeticExcluded() []*env.Function {
	return []*env.Function{{Name: operators.Add}, {Name: operators.Subtract},
		{Name: operators.Multiply}, {Name: operators.Divide}, {Name: operators.Modulo}, {Name: operators.Negate}}
}

func arithmeticOperators() []cel.EnvOption {
	listA := cel.ListType(cel.TypeParamType("A"))
	i, u, d := cel.IntType, cel.UintType, cel.DoubleType
	s, b := cel.StringType, cel.BytesType
	ts, dur := cel.TimestampType, cel.DurationType
	o := func(id string, l, r, res *cel.Type) cel.FunctionOpt {
		return cel.Overload(id, []*cel.Type{l, r}, res)
	}
	return []cel.EnvOption{
		cel.Function(operators.Negate,
			cel.Overload(overloads.NegateDouble, []*cel.Type{d}, d), cel.Overload(overloads.NegateInt64, []*cel.Type{i}, i),
			cel.SingletonUnaryBinding(negate)),
		cel.Function(operators.Add,
			o(overloads.AddBytes, b, b, b), o(overloads.AddDouble, d, d, d),
			o(overloads.AddDurationDuration, dur, dur, dur), o(overloads.AddDurationTimestamp, dur, ts, ts),
			o(overloads.AddTimestampDuration, ts, dur, ts), o(overloads.AddInt64, i, i, i),
			o(overloads.AddList, listA, listA, listA), o(overloads.AddString, s, s, s),
			o(overloads.AddUint64, u, u, u),
			cel.SingletonBinaryBinding(exactly(widenBoth,
				func(l, r ref.Val) ref.Val { return arith(l, r, (*big.Int).Add) },
				func(l, r ref.Val) ref.Val {
					if a, ok := l.(traits.Adder); ok {
						return a.Add(r)
					}
					return types.MaybeNoSuchOverloadErr(l)
				}))),
		cel.Function(operators.Subtract,
			o(overloads.SubtractDouble, d, d, d), o(overloads.SubtractDurationDuration, dur, dur, dur),
			o(overloads.SubtractInt64, i, i, i), o(overloads.SubtractTimestampDuration, ts, dur, ts),
			o(overloads.SubtractTimestampTimestamp, ts, ts, dur), o(overloads.SubtractUint64, u, u, u),
			cel.SingletonBinaryBinding(exactly(widenSigned,
				func(l, r ref.Val) ref.Val { return arith(l, r, (*big.Int).Sub) },
				func(l, r ref.Val) ref.Val {
					if a, ok := l.(traits.Subtractor); ok {
						return a.Subtract(r)
					}
					return types.MaybeNoSuchOverloadErr(l)
				}))),
		cel.Function(operators.Multiply,
			o(overloads.MultiplyDouble, d, d, d), o(overloads.MultiplyInt64, i, i, i),
			o(overloads.MultiplyUint64, u, u, u),
			cel.SingletonBinaryBinding(exactly(widenBoth,
				func(l, r ref.Val) ref.Val { return arith(l, r, (*big.Int).Mul) },
				func(l, r ref.Val) ref.Val {
					if a, ok := l.(traits.Multiplier); ok {
						return a.Multiply(r)
					}
					return types.MaybeNoSuchOverloadErr(l)
				}))),
		cel.Function(operators.Divide,
			o(overloads.DivideDouble, d, d, d), o(overloads.DivideInt64, i, i, i),
			o(overloads.DivideUint64, u, u, u),
			cel.SingletonBinaryBinding(exactly(widenSigned,
				func(l, r ref.Val) ref.Val { return quotient(l, r, (*big.Int).Quo, "division") },
				func(l, r ref.Val) ref.Val {
					if a, ok := l.(traits.Divider); ok {
						return a.Divide(r)
					}
					return types.MaybeNoSuchOverloadErr(l)
				}))),
		cel.Function(operators.Modulo,
			o(overloads.ModuloInt64, i, i, i), o(overloads.ModuloUint64, u, u, u),
			cel.SingletonBinaryBinding(exactly(widenSigned,
				func(l, r ref.Val) ref.Val { return quotient(l, r, (*big.Int).Rem, "modulo") },
				func(l, r ref.Val) ref.Val {
					if a, ok := l.(traits.Modder); ok {
						return a.Modulo(r)
					}
					return types.MaybeNoSuchOverloadErr(l)
				}))),
	}
}

// Which 64-bit operations that overflow are done again exactly: the service's
// int is i128, which holds any sum, difference, product or quotient of two
// int64 values, and its uint is u256, which holds any sum or product of two
// uint64 values (a uint64 difference below zero is an error there too).
const (
	widenSigned = iota
	widenBoth
)

// exactly is an operator's binding: exact when an operand is beyond 64
// bits, CEL's own (native) otherwise, and exact again when CEL's overflows
// where the service's wider integers would not (`a + b > LIMIT` on two
// large int64 amounts must not turn into an error that leaves a DENY unapplied).
func exactly(widen int, exact, native func(l, r ref.Val) ref.Val) func(l, r ref.Val) ref.Val {
	return func(l, r ref.Val) ref.Val {
		if wide(l, r) {
			return exact(l, r)
		}
		res := native(l, r)
		if e, ok := res.(*types.Err); !ok || !strings.Contains(e.Error(), "overflow") {
			return res
		}
		_, li := l.(types.Int)
		_, ri := r.(types.Int)
		_, lu := l.(types.Uint)
		_, ru := r.(types.Uint)
		if li && ri || widen == widenBoth && lu && ru {
			return exact(l, r)
		}
		return res
	}
}

// wide reports whether an operation on l and r is one on integers of which
// at least one is beyond 64 bits.
func wide(l, r ref.Val) bool {
	_, lb := l.(bigInt)
	_, rb := r.(bigInt)
	if !lb && !rb {
		return false
	}
	_, lok := asBig(l)
	_, rok := asBig(r)
	return lok && rok
}

// negate is unary minus. -(-2^63) leaves int64, where CEL's overflows; the
// service's i128 holds it, so it is exact here too, as the other operators'
// results are (a DENY on `-(amount) > LIMIT` must not be left unapplied).
func negate(v ref.Val) ref.Val {
	if n, ok := v.(types.Int); ok && n == math.MinInt64 {
		return numberOf(new(big.Int).Neg(big.NewInt(math.MinInt64)))
	}
	if n, ok := v.(traits.Negater); ok && !types.IsBool(v) {
		return n.Negate()
	}
	return types.MaybeNoSuchOverloadErr(v)
}
