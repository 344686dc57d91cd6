package policy

import (
	"fmt"
	"math/big"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// accessFunctions are the hidden functions rewrite produces for indexing,
// slicing, `.count` and wide integer literals.
func accessFunctions() []cel.EnvOption {
	t := cel.TypeParamType("T")
	k, v := cel.TypeParamType("K"), cel.TypeParamType("V")
	return []cel.EnvOption{
		cel.Function(fnIndex,
			cel.MemberOverload("vigil_index_list", []*cel.Type{cel.ListType(t), cel.IntType}, t),
			cel.MemberOverload("vigil_index_string", []*cel.Type{cel.StringType, cel.IntType}, cel.StringType),
			cel.MemberOverload("vigil_index_map", []*cel.Type{cel.MapType(k, v), k}, v),
			cel.SingletonBinaryBinding(indexValue)),
		cel.Function(fnSlice,
			cel.MemberOverload("vigil_slice_list", []*cel.Type{cel.ListType(t), cel.IntType, cel.IntType}, cel.ListType(t)),
			cel.MemberOverload("vigil_slice_string", []*cel.Type{cel.StringType, cel.IntType, cel.IntType}, cel.StringType),
			cel.SingletonFunctionBinding(func(args ...ref.Val) ref.Val { return sliceValue(args[0], args[1], args[2]) })),
		cel.Function(fnCount,
			cel.MemberOverload("vigil_count_list", []*cel.Type{cel.ListType(t)}, cel.IntType),
			cel.MemberOverload("vigil_count_map", []*cel.Type{cel.MapType(cel.StringType, v)}, v),
			cel.SingletonUnaryBinding(countField)),
		cel.Function(fnNumber,
			cel.Overload("vigil_number", []*cel.Type{cel.StringType}, cel.IntType,
				cel.UnaryBinding(func(s ref.Val) ref.Val {
					str, ok := s.(types.String)
					if !ok {
						return types.NewErr("not a number: %s", s.Type().TypeName())
					}
					n, ok := new(big.Int).SetString(string(str), 10)
					if !ok || n.CmpAbs(maxUint256) > 0 {
						return types.NewErr("not a number: %s", s)
					}
					return numberOf(n)
				}))),
	}
}

// indexInt reads an index operand, which must be a 64-bit int.
func indexInt(v ref.Val) (int64, bool) {
	i, ok := v.(types.Int)
	return int64(i), ok
}

// indexValue is x[i]: an element of a list, a character of a string (as a
// one-character string), or the value of a map key. An index outside the
// list or string is an evaluation error, as is a missing key.
func indexValue(x, i ref.Val) ref.Val {
	switch c := x.(type) {
	case types.String:
		n, ok := indexInt(i)
		if !ok {
			return types.NewErr("a string is indexed by an int, not %s", i.Type().TypeName())
		}
		from, to, length := runeSpan(string(c), n, n+1)
		if n < 0 || n >= length {
			return types.NewErr("index %d out of range: the string has %d characters", n, length)
		}
		return types.String(string(c)[from:to])
	case traits.Mapper:
		val, found := findKey(c, i)
		if !found {
			if val != nil && types.IsError(val) {
				return val
			}
			return types.NewErr("no such key: %v", i)
		}
		return val
	case traits.Lister:
		n, ok := indexInt(i)
		if !ok {
			return types.NewErr("a list is indexed by an int, not %s", i.Type().TypeName())
		}
		size := int64(c.Size().(types.Int))
		if n < 0 || n >= size {
			return types.NewErr("index %d out of range: the list has %d elements", n, size)
		}
		return c.Get(types.Int(n))
	}
	if types.IsError(x) {
		return x
	}
	return types.NewErr("%s cannot be indexed", x.Type().TypeName())
}

// sliceValue is x[a..b]: the elements (or characters) from a up to, not
// including, b. As in Go, 0 <= a <= b <= length is required; anything else is
// an evaluation error.
func sliceValue(x, a, b ref.Val) ref.Val {
	from, ok1 := indexInt(a)
	to, ok2 := indexInt(b)
	if !ok1 || !ok2 {
		return types.NewErr("slice bounds must be ints")
	}
	bounds := func(length int64, what string) ref.Val {
		if from < 0 || to < from || to > length {
			return types.NewErr("slice [%d..%d] out of range: the %s has %d %s", from, to, what, length,
				map[string]string{"string": "characters", "list": "elements"}[what])
		}
		return nil
	}
	switch c := x.(type) {
	case types.String:
		s := string(c)
		start, end, length := runeSpan(s, from, to)
		if err := bounds(length, "string"); err != nil {
			return err
		}
		return types.String(s[start:end])
	case traits.Lister:
		size := int64(c.Size().(types.Int))
		if err := bounds(size, "list"); err != nil {
			return err
		}
		out := make([]ref.Val, 0, to-from)
		for k := from; k < to; k++ {
			out = append(out, c.Get(types.Int(k)))
		}
		return types.NewRefValList(types.DefaultTypeAdapter, out)
	}
	if types.IsError(x) {
		return x
	}
	return types.NewErr("%s cannot be sliced", x.Type().TypeName())
}

// runeSpan locates the characters from up to (not including) to of s: it
// returns their byte offsets and the length of s in characters, without
// copying s. Offsets of characters outside s are len(s).
func runeSpan(s string, from, to int64) (start, end int, length int64) {
	if isASCII(s) {
		clamp := func(i int64) int { return int(min(max(i, 0), int64(len(s)))) }
		return clamp(from), clamp(to), int64(len(s))
	}
	start, end = len(s), len(s)
	for i := range s {
		if length == from {
			start = i
		}
		if length == to {
			end = i
		}
		length++
	}
	return start, end, length
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// countField is `x.count` written without parentheses, as the service's own
// examples do: the size of a list, or the field `count` of a map.
func countField(x ref.Val) ref.Val {
	switch c := x.(type) {
	case traits.Mapper:
		return indexValue(c, types.String("count"))
	case traits.Lister:
		return c.Size()
	}
	return types.NewErr("count needs a list, not %s", x.Type().TypeName())
}

// comparisonOperators replace CEL's <, <=, > and >= so that numbers beyond
// 64 bits (bigInt) compare exactly with any other number, on either side.
func comparisonOperators() []cel.EnvOption {
	pairs := [][2]*cel.Type{
		{cel.IntType, cel.IntType}, {cel.IntType, cel.DoubleType}, {cel.IntType, cel.UintType},
		{cel.UintType, cel.UintType}, {cel.UintType, cel.IntType}, {cel.UintType, cel.DoubleType},
		{cel.DoubleType, cel.DoubleType}, {cel.DoubleType, cel.IntType}, {cel.DoubleType, cel.UintType},
		{cel.StringType, cel.StringType}, {cel.BoolType, cel.BoolType}, {cel.BytesType, cel.BytesType},
		{cel.TimestampType, cel.TimestampType}, {cel.DurationType, cel.DurationType},
	}
	ops := []struct {
		name, id string
		holds    func(c int64) bool
	}{
		{operators.Less, "less", func(c int64) bool { return c < 0 }},
		{operators.LessEquals, "less_equals", func(c int64) bool { return c <= 0 }},
		{operators.Greater, "greater", func(c int64) bool { return c > 0 }},
		{operators.GreaterEquals, "greater_equals", func(c int64) bool { return c >= 0 }},
	}
	var out []cel.EnvOption
	for _, op := range ops {
		var opts []cel.FunctionOpt
		for _, p := range pairs {
			opts = append(opts, cel.Overload(fmt.Sprintf("vigil_%s_%s_%s", op.id, p[0], p[1]), []*cel.Type{p[0], p[1]}, cel.BoolType))
		}
		holds := op.holds
		opts = append(opts, cel.SingletonBinaryBinding(func(lhs, rhs ref.Val) ref.Val {
			if isNaN(lhs) || isNaN(rhs) {
				return types.False
			}
			c := compareNumbers(lhs, rhs)
			n, ok := c.(types.Int)
			if !ok {
				return c
			}
			return types.Bool(holds(int64(n)))
		}))
		out = append(out, cel.Function(op.name, opts...))
	}
	return out
}

func isNaN(v ref.Val) bool {
	d, ok := v.(types.Double)
	return ok && d != d
}
