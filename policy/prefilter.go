package policy

import (
	"slices"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
)

// A condition is often decided before CEL runs, which keeps an organization
// of a hundred policies cheap to evaluate:
//
//   - it does not apply when it reads, outside a loop body and outside has(),
//     a keyword the activity lacks (the real service evaluates every clause,
//     so such a read always happens there);
//   - it is false when one of its top-level `&&` clauses compares
//     activity.type, kind, resource or action with strings the activity's
//     value is not among.
//
// Keywords read inside loop bodies are still noticed when the body runs.

// prefilter is what a condition's text says about the activities it can
// apply to.
type prefilter struct {
	requires []string // keywords read outside loop bodies and has(): eth.tx, wallet, …
	match    []activityMatch
}

// activityMatch is a top-level clause `activity.<field> == 'v'` or
// `activity.<field> in ['v', …]`.
type activityMatch struct {
	field  string
	values []string
}

var targetKeywords = []string{varWallet, varWallets, varPrivateKey, varWalletAccount, varSecret}

func newPrefilter(checked *cel.Ast) prefilter {
	var p prefilter
	if checked == nil {
		return p
	}
	root := checked.NativeRep().Expr()
	p.collectRequires(root, false)
	for _, clause := range conjuncts(root) {
		if m, ok := activityClause(clause); ok {
			p.match = append(p.match, m)
		}
	}
	return p
}

func (p *prefilter) require(k string) {
	if !slices.Contains(p.requires, k) {
		p.requires = append(p.requires, k)
	}
}

// collectRequires walks the expression; inLoop is true inside a
// comprehension's body, where a read depends on the data.
func (p *prefilter) collectRequires(e ast.Expr, inLoop bool) {
	switch e.Kind() {
	case ast.IdentKind:
		if name := e.AsIdent(); !inLoop && slices.Contains(targetKeywords, name) {
			p.require(name)
		}
	case ast.SelectKind:
		sel := e.AsSelect()
		if sel.IsTestOnly() {
			return // has(): a presence test reads nothing
		}
		if op := sel.Operand(); op.Kind() == ast.IdentKind {
			if _, isRoot := rootTypes[op.AsIdent()]; isRoot {
				if !inLoop {
					p.require(op.AsIdent() + "." + sel.FieldName())
				}
				return
			}
		}
		p.collectRequires(sel.Operand(), inLoop)
	case ast.CallKind:
		call := e.AsCall()
		if call.IsMemberFunction() {
			p.collectRequires(call.Target(), inLoop)
		}
		for _, a := range call.Args() {
			p.collectRequires(a, inLoop)
		}
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			p.collectRequires(el, inLoop)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			p.collectRequires(en.AsMapEntry().Key(), inLoop)
			p.collectRequires(en.AsMapEntry().Value(), inLoop)
		}
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		p.collectRequires(c.IterRange(), inLoop)
		p.collectRequires(c.AccuInit(), inLoop)
		p.collectRequires(c.LoopCondition(), true)
		p.collectRequires(c.LoopStep(), true)
		p.collectRequires(c.Result(), inLoop)
	}
}

// conjuncts flattens top-level `&&`.
func conjuncts(e ast.Expr) []ast.Expr {
	if e.Kind() == ast.CallKind && e.AsCall().FunctionName() == operators.LogicalAnd {
		var out []ast.Expr
		for _, a := range e.AsCall().Args() {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	return []ast.Expr{e}
}

// activityClause recognizes `activity.F == 'v'`, `'v' == activity.F` and
// `activity.F in ['v', …]` for F in type, kind, resource, action.
func activityClause(e ast.Expr) (activityMatch, bool) {
	if e.Kind() != ast.CallKind {
		return activityMatch{}, false
	}
	call := e.AsCall()
	args := call.Args()
	if len(args) != 2 {
		return activityMatch{}, false
	}
	switch call.FunctionName() {
	case operators.Equals:
		if f, ok := activityField(args[0]); ok {
			if v, ok := stringLiteral(args[1]); ok {
				return activityMatch{field: f, values: []string{v}}, true
			}
		}
		if f, ok := activityField(args[1]); ok {
			if v, ok := stringLiteral(args[0]); ok {
				return activityMatch{field: f, values: []string{v}}, true
			}
		}
	case operators.In:
		f, ok := activityField(args[0])
		if !ok || args[1].Kind() != ast.ListKind {
			return activityMatch{}, false
		}
		m := activityMatch{field: f}
		for _, el := range args[1].AsList().Elements() {
			v, ok := stringLiteral(el)
			if !ok {
				return activityMatch{}, false
			}
			m.values = append(m.values, v)
		}
		return m, true
	}
	return activityMatch{}, false
}

func activityField(e ast.Expr) (string, bool) {
	if e.Kind() != ast.SelectKind || e.AsSelect().IsTestOnly() {
		return "", false
	}
	sel := e.AsSelect()
	op := sel.Operand()
	if op.Kind() != ast.IdentKind || op.AsIdent() != varActivity {
		return "", false
	}
	switch f := sel.FieldName(); f {
	case "type", "kind", "resource", "action":
		return f, true
	}
	return "", false
}

func stringLiteral(e ast.Expr) (string, bool) {
	if e.Kind() != ast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}

// decide returns the condition's result when the prefilter settles it:
// missing keywords (the condition does not apply), or false.
func (p prefilter) decide(act *activation) (missing []string, settled bool) {
	for _, k := range p.requires {
		if act.absent[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return missing, true
	}
	for _, m := range p.match {
		if !slices.Contains(m.values, act.activityFields[m.field]) {
			return nil, true
		}
	}
	return nil, false
}

// readsCredentialIdentity reports whether an expression reads `credentials`
// and selects a field id, type or credential_id anywhere. Fields are
// selected through loop variables (`credentials.any(c, c.id == …)`), so
// any such field counts: the answer errs towards yes.
func readsCredentialIdentity(checked *cel.Ast) bool {
	if checked == nil {
		return false
	}
	var credentials, identity bool
	ast.MatchDescendants(ast.NavigateAST(checked.NativeRep()), func(e ast.NavigableExpr) bool {
		switch e.Kind() {
		case ast.IdentKind:
			credentials = credentials || e.AsIdent() == varCredentials
		case ast.SelectKind:
			switch e.AsSelect().FieldName() {
			case "id", "type", "credential_id":
				identity = true
			}
		}
		return false
	})
	return credentials && identity
}
