package policy

import (
	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/parser"
)

// An expression names wallets, keys, accounts and policies by id as well as
// tags and users (wallet.id in ['…'], credentials.any(c, c.id == '…')): an
// id there that is no tag or user is right, and warning of it taught
// readers to skip the warning that matters, a mistyped tag in a consensus.
// So an id-shaped literal that names nothing known is judged only where a
// tag or user id is expected: compared with a user's id or tags, a
// credential's user_id, or activity.params.user_id / user_ids.

// What an expression holds, as far as tag and user ids go; a list kind is
// listOf its elements'.
const (
	kindUser   = "user"
	kindCred   = "credential"
	kindUserID = "user id"
	kindTagID  = "tag id"
	listOf     = "list of "
)

// idParams are the activity parameters that hold user ids, both spellings
// (the local service exposes camelCase too).
var idParams = map[string]string{
	"user_id": kindUserID, "userId": kindUserID,
	"user_ids": listOf + kindUserID, "userIds": listOf + kindUserID,
}

// macroCalls bind their first argument to each element of their target.
var macroCalls = map[string]bool{"any": true, "all": true, "exists": true, "exists_one": true, "filter": true, "map": true}

// idPositions is the set of string literal values that src compares with a
// tag or user id, and whether src could be read at all (when not, every
// literal is to be judged: what it is compared with is unknown).
func idPositions(src string) (map[string]bool, bool) {
	rw, errs := rewrite(src)
	if len(errs) > 0 {
		return nil, false
	}
	p, err := parser.NewParser() // no macros: any(v, p) stays a call, its variable in sight
	if err != nil {
		return nil, false
	}
	parsed, iss := p.Parse(common.NewTextSource(rw.text))
	if iss != nil && len(iss.GetErrors()) > 0 {
		return nil, false
	}
	w := idWalk{judged: map[string]bool{}}
	w.walk(parsed.Expr(), nil)
	return w.judged, true
}

type idWalk struct{ judged map[string]bool }

// scope is the macro variables in sight, innermost last.
type scope []struct{ name, kind string }

func (s scope) kindOf(name string) (string, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].name == name {
			return s[i].kind, true
		}
	}
	return "", false
}

func (s scope) with(name, kind string) scope {
	return append(s[:len(s):len(s)], struct{ name, kind string }{name, kind})
}

func isIDKind(k string) bool { return k == kindUserID || k == kindTagID }

func elemKind(k string) string {
	if len(k) > len(listOf) && k[:len(listOf)] == listOf {
		return k[len(listOf):]
	}
	return ""
}

// kind is what e holds, "" when it is nothing this file follows.
func (w *idWalk) kind(e ast.Expr, s scope) string {
	switch e.Kind() {
	case ast.IdentKind:
		name := e.AsIdent()
		if k, ok := s.kindOf(name); ok {
			return k
		}
		switch name {
		case varApprovers:
			return listOf + kindUser
		case varCredentials:
			return listOf + kindCred
		}
	case ast.SelectKind:
		sel := e.AsSelect()
		if sel.IsTestOnly() {
			return ""
		}
		return fieldKind(w.kind(sel.Operand(), s), isParams(sel.Operand(), s), sel.FieldName())
	case ast.CallKind:
		call := e.AsCall()
		if !call.IsMemberFunction() {
			return ""
		}
		target, args := call.Target(), call.Args()
		switch call.FunctionName() {
		case fnIndex:
			if len(args) == 1 && isParams(target, s) {
				if name, ok := stringLiteral(args[0]); ok {
					return idParams[name]
				}
			}
			return elemKind(w.kind(target, s))
		case fnSlice, "filter":
			return w.kind(target, s)
		case "map":
			if len(args) == 2 && args[0].Kind() == ast.IdentKind {
				elem := elemKind(w.kind(target, s))
				if k := w.kind(args[1], s.with(args[0].AsIdent(), elem)); k != "" {
					return listOf + k
				}
			}
		}
	}
	return ""
}

// fieldKind is what field of a value of kind holds (params: the value is
// activity.params).
func fieldKind(kind string, params bool, field string) string {
	switch {
	case params:
		return idParams[field]
	case kind == kindUser && field == "id":
		return kindUserID
	case kind == kindUser && field == "tags":
		return listOf + kindTagID
	case kind == kindCred && field == "user_id":
		return kindUserID
	}
	return ""
}

// isParams reports whether e is activity.params (activity not shadowed).
func isParams(e ast.Expr, s scope) bool {
	if e.Kind() != ast.SelectKind || e.AsSelect().FieldName() != "params" {
		return false
	}
	op := e.AsSelect().Operand()
	if op.Kind() != ast.IdentKind || op.AsIdent() != varActivity {
		return false
	}
	_, shadowed := s.kindOf(varActivity)
	return !shadowed
}

// judge marks e, when it is a string literal, or each string literal of e
// when it is a list, as compared with an id of kind.
func (w *idWalk) judge(e ast.Expr, kind string) {
	if !isIDKind(kind) {
		return
	}
	if v, ok := stringLiteral(e); ok {
		w.judged[v] = true
	}
}

func (w *idWalk) judgeEach(list ast.Expr, kind string) {
	if list.Kind() != ast.ListKind {
		return
	}
	for _, el := range list.AsList().Elements() {
		w.judge(el, kind)
	}
}

// walk marks the literals compared with a tag or user id in e and below.
func (w *idWalk) walk(e ast.Expr, s scope) {
	switch e.Kind() {
	case ast.SelectKind:
		w.walk(e.AsSelect().Operand(), s)
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.walk(el, s)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			w.walk(en.AsMapEntry().Key(), s)
			w.walk(en.AsMapEntry().Value(), s)
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			w.walk(f.AsStructField().Value(), s)
		}
	case ast.CallKind:
		w.call(e.AsCall(), s)
	}
}

func (w *idWalk) call(call ast.CallExpr, s scope) {
	args := call.Args()
	switch fn := call.FunctionName(); {
	case (fn == operators.Equals || fn == operators.NotEquals) && len(args) == 2:
		w.judge(args[1], w.kind(args[0], s))
		w.judge(args[0], w.kind(args[1], s))
	case fn == operators.In && len(args) == 2:
		w.judgeEach(args[1], w.kind(args[0], s))
		w.judge(args[0], elemKind(w.kind(args[1], s)))
	case fn == "contains" && call.IsMemberFunction() && len(args) == 1:
		w.judge(args[0], elemKind(w.kind(call.Target(), s)))
		w.judgeEach(call.Target(), w.kind(args[0], s))
	case macroCalls[fn] && call.IsMemberFunction() && len(args) == 2 && args[0].Kind() == ast.IdentKind:
		w.walk(call.Target(), s)
		w.walk(args[1], s.with(args[0].AsIdent(), elemKind(w.kind(call.Target(), s))))
		return
	}
	if call.IsMemberFunction() {
		w.walk(call.Target(), s)
	}
	for _, a := range args {
		w.walk(a, s)
	}
}
