package policy

import (
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"
)

// record is the value of a struct of the schema: its type name and its
// fields as language values. A field the record does not hold reads as the
// zero value of its type, as in the real service ("optional string fields
// evaluate to an empty string"), except struct fields, which are absent.
//
// A record with a non-empty missing stands for a keyword the activity does
// not have (eth.tx on create_policy): reading any of its fields notes the
// keyword in the evaluation's recorder and fails, and has() on it is false.
type record struct {
	typ     string
	fields  map[string]ref.Val
	missing string
	rec     *recorder
}

// recorder collects the keywords an evaluation read that the activity does
// not have. One per activation; Decide resets it before each policy.
type recorder struct{ missing []string }

func (r *recorder) note(keyword string) {
	if !slices.Contains(r.missing, keyword) {
		r.missing = append(r.missing, keyword)
	}
}

func (r *recorder) reset() { r.missing = r.missing[:0] }

// recordVal is a record as a CEL value.
type recordVal struct{ r *record }

func (v recordVal) ConvertToNative(typeDesc reflect.Type) (any, error) {
	return nil, fmt.Errorf("a %s cannot be converted", v.r.typ)
}

func (v recordVal) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return types.NewObjectType(v.r.typ)
	}
	return types.NewErr("a %s cannot be converted to %s", v.r.typ, t.TypeName())
}

func (v recordVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(recordVal)
	return types.Bool(ok && o.r == v.r)
}

func (v recordVal) Type() ref.Type { return types.NewObjectType(v.r.typ) }
func (v recordVal) Value() any     { return v.r }

// Get reads a field of a record the checker sees as dyn (inside
// activity.params, whose values are JSON to it): as a typed read does.
// A Spark record answers the camelCase spelling of a field too (structField).
func (v recordVal) Get(index ref.Val) ref.Val {
	name, ok := index.(types.String)
	field, f, known := structField(v.r.typ, string(name))
	if !ok || !known {
		return types.NewErr("a %s has no field %s (its fields: %s)", v.r.typ, index, strings.Join(schemaNames(v.r.typ), ", "))
	}
	val, err := v.r.get(adapter{base: types.DefaultTypeAdapter}, field, f)
	if err != nil {
		return types.WrapErr(err)
	}
	return val
}

// IsSet is has() on a field of a record the checker sees as dyn.
func (v recordVal) IsSet(field ref.Val) ref.Val {
	name, ok := field.(types.String)
	documented, _, known := structField(v.r.typ, string(name))
	if !ok || !known {
		return types.NewErr("a %s has no field %s", v.r.typ, field)
	}
	return types.Bool(v.r.isSet(documented))
}

// adapter turns the package's Go values into CEL values: records, big
// numbers, and lists and maps whose elements may be either.
type adapter struct{ base types.Adapter }

func (a adapter) NativeToValue(v any) ref.Val {
	switch t := v.(type) {
	case ref.Val:
		return t
	case *record:
		return recordVal{t}
	case *big.Int:
		return numberOf(t)
	case []any:
		return types.NewDynamicList(a, t)
	case map[string]any:
		return ordered(types.NewStringInterfaceMap(a, t))
	}
	return a.base.NativeToValue(v)
}

// provider declares the schema's structs to the checker and reads their
// fields at evaluation time; other types go to CEL's registry.
type provider struct {
	*types.Registry
	structs map[string]structSpec
	adapter adapter
}

func (p *provider) FindStructType(name string) (*types.Type, bool) {
	if _, ok := p.structs[name]; ok {
		return types.NewTypeTypeWithParam(types.NewObjectType(name)), true
	}
	return p.Registry.FindStructType(name)
}

func (p *provider) FindStructFieldNames(name string) ([]string, bool) {
	if s, ok := p.structs[name]; ok {
		return slices.Clone(s.names), true
	}
	return p.Registry.FindStructFieldNames(name)
}

func (p *provider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	s, ok := p.structs[name]
	if !ok {
		return p.Registry.FindStructFieldType(name, field)
	}
	f, ok := s.fields[field]
	if !ok {
		return nil, false
	}
	return &types.FieldType{
		Type: f.typ,
		IsSet: func(target any) bool {
			r, ok := target.(*record)
			return ok && r.isSet(field)
		},
		GetFrom: func(target any) (any, error) {
			r, ok := target.(*record)
			if !ok {
				return nil, fmt.Errorf("no field '%s' on %T", field, target)
			}
			return r.get(p.adapter, field, f)
		},
	}, true
}

// isSet is has(r.field): the record holds the field (a keyword the activity
// lacks holds none).
func (r *record) isSet(field string) bool {
	if r.missing != "" {
		return false
	}
	v, ok := r.fields[field]
	if inner, isRec := v.(recordVal); isRec && inner.r.missing != "" {
		return false
	}
	return ok
}

// get reads r.field, of spec f: its value, or the zero value of its type.
func (r *record) get(ad types.Adapter, field string, f fieldSpec) (ref.Val, error) {
	if r.missing != "" {
		r.rec.note(r.missing)
		return nil, fmt.Errorf("this activity has no %s", r.missing)
	}
	if v, ok := r.fields[field]; ok {
		return v, nil
	}
	return zero(ad, r.typ, field, f)
}

func (p *provider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if _, ok := p.structs[name]; ok {
		return types.NewErr("a %s cannot be created in an expression", name)
	}
	return p.Registry.NewValue(name, fields)
}

// zero is the value of a field a record does not hold.
func zero(ad types.Adapter, structName, field string, f fieldSpec) (ref.Val, error) {
	switch {
	case f.decl == "string":
		return types.String(""), nil
	case f.decl == "int" || f.decl == "uint" || f.decl == "number":
		return types.IntZero, nil
	case f.decl == "bool":
		return types.False, nil
	case strings.HasPrefix(f.decl, "list<"):
		return types.NewRefValList(ad, nil), nil
	case strings.HasPrefix(f.decl, "map<"):
		return ordered(types.NewStringInterfaceMap(ad, map[string]any{})), nil
	case sparkStructs[structName] && f.elemKind == f.decl:
		return recordVal{&record{typ: f.decl, fields: map[string]ref.Val{}}}, nil
	}
	return nil, fmt.Errorf("%s.%s is not set (test it with has())", structName, field)
}

// activation is what one evaluation resolves names against.
type activation struct {
	vars           map[string]any
	rec            *recorder
	absent         map[string]bool   // keywords the activity does not have
	activityFields map[string]string // activity.type, kind, resource, action
	spent          uint64            // CEL cost of the evaluations over it so far
	// stopAt, when not 0, is the spent at which no further expression is
	// run (errNotJudged): what is left of a decision's work budget.
	stopAt uint64
}

func (a *activation) ResolveName(name string) (any, bool) {
	v, ok := a.vars[name]
	if !ok && name == varWallets {
		a.rec.note(varWallets)
	}
	return v, ok
}

func (a *activation) Parent() interpreter.Activation { return nil }
