package api

import (
	"reflect"
	"slices"
)

// fixedList is a string field of an intent whose value is one of a fixed
// list (requireEnum checks it at submission).
type fixedList struct {
	values func() []string
	// unknown is how a value not in values is shown: quoted and marked
	// unknown, as EffectText and AuthTypeText show one.
	unknown func(string) string
}

// unknownValue shows a value of a fixed list that is not in it, what naming
// the list ("access type").
func unknownValue(what string) func(string) string {
	return func(s string) string {
		return Quote(s) + " (unknown " + what + ": vigil knows of no such " + what + ")"
	}
}

// intentFixedLists are the fixed-list fields of the intents vigil knows, by
// the record that holds them and their wire name: a field's name alone is
// not enough ("type" is a smart contract interface's in one record, an MFA
// method's in another).
var intentFixedLists = map[reflect.Type]map[string]fixedList{
	reflect.TypeFor[CreatePolicyParams]():                 {"effect": {Effects, EffectText}},
	reflect.TypeFor[AuthenticationMethod]():               {"type": {AuthenticationTypes, AuthTypeText}},
	reflect.TypeFor[Invitation]():                         {"accessType": {AccessTypes, unknownValue("access type")}},
	reflect.TypeFor[CreateSmartContractInterfaceParams](): {"type": {SmartContractInterfaceTypes, unknownValue("interface type")}},
	reflect.TypeFor[SetOrganizationFeatureParams]():       {"name": {FeatureNames, unknownValue("feature name")}},
	reflect.TypeFor[UpdateOauth2CredentialParams]():       {"provider": {Oauth2Providers, unknownValue("provider")}},
}

// fixedListOf is the fixed list of the field named name of the record of
// type record; nil if the field is not one.
func fixedListOf(record reflect.Type, name string) *fixedList {
	if f, ok := intentFixedLists[record][name]; ok {
		return &f
	}
	return nil
}

// text is how IntentLines shows value s of the field: a known value bare,
// whole (EFFECT_DENY), as the service sent it; any other as unknown says.
func (f *fixedList) text(s string) string {
	if s == "" {
		return "(none)"
	}
	if slices.Contains(f.values(), s) {
		return s
	}
	return f.unknown(s)
}
