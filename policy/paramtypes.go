package policy

import (
	"fmt"
	"strings"

	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
)

// documentedParamTypes are the types the real service's "Activity
// parameters" table gives its fields, where the docs say. activity.params is
// a map of any value here, so the checker cannot see them; its language is
// strongly typed, and comparing such a field with a value of another type is
// a type error there (the policy never applies), so vigil refuses it at
// compile time when the value is a literal (checkLiterals), and at
// evaluation otherwise (equality.go).
var documentedParamTypes = map[string]string{
	"hash_function": "string", "encoding": "string", "type": "string",
	"user_ids": "list<string>", "user_id": "string", "api_key_ids": "list<string>",
	"target_public_key": "string", "wallet_id": "string", "otp_length": "int",
	"session_profile_id": "string", "endpoint_id": "string", "sign_with": "string",
	// Structs of the schema: activation builds them (typedParams), and
	// checkParamFields refuses a field they do not have.
	"signatures": "list<SparkSignatureRequest>", "transfer": "SparkTransferPackage",
	"claim": "SparkClaimPackage", "lightning_receive": "SparkLightningReceivePackage",
}

// paramRead is the name of the parameter e reads when it is
// activity.params.<name> or activity.params['<name>'].
func paramRead(e ast.Expr) (string, bool) {
	isParams := func(e ast.Expr) bool {
		if e.Kind() != ast.SelectKind || e.AsSelect().FieldName() != "params" {
			return false
		}
		op := e.AsSelect().Operand()
		return op.Kind() == ast.IdentKind && op.AsIdent() == varActivity
	}
	switch e.Kind() {
	case ast.SelectKind:
		if sel := e.AsSelect(); !sel.IsTestOnly() && isParams(sel.Operand()) {
			return sel.FieldName(), true
		}
	case ast.CallKind:
		call := e.AsCall()
		if call.FunctionName() == fnIndex && call.IsMemberFunction() && isParams(call.Target()) && len(call.Args()) == 1 {
			if k := call.Args()[0]; k.Kind() == ast.LiteralKind {
				if s, ok := k.AsLiteral().(types.String); ok {
					return string(s), true
				}
			}
		}
	}
	return "", false
}

// literalType is the type of a literal (a list literal as list<T> when its
// elements are literals of one type), or "" when e is not one.
func literalType(e ast.Expr) string {
	switch e.Kind() {
	case ast.LiteralKind:
		switch e.AsLiteral().(type) {
		case types.String:
			return "string"
		case types.Int:
			return "int"
		case types.Uint:
			return "uint"
		case types.Double:
			return "double"
		case types.Bool:
			return "bool"
		case types.Bytes:
			return "bytes"
		}
	case ast.ListKind:
		elem := ""
		for _, el := range e.AsList().Elements() {
			t := literalType(el)
			if t == "" || elem != "" && t != elem {
				return "list"
			}
			elem = t
		}
		if elem == "" {
			return "list"
		}
		return "list<" + elem + ">"
	case ast.MapKind:
		return "map"
	case ast.CallKind:
		if e.AsCall().FunctionName() == fnNumber {
			return "int" // a literal beyond 64 bits
		}
	}
	return ""
}

// paramLiteralMismatch explains a documented parameter compared with a
// literal of another type, or is "".
func paramLiteralMismatch(name string, lit ast.Expr) string {
	want, ok := documentedParamTypes[name]
	got := literalType(lit)
	if !ok || got == "" || got == want || strings.HasPrefix(want, "list<") && got == "list" && len(lit.AsList().Elements()) == 0 {
		return ""
	}
	field := "activity.params." + name
	switch {
	case want == "list<string>" && got == "string":
		return fmt.Sprintf("%s is a list of strings on the real service, and this compares it with one string, "+
			"which is a type error there (the policy never applies); to test whether the list holds the value, "+
			"write 'value' in %s", field, field)
	case want == "int" && got == "string":
		return fmt.Sprintf("%s is an int on the real service, and this compares it with a string, which is a type "+
			"error there (the policy never applies); write the number without quotes (for example 6, not '6')", field)
	case want == "string" && got != "string":
		return fmt.Sprintf("%s is a string on the real service, and this compares it with %s, which is a type "+
			"error there (the policy never applies); quote the value (for example 'value')", field, kindArticle(got))
	}
	return fmt.Sprintf("%s is %s on the real service, and this compares it with %s, which is a type error there "+
		"(the policy never applies); compare it with a value of its own type", field, kindArticle(want), kindArticle(got))
}

// paramMembershipMismatch explains `elem in container` or
// container.contains(elem) where one side is a documented parameter and the
// other a literal it can never be looked up with or in (the real service's
// type error, as for ==), and returns the expression to report it at; msg is
// "" when there is none. A string parameter's contains() is a substring test,
// handled by paramContainsMismatch.
func paramMembershipMismatch(elem, container ast.Expr) (at ast.Expr, msg string) {
	if name, ok := paramRead(container); ok {
		want, documented := documentedParamTypes[name]
		if !documented {
			return nil, ""
		}
		field := "activity.params." + name
		if strings.HasPrefix(want, "list<") && want != "list<string>" {
			return nil, "" // a list of structs, which no literal is
		}
		if want != "list<string>" {
			return container, fmt.Sprintf("%s is %s on the real service, not a list, and `in` needs a list or a map "+
				"on its right, which is a type error there (the policy never applies); to compare it with one value, "+
				"write %s == value", field, kindArticle(want), field)
		}
		got := literalType(elem)
		if got == "" || got == "string" {
			return nil, ""
		}
		return elem, fmt.Sprintf("%s is a list of strings on the real service, and this looks up %s in it, which "+
			"is a type error there (the policy never applies); look up a string (for example 'value' in %s)",
			field, kindArticle(got), field)
	}
	if name, ok := paramRead(elem); ok {
		// Membership compares the parameter with every element (or key).
		switch container.Kind() {
		case ast.ListKind:
			for _, el := range container.AsList().Elements() {
				if msg := paramLiteralMismatch(name, el); msg != "" {
					return el, msg
				}
			}
		case ast.MapKind:
			for _, entry := range container.AsMap().Entries() {
				k := entry.AsMapEntry().Key()
				if msg := paramLiteralMismatch(name, k); msg != "" {
					return k, msg
				}
			}
		}
	}
	return nil, ""
}

// paramContainsMismatch explains target.contains(arg) where target is a
// documented parameter: membership on a list parameter, a substring test on
// a string one (whose argument must be a string), and a type error on any
// other.
func paramContainsMismatch(target, arg ast.Expr) (at ast.Expr, msg string) {
	name, ok := paramRead(target)
	want := documentedParamTypes[name]
	if !ok || want == "" {
		return paramMembershipMismatch(arg, target)
	}
	field := "activity.params." + name
	switch got := literalType(arg); {
	case strings.HasPrefix(want, "list<"):
		return paramMembershipMismatch(arg, target)
	case want == "string" && got != "" && got != "string":
		return arg, fmt.Sprintf("%s is a string on the real service, and contains() on a string needs a string, "+
			"not %s, which is a type error there (the policy never applies); quote the value (for example "+
			"%s.contains('value'))", field, kindArticle(got), field)
	case want != "string":
		return target, fmt.Sprintf("%s is %s on the real service, and contains() needs a list or a string, which "+
			"is a type error there (the policy never applies); to compare it with one value, write %s == value",
			field, kindArticle(want), field)
	}
	return nil, ""
}
