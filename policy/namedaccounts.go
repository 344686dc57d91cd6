package policy

import (
	"fmt"

	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
)

// The real service's docs (tkhq/docs c8289df2) spell one field of
// SolanaParsedInstructionData two ways: named_accounts in
// features/policies/language.mdx's prose and in smart-contract-interfaces.mdx
// ("Policy formats"), named_account in language.mdx's nested-struct table.
// Which one the service reads is unknown, so vigil accepts both, reads both
// from the same map (a deny on either denies alike), and warns.

const (
	typeSolanaParsed   = "SolanaParsedInstructionData"
	namedAccountTable  = "named_account"
	namedAccountsProse = "named_accounts"
)

// otherNamedAccounts is the other spelling of a named-accounts field.
func otherNamedAccounts(name string) (string, bool) {
	switch name {
	case namedAccountTable:
		return namedAccountsProse, true
	case namedAccountsProse:
		return namedAccountTable, true
	}
	return "", false
}

// fillNamedAccounts makes both spellings of a parsed instruction's named
// accounts read the payload's one map. A payload giving both with different
// maps is refused: a policy's decision would then depend on its spelling.
func fillNamedAccounts(r *record, path string) error {
	a, hasA := r.fields[namedAccountTable]
	b, hasB := r.fields[namedAccountsProse]
	switch {
	case hasA && hasB:
		if a.Equal(b) != types.True {
			return fmt.Errorf("%s: %s and %s differ: they are two spellings of one field; give one of them", path, namedAccountTable, namedAccountsProse)
		}
	case hasA:
		r.fields[namedAccountsProse] = a
	case hasB:
		r.fields[namedAccountTable] = b
	}
	return nil
}

// namedAccountsWarning says what reading the named accounts in spelling
// name may do on the real service.
func namedAccountsWarning(name string) string {
	other, _ := otherNamedAccounts(name)
	return fmt.Sprintf("%s: the real service's docs spell this field two ways, %s and %s; "+
		"the service may accept only %s: then reading %s there is an error, so the policy never applies "+
		"(a deny on it never denies there); vigil reads both spellings as the same map",
		name, namedAccountTable, namedAccountsProse, other, name)
}

// namedAccountsWarnings lists the reads of a parsed instruction's named
// accounts in a condition, at their position; none when it does not compile.
func namedAccountsWarnings(condition string) []Diagnostic {
	return namedAccountsWarningsOf(parseCondition(condition))
}

// namedAccountsWarningsOf is namedAccountsWarnings of a condition parsed for
// several warnings.
func namedAccountsWarningsOf(c *conditionParse) []Diagnostic {
	w, ok := c.walk(true)
	if !ok {
		return nil
	}
	native := w.native
	var out []Diagnostic
	ast.PostOrderVisit(native.Expr(), ast.NewExprVisitor(func(x ast.Expr) {
		if x.Kind() != ast.SelectKind {
			return
		}
		sel := x.AsSelect()
		if _, ok := otherNamedAccounts(sel.FieldName()); !ok || native.GetType(sel.Operand().ID()).TypeName() != typeSolanaParsed {
			return
		}
		out = append(out, w.at(x.ID(), namedAccountsWarning(sel.FieldName())))
	}))
	return out
}
