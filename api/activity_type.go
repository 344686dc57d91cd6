package api

import "strings"

// ParseActivityType turns "delete_api_keys", "delete-api-keys" or
// ACTIVITY_TYPE_DELETE_API_KEYS into the wire value of an activity type
// (create_policy is ACTIVITY_TYPE_CREATE_POLICY_V3). known reports a type
// vigil knows; a well-formed one it does not (the real service has many more)
// is returned as it is, and ok is false only for a value not shaped like a
// type at all. The CLI's --type and the console's type filter both read
// types with it.
func ParseActivityType(s string) (v string, known, ok bool) {
	v = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), "-", "_"))
	if !strings.HasPrefix(v, "ACTIVITY_TYPE_") {
		v = "ACTIVITY_TYPE_" + v
	}
	if v == "ACTIVITY_TYPE_CREATE_POLICY" {
		v = TypeCreatePolicyV3
	}
	if _, known := OperationByType(v); known {
		return v, true, true
	}
	if !wellFormedActivityType(v) {
		return "", false, false
	}
	return v, false, true
}

// wellFormedActivityType reports a value shaped like an activity type:
// ACTIVITY_TYPE_ then upper-case ASCII letters, digits and underscores.
func wellFormedActivityType(v string) bool {
	rest, _ := strings.CutPrefix(v, "ACTIVITY_TYPE_")
	if rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
