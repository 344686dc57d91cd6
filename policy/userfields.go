package policy

import (
	"cel.dev/cel-go/common/ast"
)

// vigilOnlyUserFields are the fields of User that vigil's local service
// reads and the real service's User does not have (features/policies/
// language.mdx, "Struct": id, tags, email and alias), with the documented
// field to write instead. There, the read is an error, so the policy neither
// allows nor denies.
var vigilOnlyUserFields = map[string]string{"name": "alias"}

// consensusWarnings lists, at their position, the reads of a User field the
// real service does not have (vigilOnlyUserFields) in a consensus, and its
// comparisons of a credential's type with a value no credential has
// (credentialTypeWarnings); none when it does not compile (the compile
// errors say what is wrong then).
func consensusWarnings(consensus string) []Diagnostic {
	if consensus == "" {
		return nil
	}
	e, err := loadEnvs()
	if err != nil {
		return nil
	}
	rw, rerrs := rewrite(consensus)
	if len(rerrs) > 0 {
		return nil
	}
	parsed, iss := e.consensus.Parse(rw.text)
	if iss != nil && len(iss.Errors()) > 0 {
		return nil
	}
	checked, iss := e.consensus.Check(parsed)
	if iss != nil && len(iss.Errors()) > 0 {
		return nil
	}
	native := checked.NativeRep()
	at := func(id int64, message string) Diagnostic {
		line, col := nodePosition(native.SourceInfo(), id)
		line, col = rw.originalPosition(consensus, line, col)
		return Diagnostic{Field: FieldConsensus, Line: line, Column: col, Message: message}
	}
	var out []Diagnostic
	ast.PreOrderVisit(native.Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() != ast.SelectKind {
			return
		}
		sel := x.AsSelect()
		instead, ok := vigilOnlyUserFields[sel.FieldName()]
		if !ok || native.GetType(sel.Operand().ID()).TypeName() != typeUser {
			return
		}
		out = append(out, at(x.ID(), "."+sel.FieldName()+": the real service's User has no field "+sel.FieldName()+
			" (only id, tags, email and alias); write ."+instead+" (the user name): as written, reading it is an error there, "+
			"so the policy neither allows nor denies (a deny on it never denies there); vigil's local service reads it"))
	}))
	return append(out, credentialTypeWarnings(native, at)...)
}
