package policy

import (
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/ast"
)

// fieldHint is what a compile error about an undefined field adds: the
// struct the field was selected on is st when the text before it is a plain
// path of keywords and fields (wallet.nope), else what selected works out
// from the expression (a loop variable: approvers.any(u, u.nope)), or ""
// when its type cannot be known. It never suggests the name written: a
// name that is a field of other structs (user_id on a User: Credential has
// it) is said to be theirs.
func fieldHint(name, st string, selected func() string) string {
	if st == "" {
		st = selected()
	}
	owners := structsWithField(name)
	if st != "" {
		fields := schemaNames(st)
		if len(owners) > 0 {
			return fmt.Sprintf(" ('%s' is a field of %s, not of %s, which has: %s)", name, orList(owners), st, strings.Join(fields, ", "))
		}
		if s := suggest(name, fields); s != "" && s != name {
			return fmt.Sprintf(" (did you mean '%s'?)", s)
		}
		return fmt.Sprintf(" (%s has: %s)", st, strings.Join(fields, ", "))
	}
	if len(owners) > 0 {
		return fmt.Sprintf(" ('%s' is a field of %s, not of this value)", name, orList(owners))
	}
	if s := suggest(name, allFieldNames()); s != "" && s != name {
		return fmt.Sprintf(" (did you mean '%s'?)", s)
	}
	return ""
}

// structsWithField names the structs that have a field name, sorted.
func structsWithField(name string) []string {
	var out []string
	for st, spec := range schemaStructs() {
		if _, ok := spec.fields[name]; ok {
			out = append(out, st)
		}
	}
	slices.Sort(out)
	return out
}

// orList is "A", "A or B", or "A, B or C" (and "…" beyond four).
func orList(names []string) string {
	if len(names) > 4 {
		names = append(slices.Clone(names[:4]), "…")
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// listKeywordTypes are the element types of the keywords that are lists.
var listKeywordTypes = map[string]string{varApprovers: typeUser, varCredentials: typeCredential, varWallets: typeWallet}

// selectedOn is the struct type of the value a field is selected on at loc
// (the position of the checker's error, in text as CEL parsed it), worked
// out from the parsed expression: keywords, their fields, list indexes and
// the variables of loops over lists of structs. "" when it cannot be known.
func selectedOn(env *cel.Env, text string, loc common.Location) string {
	if loc == nil {
		return ""
	}
	parsed, iss := env.Parse(text)
	if iss != nil && len(iss.Errors()) > 0 {
		return ""
	}
	info := parsed.NativeRep().SourceInfo()
	found := ""
	var walk func(e ast.Expr, scope map[string]string)
	walk = func(e ast.Expr, scope map[string]string) {
		switch e.Kind() {
		case ast.SelectKind:
			sel := e.AsSelect()
			if at := info.GetStartLocation(e.ID()); at.Line() == loc.Line() && at.Column() == loc.Column() {
				if st, list := typeOf(sel.Operand(), scope); !list {
					found = st
				}
			}
			walk(sel.Operand(), scope)
		case ast.CallKind:
			call := e.AsCall()
			if call.IsMemberFunction() {
				walk(call.Target(), scope)
			}
			for _, a := range call.Args() {
				walk(a, scope)
			}
		case ast.ListKind:
			for _, el := range e.AsList().Elements() {
				walk(el, scope)
			}
		case ast.MapKind:
			for _, en := range e.AsMap().Entries() {
				walk(en.AsMapEntry().Key(), scope)
				walk(en.AsMapEntry().Value(), scope)
			}
		case ast.ComprehensionKind:
			c := e.AsComprehension()
			walk(c.IterRange(), scope)
			walk(c.AccuInit(), scope)
			inner := make(map[string]string, len(scope)+1)
			for k, v := range scope {
				inner[k] = v
			}
			inner[c.IterVar()] = ""
			if st, list := typeOf(c.IterRange(), scope); list {
				inner[c.IterVar()] = st
			}
			walk(c.LoopCondition(), inner)
			walk(c.LoopStep(), inner)
			walk(c.Result(), scope)
		}
	}
	walk(parsed.NativeRep().Expr(), map[string]string{})
	return found
}

// typeOf is the struct type of a plain path (a keyword or loop variable,
// then fields and list indexes), and whether it is a list of that struct;
// "" when the path is not one or holds no struct.
func typeOf(e ast.Expr, scope map[string]string) (st string, list bool) {
	switch e.Kind() {
	case ast.IdentKind:
		name := e.AsIdent()
		if st, ok := scope[name]; ok {
			return st, false
		}
		if st, ok := keywordTypes[name]; ok {
			return st, false
		}
		return listKeywordTypes[name], true
	case ast.SelectKind:
		sel := e.AsSelect()
		base, isList := typeOf(sel.Operand(), scope)
		if base == "" || isList || sel.IsTestOnly() {
			return "", false
		}
		spec, ok := schemaStructs()[base].fields[sel.FieldName()]
		if !ok {
			return "", false
		}
		if elem, ok := strings.CutPrefix(spec.elemKind, "list:"); ok {
			return elem, true
		}
		return spec.elemKind, false
	case ast.CallKind:
		call := e.AsCall()
		if call.FunctionName() == fnIndex && call.IsMemberFunction() {
			if base, isList := typeOf(call.Target(), scope); isList {
				return base, false
			}
		}
	}
	return "", false
}
