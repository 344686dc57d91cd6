package policy

import (
	"fmt"

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
	if !ok || got == "" || got == want || want == "list<string>" && got == "list" && len(lit.AsList().Elements()) == 0 {
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
