package api

import (
	"fmt"
	"reflect"
)

// IntentFor builds the intent of an activity of type typ from its parameters
// (a value or pointer of the operation's params type).
func IntentFor(typ string, params any) (Intent, error) {
	var in Intent
	if err := in.Set(typ, params); err != nil {
		return Intent{}, err
	}
	return in, nil
}

// Set stores params under the intent key of the operation with activity type typ,
// clearing any other key. The params must be of that operation's type.
func (in *Intent) Set(typ string, params any) error {
	want, ok := NewParams(typ)
	if !ok {
		return fmt.Errorf("intent: %q is not a submit activity type", typ)
	}
	v := reflect.ValueOf(params)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return fmt.Errorf("intent: nil parameters for %s", typ)
		}
		v = v.Elem()
	}
	if !v.IsValid() || v.Type() != reflect.TypeOf(want).Elem() {
		return fmt.Errorf("intent: %s takes %T parameters, not %T", typ, want, params)
	}
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	*in = Intent{}
	// The one Intent field of pointer type *P holds the params.
	iv := reflect.ValueOf(in).Elem()
	for i := range iv.NumField() {
		if iv.Field(i).Type() == p.Type() {
			iv.Field(i).Set(p)
			return nil
		}
	}
	return fmt.Errorf("intent: no intent field for %s", typ)
}

// Params returns the parameters of the one operation the intent holds (a
// pointer to its params type) and its activity type. It returns nil and ""
// when the intent holds none this client knows, and also when it holds more
// than one operation (Keys): a caller acting on "the" parameters would
// otherwise act on one and miss the others.
func (in Intent) Params() (typ string, params any) {
	iv := reflect.ValueOf(in)
	held := len(in.Other)
	for i := range iv.NumField() {
		f := iv.Field(i)
		if f.Kind() != reflect.Pointer || f.IsNil() {
			continue // Other holds no params of this client's operations
		}
		held++
		if params != nil {
			continue
		}
		for _, op := range SubmitOperations() {
			if p, _ := NewParams(op.Type); reflect.TypeOf(p) == f.Type() {
				typ, params = op.Type, f.Interface()
				break
			}
		}
	}
	if held != 1 {
		return "", nil
	}
	return typ, params
}

// ParamsUnread reports whether this client cannot read the intent's
// parameters (Params is nil): it holds no intent, one of an operation or a
// shape this client does not know, or several operations. The service reads
// them, and a policy may look at activity.params: a decision predicted here
// would be predicted on nothing, so none may be (CannotTellParams instead).
func (in Intent) ParamsUnread() bool {
	_, params := in.Params()
	return params == nil
}

// TypeDoubt says how the intent disagrees with typ, the activity's type, or
// is "": the one operation it holds is not that type's (a createPolicyIntentV3
// in an ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION), or is a known operation under
// another type. A faithful service never sends this; when a service or a
// proxy does, what the activity does depends on which of the two the service
// acts on, so it must be read as unreadable: warned of, and never predicted
// from either. An intent of several operations is doubted elsewhere (Keys).
func (in Intent) TypeDoubt(typ string) string {
	keys := in.Keys()
	if len(keys) != 1 {
		return ""
	}
	key := keys[0]
	byType, typeKnown := OperationByType(typ)
	keyKnown := false
	for _, op := range SubmitOperations() {
		if op.IntentKey == key {
			keyKnown = true
		}
	}
	if typeKnown && byType.IntentKey == key || !typeKnown && !keyKnown {
		return ""
	}
	return "its type is " + SanitizeID(typ) + " but its intent is a " + SanitizeID(key) + "; which of the two runs is the service's choice"
}

// IntentUnread reports an activity whose intent no decision may be predicted
// from: its parameters are unread (Intent.ParamsUnread), or its intent is not
// of its type (Intent.TypeDoubt), so policies keyed on the type would judge
// something other than what the intent does.
func (a *Activity) IntentUnread() bool {
	return a.Intent.ParamsUnread() || a.Intent.TypeDoubt(a.Type) != ""
}

// CannotTellParams is said, instead of a decision, of an activity whose
// intent's parameters this client cannot read (ParamsUnread).
const CannotTellParams = "cannot tell: vigil cannot read this intent's parameters"

// Value returns the one result held (a pointer to the operation's result type), or
// nil while the activity has no result or only one this client does not know
// (Other).
func (r Result) Value() any {
	rv := reflect.ValueOf(r)
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			return f.Interface()
		}
	}
	return nil
}
