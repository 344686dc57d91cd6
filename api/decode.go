package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// NewParams returns a new, empty parameters value for the operation with this
// activity type (e.g. *OauthParams for ACTIVITY_TYPE_OAUTH), or false if the type
// is not a submit operation.
func NewParams(activityType string) (Params, bool) {
	switch activityType {
	case TypeOauth:
		return new(OauthParams), true
	case TypeCreateInvitations:
		return new(CreateInvitationsParams), true
	case TypeCreateSmartContractInterface:
		return new(CreateSmartContractInterfaceParams), true
	case TypeSetOrganizationFeature:
		return new(SetOrganizationFeatureParams), true
	case TypeUpdateOauth2Credential:
		return new(UpdateOauth2CredentialParams), true
	case TypeCreatePolicyV3:
		return new(CreatePolicyParams), true
	case TypeDeleteWalletAccounts:
		return new(DeleteWalletAccountsParams), true
	case TypeCreateUserTag:
		return new(CreateUserTagParams), true
	case TypeDeleteAPIKeys:
		return new(DeleteAPIKeysParams), true
	case TypeCreateReadOnlySession:
		return new(CreateReadOnlySessionParams), true
	case TypeDeleteTvcDeployment:
		return new(DeleteTvcDeploymentParams), true
	case TypeCreateMfaPolicy:
		return new(CreateMfaPolicyParams), true
	case TypeApproveActivity:
		return new(ApproveActivityParams), true
	case TypeRejectActivity:
		return new(RejectActivityParams), true
	}
	return nil, false
}

// ValidateParams decodes the raw parameters of a submit operation strictly and
// validates them. It returns a pointer to the operation's params type (e.g.
// *CreatePolicyParams). Every problem is a *ValidationError naming the field by
// its JSON path ("" for the parameters object itself): an unknown key, a required key that is missing or null, a value of
// the wrong JSON type, or a value Validate rejects. Keys match exactly (encoding/json
// alone would accept "PolicyName" for "policyName").
func ValidateParams(op Operation, raw json.RawMessage) (any, error) {
	params, ok := NewParams(op.Type)
	if !ok {
		return nil, &ValidationError{Field: "type", Problem: fmt.Sprintf("%q is not a submit operation; use one of the operations docs/local-service.md lists", op.Type)}
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, &ValidationError{Problem: "is required; send the operation's parameters as a JSON object ({} when it takes none)"}
	}
	if !json.Valid(raw) {
		return nil, &ValidationError{Problem: "is not valid JSON; send a JSON object"}
	}
	if err := checkJSON("", raw, reflect.TypeOf(params).Elem()); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, params); err != nil {
		// checkJSON has already checked every key and type, so this is unexpected;
		// still report it as the caller's 400 rather than a crash.
		return nil, &ValidationError{Problem: "could not be decoded (" + err.Error() + "); check the JSON against the operation's parameter table"}
	}
	if err := params.Validate(); err != nil {
		return nil, err
	}
	return params, nil
}

// jsonKind names the JSON type of a raw value for error messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// wantKind names the JSON type a Go type decodes from.
func wantKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Slice:
		return "an array"
	case reflect.Struct:
		return "an object"
	}
	return t.String()
}

type jsonField struct {
	name     string
	required bool
	typ      reflect.Type
	index    int  // in the struct's fields
	quoted   bool // the ",string" option: the value is itself quoted
}

// jsonFields lists a struct's JSON keys; a key is required unless tagged omitempty,
// which in this package is exactly SPEC.md's "Required: no".
func jsonFields(t reflect.Type) []jsonField {
	out := make([]jsonField, 0, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, required: !hasOption(opts, "omitempty"), typ: f.Type, index: i,
			quoted: hasOption(opts, "string")})
	}
	return out
}

// hasOption tells whether a json tag's options (after the name) include opt.
func hasOption(opts, opt string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == opt {
			return true
		}
	}
	return false
}

// checkJSON walks raw against the Go type t and reports the first unknown key,
// missing required key or wrongly typed value with its path.
func checkJSON(path string, raw json.RawMessage, t reflect.Type) error {
	if t.Kind() == reflect.Pointer {
		if string(bytes.TrimSpace(raw)) == "null" {
			return nil
		}
		return checkJSON(path, raw, t.Elem())
	}
	field := path // "" is the parameters object itself
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if jsonKind(raw) != "an object" || json.Unmarshal(raw, &obj) != nil {
			return invalid(field, "must be an object, not %s", jsonKind(raw))
		}
		fields := jsonFields(t)
		known := make([]string, 0, len(fields))
		for _, f := range fields {
			known = append(known, f.name)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !slices.Contains(known, k) {
				// A miscased key is a field the sender meant: say which, rather
				// than "remove it", which would leave the field missing.
				for _, name := range known {
					if strings.EqualFold(name, k) {
						_, sentToo := obj[name]
						return &ValidationError{Field: joinPath(path, sanitizeKey(k)), ErrorCode: JSONKeyCase,
							Problem: "is not a field; " + miscasedKeyAdvice(name, sentToo)}
					}
				}
				msg := "is not a known field; remove it"
				if len(known) > 0 {
					msg += " (known fields: " + strings.Join(known, ", ") + ")"
				}
				return &ValidationError{Field: joinPath(path, sanitizeKey(k)), Problem: msg}
			}
		}
		for _, f := range fields {
			v, present := obj[f.name]
			if !present || string(bytes.TrimSpace(v)) == "null" {
				if f.required {
					return invalid(joinPath(path, f.name), "is required but missing; send it as %s", wantKind(f.typ))
				}
				continue
			}
			if err := checkJSON(joinPath(path, f.name), v, f.typ); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		var items []json.RawMessage
		if jsonKind(raw) != "an array" || json.Unmarshal(raw, &items) != nil {
			return invalid(field, "must be an array, not %s", jsonKind(raw))
		}
		for i, item := range items {
			if err := checkJSON(indexPath(path, i), item, t.Elem()); err != nil {
				return err
			}
		}
		return nil
	default:
		if jsonKind(raw) == "null" {
			return invalid(field, "must be %s, not null", wantKind(t))
		}
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			if t.Kind() == reflect.Int && jsonKind(raw) == "a number" {
				return invalid(field, "must be a whole number within range, not %s", sanitizeKey(string(raw)))
			}
			return invalid(field, "must be %s, not %s", wantKind(t), jsonKind(raw))
		}
		// A whole number has one spelling, so that the signed bytes read one
		// way: -0 is 0 written otherwise (1.0 and 1e0 fail to decode above).
		if k := t.Kind(); (k == reflect.Int || k == reflect.Int32 || k == reflect.Int64) && string(bytes.TrimSpace(raw)) == "-0" {
			return invalid(field, "must be written 0, not -0")
		}
		return nil
	}
}

// sanitizeKey makes a client-supplied key or value safe and short enough to quote
// in an error message.
func sanitizeKey(k string) string {
	const max = 64
	if len(k) > max {
		k = k[:max] + "…"
	}
	return SanitizeID(k)
}
