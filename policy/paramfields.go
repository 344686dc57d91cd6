package policy

import (
	"fmt"
	"maps"
	"strings"

	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
)

// activity.params is a map of JSON values to the checker, so it cannot see
// the documented structs of the struct-typed parameters (the Spark
// packages, documentedParamTypes). paramFields follows their reads itself,
// through indexes, slices and the loop variables of any/all/filter/…, and
// reports a field their struct does not have, with the checker's "did you
// mean" hint: on the real service such a read is a type error. The
// camelCase spelling of a field, as the local service keeps it, is accepted
// (structField).

// fieldProblem is an undefined field at the select expression id.
type fieldProblem struct {
	id  int64
	msg string
}

// paramFields lists the reads of fields the documented struct-typed
// parameters do not have in a parsed or checked expression.
func paramFields(e ast.Expr) []fieldProblem {
	var w fieldWalk
	w.decl(e, map[string]string{})
	return w.out
}

// fieldWalk collects the undefined fields (out) and the fields read in
// their camelCase spelling (camel), which the real service does not know.
type fieldWalk struct{ out, camel []fieldProblem }

// decl walks e and returns its declared type as the schema writes it
// (list<SparkClaimLeaf>, SparkKeyDerivation, string) when it is known to be
// part of a struct-typed parameter, else "". scope holds the loop
// variables in view, with their types ("" for any other).
func (w *fieldWalk) decl(e ast.Expr, scope map[string]string) string {
	switch e.Kind() {
	case ast.IdentKind:
		return scope[e.AsIdent()]
	case ast.SelectKind:
		sel := e.AsSelect()
		operand := w.decl(sel.Operand(), scope)
		if d, ok := w.paramDecl(e, scope); ok {
			return d
		}
		if _, ok := schemaStructs()[operand]; !ok {
			return ""
		}
		if name, f, ok := structField(operand, sel.FieldName()); ok {
			if name != sel.FieldName() {
				w.camel = append(w.camel, fieldProblem{e.ID(), sparkCamelWarning(sel.FieldName(), name)})
			}
			return f.decl // as documented, or in camelCase as submitted
		}
		w.out = append(w.out, fieldProblem{e.ID(), "undefined field '" + sel.FieldName() + "'" + structFieldHint(operand, sel.FieldName())})
		return ""
	case ast.CallKind:
		call := e.AsCall()
		target := ""
		if call.IsMemberFunction() {
			target = w.decl(call.Target(), scope)
		}
		args := make([]string, len(call.Args()))
		for i, a := range call.Args() {
			args[i] = w.decl(a, scope)
		}
		switch call.FunctionName() {
		case fnIndex:
			if d, ok := w.paramDecl(e, scope); ok {
				return d
			}
			if elem, ok := listElem(target); ok {
				return elem
			}
		case fnSlice:
			if _, ok := listElem(target); ok {
				return target
			}
		}
		return ""
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		elem, _ := listElem(w.decl(c.IterRange(), scope))
		w.decl(c.AccuInit(), scope)
		inner := maps.Clone(scope)
		inner[c.AccuVar()] = ""
		inner[c.IterVar()] = elem
		if c.HasIterVar2() {
			inner[c.IterVar2()] = ""
		}
		w.decl(c.LoopCondition(), inner)
		w.decl(c.LoopStep(), inner)
		result := maps.Clone(scope)
		result[c.AccuVar()] = ""
		w.decl(c.Result(), result)
		if elem != "" && isFilter(c) {
			return "list<" + elem + ">"
		}
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.decl(el, scope)
		}
	case ast.MapKind:
		for _, entry := range e.AsMap().Entries() {
			w.decl(entry.AsMapEntry().Key(), scope)
			w.decl(entry.AsMapEntry().Value(), scope)
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			w.decl(f.AsStructField().Value(), scope)
		}
	}
	return ""
}

// paramDecl is the struct type of e when it reads a struct-typed parameter
// (activity.params.claim, activity.params['claim']), with `activity` not a
// loop variable.
func (w *fieldWalk) paramDecl(e ast.Expr, scope map[string]string) (string, bool) {
	if _, shadowed := scope[varActivity]; shadowed {
		return "", false
	}
	name, ok := paramRead(e)
	if !ok {
		return "", false
	}
	d := documentedParamTypes[name]
	if snake := snakeCase(name); d == "" && camelCase(snake) == name {
		d = documentedParamTypes[snake] // lightningReceive, as submitted
	}
	if structOf(d) == "" {
		return "", false
	}
	return d, true
}

// isFilter reports whether c is the filter macro's expansion, whose value
// is a list of elements of its range: its step is `cond ? accu + [v] : accu`
// and its result accu.
func isFilter(c ast.ComprehensionExpr) bool {
	isAccu := func(e ast.Expr) bool { return e.Kind() == ast.IdentKind && e.AsIdent() == c.AccuVar() }
	step := c.LoopStep()
	if !isAccu(c.Result()) || step.Kind() != ast.CallKind || step.AsCall().FunctionName() != operators.Conditional ||
		len(step.AsCall().Args()) != 3 {
		return false
	}
	add := step.AsCall().Args()[1]
	if add.Kind() != ast.CallKind || add.AsCall().FunctionName() != operators.Add || len(add.AsCall().Args()) != 2 {
		return false
	}
	l, r := add.AsCall().Args()[0], add.AsCall().Args()[1]
	if !isAccu(l) || r.Kind() != ast.ListKind || len(r.AsList().Elements()) != 1 {
		return false
	}
	v := r.AsList().Elements()[0]
	return v.Kind() == ast.IdentKind && v.AsIdent() == c.IterVar() && !c.HasIterVar2()
}

// listElem is the element type of a list<T> declaration.
func listElem(decl string) (string, bool) {
	inner, ok := strings.CutPrefix(decl, "list<")
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(inner, ">"), true
}

// structFieldHint suggests a field of struct st for the undefined name, or
// lists st's fields.
func structFieldHint(st, name string) string {
	fields := schemaNames(st)
	if s := suggest(name, fields); s != "" {
		return fmt.Sprintf(" (did you mean '%s'?)", s)
	}
	return fmt.Sprintf(" (%s has: %s)", st, strings.Join(fields, ", "))
}
