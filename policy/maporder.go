package policy

import (
	"cmp"
	"fmt"
	"slices"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/interpreter"
)

// A quantifier over a map (exists, all, exists_one) stops at its first
// answer, and CEL visits a map's keys in Go's map order, which differs from
// run to run: the work charged, and with it where a decision's budget cuts
// it (DecideBudget), would differ between identical decisions. Every map an
// expression sees is therefore one whose keys are visited in a fixed order:
// the activity's maps through the adapter, map literals through the
// program's decorator.

// orderedMap is a CEL map whose keys are iterated sorted.
type orderedMap struct{ traits.Mapper }

// ordered wraps a CEL map value; anything else is returned as it is.
func ordered(v ref.Val) ref.Val {
	switch m := v.(type) {
	case orderedMap:
		return m
	case traits.Mapper:
		return orderedMap{m}
	}
	return v
}

func (m orderedMap) Iterator() traits.Iterator {
	var keys []ref.Val
	for it := m.Mapper.Iterator(); it.HasNext() == types.True; {
		keys = append(keys, it.Next())
	}
	slices.SortFunc(keys, compareKeys)
	return &keyIterator{Val: types.NullValue, keys: keys}
}

// compareKeys orders map keys (bool, int, uint or string in CEL) by type,
// then value.
func compareKeys(a, b ref.Val) int {
	if c := cmp.Compare(a.Type().TypeName(), b.Type().TypeName()); c != 0 {
		return c
	}
	if ca, ok := a.(traits.Comparer); ok {
		if c, ok := ca.Compare(b).(types.Int); ok {
			return int(c)
		}
	}
	return cmp.Compare(fmt.Sprint(a.Value()), fmt.Sprint(b.Value()))
}

// keyIterator yields keys in order. Its own value is never read: CEL only
// calls HasNext and Next on an iterator.
type keyIterator struct {
	ref.Val
	keys []ref.Val
	next int
}

func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.next < len(it.keys)) }

func (it *keyIterator) Next() ref.Val {
	if it.next >= len(it.keys) {
		return types.NewErr("no more keys")
	}
	k := it.keys[it.next]
	it.next++
	return k
}

// orderMapLiterals is the program decorator that makes the maps written in
// an expression orderedMaps: those built at each evaluation and those CEL's
// optimizer folded into constants.
func orderMapLiterals(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch n := i.(type) {
	case interpreter.InterpretableConst:
		if _, ok := n.Value().(traits.Mapper); ok {
			return orderedConst{InterpretableV2: i, value: ordered(n.Value())}, nil
		}
	case interpreter.InterpretableConstructor:
		if n.Type() == types.MapType {
			return orderedConstructor{n}, nil
		}
	}
	return i, nil
}

// orderedConst is a folded map literal, ordered.
type orderedConst struct {
	interpreter.InterpretableV2
	value ref.Val
}

func (c orderedConst) Value() ref.Val                           { return c.value }
func (c orderedConst) Eval(interpreter.Activation) ref.Val      { return c.value }
func (c orderedConst) Exec(*interpreter.ExecutionFrame) ref.Val { return c.value }

// orderedConstructor builds a map literal, ordered.
type orderedConstructor struct {
	interpreter.InterpretableConstructor
}

func (c orderedConstructor) Eval(a interpreter.Activation) ref.Val {
	return ordered(c.InterpretableConstructor.Eval(a))
}

func (c orderedConstructor) Exec(f *interpreter.ExecutionFrame) ref.Val {
	return ordered(c.InterpretableConstructor.Exec(f))
}
