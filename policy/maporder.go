package policy

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"sync"

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
//
// Ordering must not cost work the budget does not see: a map's keys are
// sorted once per map value (not at every quantifier that starts over it), a
// map literal of constants is built and sorted once when the program is
// built, and a map literal built at each evaluation is charged its entries
// and its sort (chargeBuild).

// orderedMap is a CEL map whose keys are iterated sorted.
type orderedMap struct {
	traits.Mapper
	keys *sortedKeys // shared by the copies of one map value
}

// sortedKeys are a map's keys in order, sorted at the first iteration. A
// folded map literal is shared by concurrent evaluations, hence the Once.
type sortedKeys struct {
	once sync.Once
	keys []ref.Val
}

// ordered wraps a CEL map value; anything else is returned as it is.
func ordered(v ref.Val) ref.Val {
	switch m := v.(type) {
	case orderedMap:
		return m
	case traits.Mapper:
		return orderedMap{Mapper: m, keys: &sortedKeys{}}
	}
	return v
}

// sorted is the map's keys in order, sorted once.
func (m orderedMap) sorted() []ref.Val {
	m.keys.once.Do(func() {
		for it := m.Mapper.Iterator(); it.HasNext() == types.True; {
			m.keys.keys = append(m.keys.keys, it.Next())
		}
		slices.SortFunc(m.keys.keys, compareKeys)
	})
	return m.keys.keys
}

func (m orderedMap) Iterator() traits.Iterator {
	return &keyIterator{Val: types.NullValue, keys: m.sorted()}
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
// an expression orderedMaps. CEL applies custom decorators before its own
// constant folding (OptOptimize), which then no longer recognizes a map
// literal, so a literal of constants is folded here: built and sorted once.
func orderMapLiterals(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch n := i.(type) {
	case interpreter.InterpretableConst:
		if _, ok := n.Value().(traits.Mapper); ok {
			return newOrderedConst(i, n.Value()), nil
		}
	case interpreter.InterpretableConstructor:
		if n.Type() != types.MapType {
			return i, nil
		}
		if v, ok := foldMap(n); ok {
			return newOrderedConst(i, v), nil
		}
		return orderedConstructor{n}, nil
	}
	return i, nil
}

// foldMap builds a map literal whose keys and values are all constants; ok
// is false for any other, and for one whose building fails (a repeated
// key): that error is left to each evaluation to report.
func foldMap(n interpreter.InterpretableConstructor) (ref.Val, bool) {
	for _, init := range n.InitVals() {
		if _, ok := init.(interpreter.InterpretableConst); !ok {
			return nil, false
		}
	}
	frame, err := interpreter.NewExecutionFrame(interpreter.EmptyActivation())
	if err != nil {
		return nil, false
	}
	defer frame.Close()
	v := n.Exec(frame)
	if _, ok := v.(traits.Mapper); !ok {
		return nil, false
	}
	return v, true
}

// newOrderedConst is the constant map v, ordered and already sorted.
func newOrderedConst(i interpreter.InterpretableV2, v ref.Val) orderedConst {
	m := ordered(v)
	if om, ok := m.(orderedMap); ok {
		om.sorted()
	}
	return orderedConst{InterpretableV2: i, value: m}
}

// orderedConst is a folded map literal, ordered.
type orderedConst struct {
	interpreter.InterpretableV2
	value ref.Val
}

func (c orderedConst) Value() ref.Val                           { return c.value }
func (c orderedConst) Eval(interpreter.Activation) ref.Val      { return c.value }
func (c orderedConst) Exec(*interpreter.ExecutionFrame) ref.Val { return c.value }

// orderedConstructor builds a map literal, ordered, at each evaluation.
type orderedConstructor struct {
	interpreter.InterpretableConstructor
}

func (c orderedConstructor) Eval(a interpreter.Activation) ref.Val {
	return interpreter.EvalActivation(a, c.Exec)
}

func (c orderedConstructor) Exec(f *interpreter.ExecutionFrame) ref.Val {
	v := ordered(c.InterpretableConstructor.Exec(f))
	if m, ok := v.(orderedMap); ok {
		chargeBuild(f, m)
	}
	return v
}

// chargeBuild sorts a map just built and charges its building and sorting,
// n + n·⌈log₂ n⌉ units for n entries, to the evaluation's cost tracker
// (where CEL charges a map literal a flat 30 units whatever its size): the
// budget then bounds a loop that rebuilds a large literal.
func chargeBuild(f *interpreter.ExecutionFrame, m orderedMap) {
	n := uint64(len(m.sorted()))
	if n < 2 {
		return
	}
	chargeWork(f, n+n*uint64(bits.Len64(n-1)))
}
