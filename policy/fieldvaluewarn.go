package policy

import (
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/common/ast"
)

// documentedFieldValues are the transaction fields the real service's docs
// (features/policies/language.mdx, "Struct") give a closed set of values,
// by struct and field: a comparison with another value never matches.
// TronContract's type is left out: the docs point to Tron's own list.
var documentedFieldValues = map[string]map[string][]string{
	"EthereumTransaction": {"type": {"LEGACY", "TYPE_1", "TYPE_2", "TYPE_3", "TYPE_4"}},
	"TronContract":        {"resource": {"ENERGY", "BANDWIDTH"}},
	"TronPermission":      {"type": {"Owner", "Witness", "Active"}},
	"BitcoinTxLocktime":   {"type": {"Seconds", "Blocks"}},
}

// fieldValueWarningsOf lists, at their position, the string literals a
// condition compares (==, != or in, either side, anywhere) with a field of
// documentedFieldValues that the docs never give it; none when the
// condition does not type-check. The empty string is left alone: what a
// field the transaction lacks reads as is not documented.
func fieldValueWarningsOf(c *conditionParse) []Diagnostic {
	w, ok := c.walk(true)
	if !ok {
		return nil
	}
	// The field is named "Struct.field", so known can find its values.
	fieldOf := func(e ast.Expr) (string, bool) {
		if e.Kind() != ast.SelectKind || e.AsSelect().IsTestOnly() {
			return "", false
		}
		sel := e.AsSelect()
		structName := w.native.GetType(sel.Operand().ID()).TypeName()
		if _, ok := documentedFieldValues[structName][sel.FieldName()]; !ok {
			return "", false
		}
		return structName + "." + sel.FieldName(), true
	}
	known := func(field, v string) bool { return v == "" || slices.Contains(documentedValues(field), v) }
	var out []Diagnostic
	for _, d := range deadComparisons(w.native.Expr(), fieldOf, known) {
		structName, name, _ := strings.Cut(d.field, ".")
		subject := fmt.Sprintf("a%s %s's %s", article(structName), structName, name)
		out = append(out, w.at(d.lit.ID(), neverWarning(subject, d.value, d.reads, d.partly, fieldValueHint(d.field, d.value))))
	}
	return out
}

func documentedValues(field string) []string {
	structName, name, _ := strings.Cut(field, ".")
	return documentedFieldValues[structName][name]
}

func article(noun string) string {
	if strings.ContainsRune("AEIOU", rune(noun[0])) {
		return "n"
	}
	return ""
}

// fieldValueHint names the value v likely stands for: the one it spells but
// for case and underscores ('type2' for 'TYPE_2'); else every value.
func fieldValueHint(field, v string) string {
	values := documentedValues(field)
	squash := func(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "_", "")) }
	for _, k := range values {
		if squash(k) == squash(v) {
			return fmt.Sprintf("did you mean '%s'?", k)
		}
	}
	return fmt.Sprintf("the docs give '%s'", strings.Join(values, "', '"))
}
