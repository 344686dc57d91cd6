package policy

import (
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/interpreter"
)

// The real service's language is strongly typed: `==` and `!=` are defined
// between values of one type, and comparing a list with a string is a type
// error there, so the policy does not apply. CEL's checker refuses such a
// comparison between typed values, but activity.params (and the other maps
// of JSON values) are dyn, and at evaluation CEL's heterogeneous equality
// calls a list and a string "not equal": `activity.params.api_key_ids !=
// 'k-admin'` would always hold, and an ALLOW written so would allow what it
// meant to stop. Here, ==, !=, `in` and list contains compare values of one
// kind and are an evaluation error otherwise. Numbers of any width compare
// with each other, and null (a JSON null) compares with anything, equal only
// to null, so `x != null` keeps testing for presence.

// strictEquality is the program decorator that plans ==, != and `in` as
// strictCalls.
func strictEquality(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok || len(call.Args()) != 2 {
		return i, nil
	}
	switch call.Function() {
	case operators.Equals, operators.NotEquals, operators.In:
		return strictCall{call}, nil
	}
	return i, nil
}

// strictCall is ==, != or `in`, evaluated by strictEqual or strictIn.
type strictCall struct {
	interpreter.InterpretableCall
}

// OverloadID is not the wrapped call's: cel-go's optimizer (OptOptimize)
// runs after this decorator and replaces a call whose overload is `in` on a
// constant list with its own hash-set lookup, where a value of another kind
// is simply absent; `!(activity.params.api_key_ids in ['k-admin'])` would
// then hold, and an ALLOW written so would allow.
func (c strictCall) OverloadID() string { return "vigil_strict_" + c.InterpretableCall.OverloadID() }

func (c strictCall) Eval(a interpreter.Activation) ref.Val {
	return interpreter.EvalActivation(a, c.Exec)
}

func (c strictCall) Exec(f *interpreter.ExecutionFrame) ref.Val {
	args := c.Args()
	l := args[0].Exec(f)
	if types.IsUnknownOrError(l) {
		return l
	}
	r := args[1].Exec(f)
	if types.IsUnknownOrError(r) {
		return r
	}
	var res ref.Val
	switch c.Function() {
	case operators.Equals:
		res = strictEqual(l, r)
	case operators.NotEquals:
		res = strictEqual(l, r)
		if b, ok := res.(types.Bool); ok {
			res = !b
		}
	default:
		res = strictIn(l, r)
	}
	if costs := f.CostTracker(); costs != nil {
		costs.EvalBinary(f, c.ID(), c.InterpretableCall, l, r, res)
	}
	return res
}

// kindOf names the kind of a value for equality: every number is "number".
func kindOf(v ref.Val) string {
	switch v.(type) {
	case types.Int, types.Uint, types.Double, bigInt:
		return "number"
	case types.Null:
		return "null"
	case traits.Lister:
		return "list"
	case traits.Mapper:
		return "map"
	}
	return v.Type().TypeName()
}

// shownKind names a value's type in an error: a number by its own type.
func shownKind(v ref.Val) string {
	switch k := kindOf(v); k {
	case "number", "null":
		return v.Type().TypeName()
	default:
		return k
	}
}

// strictEqual is a == b on values of one kind (see the comment above), an
// evaluation error on values of different kinds.
func strictEqual(a, b ref.Val) ref.Val {
	if types.IsUnknownOrError(a) {
		return a
	}
	if types.IsUnknownOrError(b) {
		return b
	}
	ka, kb := kindOf(a), kindOf(b)
	switch {
	case ka == "null" || kb == "null":
		return types.Bool(ka == kb)
	case ka != kb:
		return types.NewErr("cannot compare %s with %s: the policy language is strongly typed, so == and != "+
			"need two values of one type (the real service reports a type error and the policy does not apply); "+
			"compare the field with a value of its own type", kindArticle(shownKind(a)), kindArticle(shownKind(b)))
	case ka == "number":
		if _, ok := b.(bigInt); ok {
			return b.Equal(a)
		}
		return a.Equal(b)
	case ka == "list":
		return listsEqual(a.(traits.Lister), b.(traits.Lister))
	case ka == "map":
		return mapValuesEqual(a.(traits.Mapper), b.(traits.Mapper))
	}
	return a.Equal(b)
}

// listsEqual compares two lists element by element, every shared position,
// so that elements of different kinds are an error even when the lists'
// lengths already tell them apart.
func listsEqual(a, b traits.Lister) ref.Val {
	na, nb := int64(a.Size().(types.Int)), int64(b.Size().(types.Int))
	equal := na == nb
	for i := range min(na, nb) {
		r := strictEqual(a.Get(types.Int(i)), b.Get(types.Int(i)))
		if types.IsUnknownOrError(r) {
			return r
		}
		if r != types.True {
			equal = false
		}
	}
	return types.Bool(equal)
}

// mapValuesEqual compares two maps key by key; a key of another kind than the
// other map's keys is an error, as is a value of another kind.
func mapValuesEqual(a, b traits.Mapper) ref.Val {
	equal := a.Size().Equal(b.Size()) == types.True
	for it := a.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		vb, found := findKey(b, k)
		if !found {
			if err := keyKindError(b, k); err != nil {
				return err
			}
			equal = false
			continue
		}
		va, _ := a.Find(k)
		r := strictEqual(va, vb)
		if types.IsUnknownOrError(r) {
			return r
		}
		if r != types.True {
			equal = false
		}
	}
	return types.Bool(equal)
}

// strictIn is `v in container`: membership in a list by strictEqual, or a
// key of a map.
func strictIn(v, container ref.Val) ref.Val {
	switch c := container.(type) {
	case traits.Mapper:
		if _, found := findKey(c, v); found {
			return types.True
		}
		if err := keyKindError(c, v); err != nil {
			return err
		}
		return types.False
	case traits.Lister:
		return listHas(c, v)
	}
	return types.NewErr("`in` needs a list or a map on its right, not %s", kindArticle(shownKind(container)))
}

// listHas reports whether list holds v, comparing with strictEqual: an
// element of another kind than v is an error, not "absent". Every element
// is compared, also after a match: `'DELETE' in ['DELETE', 1]` is an error
// as `'DELETE' in [1, 'DELETE']` is, whatever the order.
func listHas(list traits.Lister, v ref.Val) ref.Val {
	found := false
	for it := list.Iterator(); it.HasNext() == types.True; {
		r := strictEqual(v, it.Next())
		if types.IsUnknownOrError(r) {
			return r
		}
		if r == types.True {
			found = true
		}
	}
	return types.Bool(found)
}

// keyKindError is the error of looking a key up in a map whose keys are of
// another kind (judged by its first key), or nil.
func keyKindError(m traits.Mapper, key ref.Val) ref.Val {
	it := m.Iterator()
	if it.HasNext() != types.True {
		return nil
	}
	first := it.Next()
	if kindOf(key) == "null" || kindOf(key) == kindOf(first) {
		return nil
	}
	return types.NewErr("cannot look up %s among the keys of a map whose keys are %s values: the policy language "+
		"is strongly typed (the real service reports a type error and the policy does not apply)",
		kindArticle(shownKind(key)), shownKind(first))
}

// kindArticle is a type's name with its article ("a uint", "an int").
func kindArticle(kind string) string {
	if kind == "uint" {
		return "a uint"
	}
	return withArticle(kind)
}
