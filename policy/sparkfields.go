package policy

import (
	"fmt"
	"strings"
)

// The Spark parameters are typed records (typedParams), but vigil's local
// service has always kept them as submitted, in camelCase
// (s.adaptorPublicKey), and policies stored then read them so. A Spark
// record therefore answers the camelCase spelling of each documented field
// as that field: a DENY written either way still denies.

// isSparkStruct reports whether typ is one of the Spark parameters' structs.
func isSparkStruct(typ string) bool { return strings.HasPrefix(typ, "Spark") }

// structField is the documented name of field name of struct typ: name
// itself, or for a Spark struct the field whose camelCase spelling it is.
func structField(typ, name string) (string, fieldSpec, bool) {
	spec := schemaStructs()[typ]
	if f, ok := spec.fields[name]; ok {
		return name, f, true
	}
	if !isSparkStruct(typ) {
		return "", fieldSpec{}, false
	}
	snake := snakeCase(name)
	f, ok := spec.fields[snake]
	if !ok || camelCase(snake) != name {
		return "", fieldSpec{}, false // adaptor_publicKey is no spelling of a field
	}
	return snake, f, true
}

// camelCase turns "adaptor_public_key" into "adaptorPublicKey".
func camelCase(s string) string {
	var b strings.Builder
	up := false
	for _, r := range s {
		switch {
		case r == '_':
			up = true
		case up && 'a' <= r && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
			up = false
		default:
			b.WriteRune(r)
			up = false
		}
	}
	return b.String()
}

// sparkCamelWarning says what reading a Spark field in camelCase does on
// the real service.
func sparkCamelWarning(camel, documented string) string {
	return fmt.Sprintf("%s: the real service names the Spark structs' fields in snake_case; write %s: as written, "+
		"reading it is a type error there, so the policy never applies (a deny on it never denies there); "+
		"vigil's local service reads it as %s", camel, documented, documented)
}

// sparkCamelWarningsOf lists the Spark fields a condition reads in camelCase,
// at their position; none when the condition does not parse.
func sparkCamelWarningsOf(parsed *conditionParse) []Diagnostic {
	c, ok := parsed.walk(false)
	if !ok {
		return nil
	}
	var w fieldWalk
	w.decl(c.native.Expr(), map[string]string{})
	var out []Diagnostic
	for _, p := range w.camel {
		out = append(out, c.at(p.id, p.msg))
	}
	return out
}
