package api

import (
	"fmt"
	"reflect"
	"strings"
)

// DefaultOauthKeySeconds is how long the API key an oauth activity makes
// lives when its intent gives no expirationSeconds (SPEC.md: 15 minutes).
const DefaultOauthKeySeconds = 15 * 60

// DefaultOauthKeyName is what the service names the API key of an oauth
// activity whose intent gives no apiKeyName: this, then the time it runs.
const DefaultOauthKeyName = "Oauth - "

// The meanings of a policy expression the policy engine reads as absent
// (empty, or only white space: policy.CompileSource), one wording for the
// console's dialog and the CLI's prompt.
const (
	NoConditionMeaning = "applies to every activity"
	NoConsensusMeaning = "applies without any approval"
	NoTimeMeaning      = "is always active"
)

// ExprAbsentText is how a voter is shown a policy expression (field is
// "condition", "consensus" or "time") that the engine reads as none: "(none:
// …)" for an empty one, the quoted value and "(blank: none, so it …)" for one
// of only white space, which reads as nothing. ok is false for any other
// value, or another field.
func ExprAbsentText(field, src string) (text string, ok bool) {
	var meaning string
	switch field {
	case "condition":
		meaning = NoConditionMeaning
	case "consensus":
		meaning = NoConsensusMeaning
	case "time":
		meaning = NoTimeMeaning
	default:
		return "", false
	}
	switch {
	case src == "":
		return "(none: " + meaning + ")", true
	case strings.TrimSpace(src) == "":
		return Quote(src) + " (blank: none, so it " + meaning + ")", true
	}
	return "", false
}

// OauthKeyNameText and OauthExpiryText say what an oauth activity names and
// how long it keeps the key it makes, stating the service's default when
// the intent leaves the field out.
func OauthKeyNameText(name string) string {
	if name == "" {
		return "(none: the service names it " + Quote(DefaultOauthKeyName) + " and the time it runs)"
	}
	return Quote(name)
}

// OauthExpiryText: see OauthKeyNameText.
func OauthExpiryText(seconds string) string {
	if seconds == "" {
		return fmt.Sprintf("(none: %d s, %d minutes, the service's default)", DefaultOauthKeySeconds, DefaultOauthKeySeconds/60)
	}
	return Quote(seconds) + " s"
}

// absentFieldText is what IntentLines shows for a field the intent leaves
// out (or, for an expression, gives only white space) whose absence the
// service reads as something a voter must know: a default, or false. ok is
// false when the generic "(none)" says it all.
func absentFieldText(owner reflect.Type, name string, v reflect.Value) (string, bool) {
	switch {
	case v.Kind() == reflect.String && (owner == reflect.TypeFor[CreatePolicyParams]()):
		return ExprAbsentText(name, v.String())
	case owner == reflect.TypeFor[OauthParams]() && name == "apiKeyName" && v.String() == "":
		return OauthKeyNameText(""), true
	case owner == reflect.TypeFor[OauthParams]() && name == "expirationSeconds" && v.String() == "":
		return OauthExpiryText(""), true
	case owner == reflect.TypeFor[OauthParams]() && name == "invalidateExisting" && v.IsNil():
		return "(none: false, the user's other OAuth keys are kept)", true
	case owner == reflect.TypeFor[DeleteWalletAccountsParams]() && name == "deleteWithoutExport" && v.IsNil():
		return "(none: false, an account never exported is not deleted and the activity fails)", true
	}
	return "", false
}
