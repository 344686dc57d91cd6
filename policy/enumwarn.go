package policy

import (
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
)

// activity.type, kind, resource and action hold values from fixed tables
// (the real service's docs, and this service's own types), compared exactly:
// `activity.action == 'delete'` compiles, yet no activity ever matches it, so
// a deny written so never denies. enumWarnings says so. It warns rather than
// refuses: a newer service may add values.

// activityValues is, per field, every value an activity of a known type
// has, computed by the functions the engine computes them with (KindOf,
// ResourceAction), so whatever the engine gives is never warned of: an
// empty kind (root quorum types) and an empty resource and action (types
// the docs' table omits, the secrets and Spark ones) included; and every
// resource and action the docs call valid, which the real service's
// activities have although its table gives them to no type.
var activityValues = func() map[string]map[string]bool {
	out := map[string]map[string]bool{"type": {}, "kind": {}, "resource": {}, "action": {}}
	for _, typ := range knownActivityTypes() {
		a := ActivityFor(typ, nil)
		out["type"][a.Type] = true
		out["kind"][a.Kind] = true
		out["resource"][a.Resource] = true
		out["action"][a.Action] = true
	}
	for _, r := range documentedResources {
		out["resource"][r] = true
	}
	for _, a := range documentedActions {
		out["action"][a] = true
	}
	return out
}()

// resourceAliases are names a reader may take for a resource, with the
// resource the tables give those activities.
var resourceAliases = map[string]string{
	"API_KEY": ResourceCredential, "API_KEYS": ResourceCredential,
	"AUTHENTICATOR": ResourceCredential, "AUTHENTICATORS": ResourceCredential,
	"WALLET_ACCOUNT": ResourceWallet, "WALLET_ACCOUNTS": ResourceWallet,
	"ORG": ResourceOrganization, "SUB_ORGANIZATION": ResourceOrganization,
	"USER_TAG": ResourceUser, "USER_TAGS": ResourceUser,
	"PRIVATE_KEY_TAG": "PRIVATE_KEY", "PRIVATE_KEY_TAGS": "PRIVATE_KEY",
	"POLICIES": ResourcePolicy, "INVITATIONS": ResourceInvitation,
}

// knownActivityValue reports whether field can hold v: a type is known also
// in a version the tables do not list, when its kind is (ResourceAction).
func knownActivityValue(field, v string) bool {
	if activityValues[field][v] {
		return true
	}
	if field == "type" {
		_, _, ok := ResourceAction(v)
		return ok
	}
	return false
}

// enumWarnings lists, at their position, the string literals a condition
// compares with activity.type, kind, resource or action (==, != or in, either
// side, anywhere in it) that the tables never give that field; none when it
// does not parse.
func enumWarnings(condition string) []Diagnostic {
	return enumWarningsOf(parseCondition(condition))
}

// enumWarningsOf is enumWarnings of a condition parsed for several warnings.
func enumWarningsOf(c *conditionParse) []Diagnostic {
	w, ok := c.walk(false)
	if !ok {
		return nil
	}
	var out []Diagnostic
	for _, d := range deadComparisons(w.native.Expr(), activityField, knownActivityValue) {
		out = append(out, w.at(d.lit.ID(), enumWarning(d.field, d.value, d.reads, d.partly)))
	}
	return out
}

// deadComparison is a string literal compared with a field that never holds
// it: how the comparison reads where it stands (comparedNever…) and whether
// it is one element of an `in` list whose others may still match.
type deadComparison struct {
	lit          ast.Expr
	field, value string
	reads        string
	partly       bool
}

// deadComparisons lists the string literals e compares (==, != or in, either
// side, anywhere in it) with a field fieldOf names that known says the field
// never holds, once per field, value and reading.
func deadComparisons(e ast.Expr, fieldOf func(ast.Expr) (string, bool), known func(field, v string) bool) []deadComparison {
	var out []deadComparison
	seen := map[string]bool{}
	plain := plainComparisons(e)
	ast.PreOrderVisit(e, ast.NewExprVisitor(func(x ast.Expr) {
		field, negated, lits := stringComparison(x, fieldOf)
		var dead []ast.Expr
		for _, lit := range lits {
			if v, _ := stringLiteral(lit); !known(field, v) {
				dead = append(dead, lit)
			}
		}
		reads := comparedUntold
		if plain[x.ID()] {
			reads = reading(true, negated)
		}
		// One dead element of an `in` list leaves the others matching.
		inList := x.Kind() == ast.CallKind && x.AsCall().FunctionName() == operators.In
		partly := inList && len(dead) < len(x.AsCall().Args()[1].AsList().Elements())
		for _, lit := range dead {
			v, _ := stringLiteral(lit)
			key := fmt.Sprint(field, negated, v, reads, partly)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, deadComparison{lit: lit, field: field, value: v, reads: reads, partly: partly})
		}
	}))
	return out
}

