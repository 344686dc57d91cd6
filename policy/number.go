package policy

import (
	"fmt"
	"math"
	"math/big"
	"reflect"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// The service's numbers are wider than CEL's: int is i128 and uint u256
// (amounts in wei routinely exceed 64 bits). Here there is one integer type
// for the checker, `int`; a value that fits 64 bits is CEL's own Int, and a
// larger one is a bigInt. A bigInt never holds a value that fits an int64,
// so Int and bigInt are never equal, and comparisons between them are exact.

// bigInt is an integer outside the int64 range.
type bigInt struct{ n *big.Int }

// numberOf returns the language value of n: an Int when it fits 64 bits.
func numberOf(n *big.Int) ref.Val {
	if n.IsInt64() {
		return types.Int(n.Int64())
	}
	return bigInt{n: n}
}

// asBig returns v as a big.Int when it is an integer value.
func asBig(v ref.Val) (*big.Int, bool) {
	switch t := v.(type) {
	case bigInt:
		return t.n, true
	case types.Int:
		return big.NewInt(int64(t)), true
	case types.Uint:
		return new(big.Int).SetUint64(uint64(t)), true
	}
	return nil, false
}

func (b bigInt) ConvertToNative(typeDesc reflect.Type) (any, error) {
	switch typeDesc {
	case reflect.TypeFor[*big.Int]():
		return new(big.Int).Set(b.n), nil
	case reflect.TypeFor[string]():
		return b.n.String(), nil
	}
	if typeDesc.Kind() == reflect.Interface {
		return b.n.String(), nil
	}
	return nil, fmt.Errorf("the number %s does not fit %v", b.n, typeDesc)
}

func (b bigInt) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.IntType:
		return b
	case types.StringType:
		return types.String(b.n.String())
	case types.DoubleType:
		f, _ := new(big.Float).SetInt(b.n).Float64()
		return types.Double(f)
	case types.TypeType:
		return types.IntType
	}
	return types.NewErr("cannot convert the number %s to %s", b.n, t.TypeName())
}

func (b bigInt) Equal(other ref.Val) ref.Val {
	switch o := other.(type) {
	case bigInt:
		return types.Bool(b.n.Cmp(o.n) == 0)
	case types.Double:
		f := new(big.Float).SetInt(b.n)
		return types.Bool(!math.IsInf(float64(o), 0) && !math.IsNaN(float64(o)) && f.Cmp(big.NewFloat(float64(o))) == 0)
	}
	if n, ok := asBig(other); ok {
		return types.Bool(b.n.Cmp(n) == 0)
	}
	return types.False
}

func (b bigInt) Type() ref.Type { return types.IntType }
func (b bigInt) Value() any     { return b.n }

// Compare implements traits.Comparer.
func (b bigInt) Compare(other ref.Val) ref.Val { return compareNumbers(b, other) }

// Negate implements traits.Negater.
func (b bigInt) Negate() ref.Val { return numberOf(new(big.Int).Neg(b.n)) }

// Add, Subtract and Multiply implement the arithmetic traits.
func (b bigInt) Add(other ref.Val) ref.Val      { return arith(b, other, (*big.Int).Add) }
func (b bigInt) Subtract(other ref.Val) ref.Val { return arith(b, other, (*big.Int).Sub) }
func (b bigInt) Multiply(other ref.Val) ref.Val { return arith(b, other, (*big.Int).Mul) }

func arith(a, b ref.Val, op func(z, x, y *big.Int) *big.Int) ref.Val {
	x, ok1 := asBig(a)
	y, ok2 := asBig(b)
	if !ok1 || !ok2 {
		return types.NewErr("no arithmetic between %s and %s", a.Type().TypeName(), b.Type().TypeName())
	}
	z := op(new(big.Int), x, y)
	if z.CmpAbs(maxUint256) > 0 {
		return types.NewErr("integer overflow: the result is beyond 256 bits")
	}
	return numberOf(z)
}

// compareNumbers compares two values of which at least one may be a bigInt;
// other pairs go to CEL's own comparison.
func compareNumbers(a, b ref.Val) ref.Val {
	_, aBig := a.(bigInt)
	_, bBig := b.(bigInt)
	if !aBig && !bBig {
		c, ok := a.(interface{ Compare(ref.Val) ref.Val })
		if !ok {
			return types.NewErr("cannot compare %s", a.Type().TypeName())
		}
		return c.Compare(b)
	}
	if d, ok := b.(types.Double); ok {
		return compareBigDouble(a, d, 1)
	}
	if d, ok := a.(types.Double); ok {
		return compareBigDouble(b, d, -1)
	}
	x, ok1 := asBig(a)
	y, ok2 := asBig(b)
	if !ok1 || !ok2 {
		return types.NewErr("cannot compare %s with %s", a.Type().TypeName(), b.Type().TypeName())
	}
	return types.Int(x.Cmp(y))
}

// compareBigDouble compares an integer with a double; sign flips the result
// when the double was on the left.
func compareBigDouble(n ref.Val, d types.Double, sign int) ref.Val {
	if math.IsNaN(float64(d)) {
		return types.NewErr("NaN values cannot be ordered")
	}
	x, _ := asBig(n)
	c := new(big.Float).SetInt(x).Cmp(big.NewFloat(float64(d)))
	return types.Int(c * sign)
}
