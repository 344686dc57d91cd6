package policy

import (
	"fmt"
	"math"
	"math/big"
	"reflect"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
)

// The service's numbers are wider than CEL's: int is i128 and uint u256
// (amounts in wei routinely exceed 64 bits). Here there is one integer type
// for the checker, `int`; a value that fits 64 bits is CEL's own Int, and a
// larger one is a bigInt. A bigInt never holds a value that fits an int64,
// so Int and bigInt are never equal, and comparisons between them are exact.

// bigInt is an integer outside the int64 range. It holds the number's
// decimal digits rather than a *big.Int so that two bigInts of one value are
// equal Go values: CEL finds a map's keys with Go's ==, and a key held by
// pointer would never be found.
type bigInt struct{ dec string }

// n is the number b holds.
func (b bigInt) n() *big.Int {
	n, _ := new(big.Int).SetString(b.dec, 10)
	return n
}

// numberOf returns the language value of n: an Int when it fits 64 bits.
func numberOf(n *big.Int) ref.Val {
	if n.IsInt64() {
		return types.Int(n.Int64())
	}
	return bigInt{dec: n.String()}
}

// asBig returns v as a big.Int when it is an integer value.
func asBig(v ref.Val) (*big.Int, bool) {
	switch t := v.(type) {
	case bigInt:
		return t.n(), true
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
		return b.n(), nil
	case reflect.TypeFor[string]():
		return b.dec, nil
	}
	if typeDesc.Kind() == reflect.Interface {
		return b.dec, nil
	}
	return nil, fmt.Errorf("the number %s does not fit %v", b.dec, typeDesc)
}

func (b bigInt) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.IntType:
		return b
	case types.StringType:
		return types.String(b.dec)
	case types.DoubleType:
		f, _ := new(big.Float).SetInt(b.n()).Float64()
		return types.Double(f)
	case types.TypeType:
		return types.IntType
	}
	return types.NewErr("cannot convert the number %s to %s", b.dec, t.TypeName())
}

func (b bigInt) Equal(other ref.Val) ref.Val {
	switch o := other.(type) {
	case bigInt:
		return types.Bool(b.dec == o.dec)
	case types.Double:
		f := new(big.Float).SetInt(b.n())
		return types.Bool(!math.IsInf(float64(o), 0) && !math.IsNaN(float64(o)) && f.Cmp(big.NewFloat(float64(o))) == 0)
	}
	if n, ok := asBig(other); ok {
		return types.Bool(b.n().Cmp(n) == 0)
	}
	return types.False
}

func (b bigInt) Type() ref.Type { return types.IntType }

// String is the number's digits, as an error message quotes it.
func (b bigInt) String() string { return b.dec }
func (b bigInt) Value() any     { return b.n() }

// Compare implements traits.Comparer.
func (b bigInt) Compare(other ref.Val) ref.Val { return compareNumbers(b, other) }

// Negate implements traits.Negater.
func (b bigInt) Negate() ref.Val { return numberOf(new(big.Int).Neg(b.n())) }

// Add, Subtract, Multiply, Divide and Modulo implement the arithmetic
// traits. Division and modulo truncate toward zero, as CEL's do on int.
func (b bigInt) Add(other ref.Val) ref.Val      { return arith(b, other, (*big.Int).Add) }
func (b bigInt) Subtract(other ref.Val) ref.Val { return arith(b, other, (*big.Int).Sub) }
func (b bigInt) Multiply(other ref.Val) ref.Val { return arith(b, other, (*big.Int).Mul) }
func (b bigInt) Divide(other ref.Val) ref.Val   { return quotient(b, other, (*big.Int).Quo, "division") }
func (b bigInt) Modulo(other ref.Val) ref.Val   { return quotient(b, other, (*big.Int).Rem, "modulo") }

// quotient is a / b or a % b on integers of any width; op truncates.
func quotient(a, b ref.Val, op func(z, x, y *big.Int) *big.Int, what string) ref.Val {
	x, ok1 := asBig(a)
	y, ok2 := asBig(b)
	if !ok1 || !ok2 {
		return types.NewErr("no %s between %s and %s", what, a.Type().TypeName(), b.Type().TypeName())
	}
	if y.Sign() == 0 {
		return types.NewErr("%s by zero: the right-hand side of %s is 0", what,
			map[string]string{"division": "/", "modulo": "%"}[what])
	}
	return numberOf(op(new(big.Int), x, y))
}

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

// findKey looks key up in m. A number beyond 64 bits is a bigInt and one
// within uint64 a Uint, so a key of one value written either way is found
// under the other too.
func findKey(m traits.Mapper, key ref.Val) (ref.Val, bool) {
	if v, found := m.Find(key); found {
		return v, true
	}
	switch k := key.(type) {
	case bigInt:
		if n := k.n(); n.IsUint64() {
			return m.Find(types.Uint(n.Uint64()))
		}
	case types.Uint:
		if k > math.MaxInt64 {
			return m.Find(numberOf(new(big.Int).SetUint64(uint64(k))))
		}
	}
	return nil, false
}