// plainComparisons are the ids of the expressions of e whose truth counts
// toward the whole as is: e itself and the operands of && and ||, as
// idWalk's plain. Under a `!`, a ternary or a call, what a comparison
// does to the whole is not followed.
func plainComparisons(e ast.Expr) map[int64]bool {
	out := map[int64]bool{}
	var visit func(ast.Expr)
	visit = func(x ast.Expr) {
		out[x.ID()] = true
		if x.Kind() != ast.CallKind {
			return
		}
		if fn := x.AsCall().FunctionName(); fn == operators.LogicalAnd || fn == operators.LogicalOr {
			for _, a := range x.AsCall().Args() {
				visit(a)
			}
		}
	}
	visit(e)
	return out
}

// stringComparison returns the field e compares (fieldOf names it) and the
// string literals it compares it with: `F == 'v'`, `!=` (negated), either
// order, and `F in ['v', …]` (the literals of the list; other elements are
// skipped). For a condition, fieldOf is the prefilter's activityField, which
// knows activity's fields.
func stringComparison(e ast.Expr, fieldOf func(ast.Expr) (string, bool)) (field string, negated bool, lits []ast.Expr) {
	if e.Kind() != ast.CallKind {
		return "", false, nil
	}
	call := e.AsCall()
	args := call.Args()
	if len(args) != 2 {
		return "", false, nil
	}
	isString := func(x ast.Expr) bool { _, ok := stringLiteral(x); return ok }
	switch call.FunctionName() {
	case operators.Equals, operators.NotEquals:
		for i, a := range args {
			if f, ok := fieldOf(a); ok && isString(args[1-i]) {
				return f, call.FunctionName() == operators.NotEquals, []ast.Expr{args[1-i]}
			}
		}
	case operators.In:
		f, ok := fieldOf(args[0])
		if !ok || args[1].Kind() != ast.ListKind {
			return "", false, nil
		}
		return f, false, slices.DeleteFunc(slices.Clone(args[1].AsList().Elements()), func(x ast.Expr) bool { return !isString(x) })
	}
	return "", false, nil
}

// enumWarning says why activity.<field> is never v, and the value likely
// meant when a case, a version suffix, a prefix or an alias gives one. How
// the comparison then reads follows where it stands (reads: comparedNever
// for a plain ==, comparedAlways for a plain !=, untold under a `!` and
// the like), and partly says v is one element of an `in` list whose other
// elements still match. The literal is the author's: quoted, shortened and
// escaped (quoteLiteral).
func enumWarning(field, v, reads string, partly bool) string {
	return neverWarning("an activity."+field, v, reads, partly, enumHint(field, v))
}

// neverWarning says v is never what subject names ("an activity.type"),
// how the comparison then reads (enumWarning), and hint, the value likely
// meant, or else where the values are listed.
func neverWarning(subject, v, reads string, partly bool, hint string) string {
	var result string
	switch {
	case partly:
		result = ", so this value never matches; the others in the list still can"
	case reads == comparedNever:
		result = ", so this comparison is never true (a deny written on it never denies)"
	case reads == comparedAlways:
		result = ", so this comparison is always true"
	}
	head := fmt.Sprintf("%s is never %s%s", quoteLiteral(v), subject, result)
	const tail = "; the values are listed in docs/policy-language.md (a newer service may add some)"
	if hint != "" {
		return head + ": " + hint
	}
	return head + tail
}

func enumHint(field, v string) string {
	upper := strings.ToUpper(v)
	if upper != v && knownActivityValue(field, upper) {
		return fmt.Sprintf("%ss are upper case: '%s'", field, upper)
	}
	switch field {
	case "kind":
		if k := KindOf("ACTIVITY_TYPE_" + upper); k != upper && activityValues["kind"][k] {
			return fmt.Sprintf("a kind has no version: '%s'", k)
		}
		if k := KindOf(upper); strings.HasPrefix(upper, "ACTIVITY_TYPE_") && activityValues["kind"][k] {
			return fmt.Sprintf("a kind has no ACTIVITY_TYPE_ prefix nor version: '%s'", k)
		}
	case "type":
		if !strings.HasPrefix(upper, "ACTIVITY_TYPE_") && knownActivityValue("type", "ACTIVITY_TYPE_"+upper) {
			return fmt.Sprintf("a type starts with ACTIVITY_TYPE_: '%s'", "ACTIVITY_TYPE_"+upper)
		}
		if t := closestType(upper); t != "" {
			return fmt.Sprintf("did you mean '%s'?", t)
		}
	case "resource":
		if r, ok := resourceAliases[upper]; ok {
			return fmt.Sprintf("those activities have the resource '%s'", r)
		}
		if r, ok := strings.CutSuffix(upper, "S"); ok && activityValues["resource"][r] {
			return fmt.Sprintf("resources are singular: '%s'", r)
		}
	}
	return ""
}

// closestType is the known type whose kind differs from v's only by a
// trailing S (ACTIVITY_TYPE_DELETE_API_KEY for ACTIVITY_TYPE_DELETE_API_KEYS)
// or that v names with the wrong version; "" when there is none.
func closestType(v string) string {
	k := KindOf(v)
	if k == "" {
		return ""
	}
	var best string
	for t := range activityValues["type"] {
		if tk := KindOf(t); (tk == k+"S" || tk+"S" == k) && (best == "" || t < best) {
			best = t
		}
	}
	return best
}
