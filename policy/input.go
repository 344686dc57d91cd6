package policy

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/vigil-console/vigil/api"
)

// Input is everything the expressions of one evaluation can see.
type Input struct {
	Activity Activity
	// Wallet, PrivateKey and WalletAccount are the target of the activity
	// when it has one, with the fields of the documented Wallet, PrivateKey and
	// WalletAccount structs (snake_case keys: "id", "label", "imported", …).
	// Wallets is the list of target wallets of requests involving several.
	// None of this service's activities has a target, so they are usually
	// nil: a condition that reads one then does not apply (see Result).
	Wallet, PrivateKey, WalletAccount map[string]any
	Wallets                           []map[string]any
	// Secret is the secret an export of secrets reads (`secret`, with the
	// documented field "static_properties", a map of strings). This service
	// stores no secrets, so it is nil outside simulations, and a condition
	// reading it does not apply, as for a missing wallet.
	Secret map[string]any
	// Payloads are what the real service parses from a signing request, by
	// keyword: "eth.tx", "eth.eip_712", "eth.eip_7702_authorization",
	// "solana.tx", "tron.tx", "bitcoin.tx" and "tempo.tx", each an object with
	// the fields of its documented struct (snake_case keys; nested structs as
	// objects, lists as slices; numbers as Go integers, *big.Int, json.Number
	// or decimal strings). No activity of this service signs, so it is
	// usually nil; simulations fill it.
	Payloads map[string]map[string]any
	// Approvers are the users who have approved so far, the requester first.
	Approvers []Approver
	// Requester is the id of the user who submitted the activity, from the
	// activity's record of its submitter (never from whoever votes first in
	// a later round). It decides the implicit permission to change one's own
	// credentials (OwnCredentialChange); empty, it grants nothing.
	Requester string
	// RequesterUnknown is set when the records at hand cannot tell who
	// submitted the activity (the console sees only the votes of the last
	// round): Requester is then empty, and explanations say why the
	// own-credentials permission was not counted.
	RequesterUnknown bool
	// StrandsRootMember is set when the change would leave a root quorum
	// member with no credential that can sign (api.KeyDeletionLoss). The
	// own-credentials permission does not apply then: the root quorum
	// decides, as for any change to a root member's credentials.
	StrandsRootMember bool
	// Credentials are the credentials those approvals were made with.
	Credentials []Credential
	// Now is the service clock at the evaluation: time.now, and the instant
	// CronSpan tests. A policy with a time expression fails to evaluate when
	// it is zero.
	Now time.Time
}

// Payload keywords.
const (
	PayloadEthTx      = "eth.tx"
	PayloadEthEIP712  = "eth.eip_712"
	PayloadEthEIP7702 = "eth.eip_7702_authorization"
	PayloadSolanaTx   = "solana.tx"
	PayloadTronTx     = "tron.tx"
	PayloadBitcoinTx  = "bitcoin.tx"
	PayloadTempoTx    = "tempo.tx"
)

// Activity is what a condition sees as `activity`.
type Activity struct {
	Type     string // activity type value, e.g. ACTIVITY_TYPE_CREATE_POLICY_V3
	Kind     string // version-agnostic kind, e.g. CREATE_POLICY (see KindOf)
	Resource string // e.g. POLICY (see ResourceAction)
	Action   string // e.g. CREATE
	Params   map[string]any
}

// Approver is a user who approved the activity.
type Approver struct {
	ID, Name, Email string
	Tags            []string // user tag ids
	Root            bool     // member of the root quorum
	// Registered are the user's API keys and authenticators: a vote record
	// names only the public key it was stamped with, and the policies see the
	// credential behind it (VoteCredential). Not visible to policies.
	Registered []Credential
	// signer is the user record the registered credentials came from (with
	// API keys' lifetimes), set by Members: what says whether a deletion
	// strands a root member. Zero when unknown.
	signer api.User
	// passkeysSign is whether the signer's authenticators count as able to
	// sign (api.PasskeysSign of the organization's features, set by
	// Members); false, the deletion is judged on API keys alone.
	passkeysSign bool
}

// Credential is a credential an approval was made with.
type Credential struct {
	ID           string // the API key's or authenticator's id
	Type         string // its registered type, e.g. CREDENTIAL_TYPE_OAUTH_KEY_P256
	PublicKey    string
	UserID       string
	CredentialID string // passkey credential id; empty for API keys
}

// Resources and actions of `activity.resource` and `activity.action`.
const (
	ResourceOrganization           = "ORGANIZATION"
	ResourceInvitation             = "INVITATION"
	ResourcePolicy                 = "POLICY"
	ResourceWallet                 = "WALLET"
	ResourceUser                   = "USER"
	ResourceCredential             = "CREDENTIAL"
	ResourceAuth                   = "AUTH"
	ResourceTvcDeployment          = "TVC_DEPLOYMENT"
	ResourceActivity               = "ACTIVITY"
	ResourceSmartContractInterface = "SMART_CONTRACT_INTERFACE"
	ResourceMfaPolicy              = "MFA_POLICY"

	ActionCreate  = "CREATE"
	ActionUpdate  = "UPDATE"
	ActionDelete  = "DELETE"
	ActionApprove = "APPROVE"
	ActionReject  = "REJECT"
)

// resourceActions maps every submit operation's type to its resource and
// action. Entries marked "docs" are from the real service's activity
// breakdown table; the others are decisions for types that table omits
// (docs/policy-language.md explains each).
var resourceActions = map[string][2]string{
	api.TypeOauth:                        {ResourceAuth, ActionCreate},                   // docs
	api.TypeCreateInvitations:            {ResourceInvitation, ActionCreate},             // docs
	api.TypeCreateSmartContractInterface: {ResourceSmartContractInterface, ActionCreate}, // docs
	api.TypeSetOrganizationFeature:       {ResourceOrganization, ActionUpdate},           // docs
	api.TypeUpdateOauth2Credential:       {ResourceAuth, ActionUpdate},                   // like the OAuth provider types
	api.TypeCreatePolicyV3:               {ResourcePolicy, ActionCreate},                 // docs
	api.TypeDeleteWalletAccounts:         {ResourceWallet, ActionDelete},                 // docs
	api.TypeCreateUserTag:                {ResourceUser, ActionCreate},                   // docs
	api.TypeDeleteAPIKeys:                {ResourceCredential, ActionDelete},             // docs
	api.TypeCreateReadOnlySession:        {ResourceAuth, ActionCreate},                   // like CREATE_READ_WRITE_SESSION
	api.TypeDeleteTvcDeployment:          {ResourceTvcDeployment, ActionDelete},
	api.TypeCreateMfaPolicy:              {ResourceMfaPolicy, ActionCreate}, // the documented resource MFA_POLICY
	api.TypeApproveActivity:              {ResourceActivity, ActionApprove},
	api.TypeRejectActivity:               {ResourceActivity, ActionReject},
}

// ResourceAction returns the resource and action of an activity type: this
// service's own types first, then the real service's documented table (so
// that simulated signing activities get SIGN, EXPORT…); ok is false for a
// type neither knows.
func ResourceAction(activityType string) (resource, action string, ok bool) {
	ra, ok := resourceActions[activityType]
	if !ok {
		ra, ok = documentedResourceActions[activityType]
	}
	if k := KindOf(activityType); !ok && k != "" {
		ra, ok = documentedByKind[k]
	}
	return ra[0], ra[1], ok
}

// ActivityFor builds the `activity` of an activity of type typ with the given
// parameters: resource and action come from ResourceAction (empty for an
// unknown type), and params is the parameters object as a JSON map.
// params may be raw JSON ([]byte or json.RawMessage) or any value that
// marshals to a JSON object; anything else gives empty params.
//
// Every camelCase key is also reachable by its snake_case spelling
// (`activity.params.userTagName` and `activity.params.user_tag_name`), as the
// real service's documentation uses both. Whole numbers become ints.
func ActivityFor(typ string, params any) Activity {
	a := Activity{Type: typ, Kind: KindOf(typ), Params: map[string]any{}}
	a.Resource, a.Action, _ = ResourceAction(typ)
	var raw []byte
	switch p := params.(type) {
	case nil:
		return a
	case json.RawMessage:
		raw = p
	case []byte:
		raw = p
	default:
		b, err := json.Marshal(params)
		if err != nil {
			return a
		}
		raw = b
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return a
	}
	zeroFill(m, reflect.TypeOf(params)) // a no-op for raw JSON
	a.Params = normalize(m).(map[string]any)
	return a
}

// zeroFill gives every field of the parameters struct t that m lacks its
// zero value ("", 0, false, [], {}), at every depth: the service's
// parameters are a typed message whose every field has a value, so a
// parameter left out and one sent empty read alike (`activity.params.consensus
// == ""` holds for a policy created without a consensus), as the docs say of
// optional fields. A struct-typed field that is not set stays absent (test it
// with has()), as do fields whose JSON the type writes itself.
func zeroFill(m map[string]any, t reflect.Type) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			zeroFill(m, f.Type)
			continue
		}
		if name == "" {
			name = f.Name
		}
		if v, ok := m[name]; ok {
			fillNested(v, f.Type)
			continue
		}
		if z, ok := zeroOf(f.Type); ok {
			m[name] = z
		}
	}
}

// fillNested zero-fills the structs inside a value present in the map.
func fillNested(v any, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch val := v.(type) {
	case map[string]any:
		if t.Kind() == reflect.Struct {
			zeroFill(val, t)
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for _, e := range val {
				fillNested(e, t.Elem())
			}
		}
	}
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// zeroOf is the JSON zero value of a field of type t, as ActivityFor's
// decoding would read it; ok is false for struct-typed fields and types
// that write their own JSON.
func zeroOf(t reflect.Type) (any, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
		return nil, false
	}
	switch t.Kind() {
	case reflect.String:
		return "", true
	case reflect.Bool:
		return false, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return json.Number("0"), true
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "", true // []byte is a base64 string
		}
		return []any{}, true
	case reflect.Map:
		return map[string]any{}, true
	}
	return nil, false
}

// normalize converts json.Numbers and adds snake_case aliases, recursively.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			out[k] = normalize(val)
		}
		for k, val := range out {
			if s := snakeCase(k); s != k {
				if _, taken := out[s]; !taken {
					out[s] = val
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, val := range t {
			out[i] = normalize(val)
		}
		return out
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		if n, ok := new(big.Int).SetString(string(t), 10); ok && n.CmpAbs(maxUint256) <= 0 {
			return n // a whole number beyond 64 bits compares exactly
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

// snakeCase turns "apiKeyIds" into "api_key_ids".
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rootQuorumTypes are governed by the root quorum only; the service gives
// them no kind.
var rootQuorumTypes = map[string]bool{
	"ACTIVITY_TYPE_UPDATE_ROOT_QUORUM":          true,
	"ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE":    true,
	"ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE": true,
	"ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME":    true,
}

// KindOf returns the version-agnostic kind of an activity type: the type
// without its ACTIVITY_TYPE_ prefix and _V<n> suffix (SIGN_TRANSACTION for
// ACTIVITY_TYPE_SIGN_TRANSACTION_V2), the rule every row of the real
// service's "Activity kinds" table follows. Root quorum activities have no
// kind (""), as there.
func KindOf(activityType string) string {
	k, ok := strings.CutPrefix(activityType, "ACTIVITY_TYPE_")
	if !ok || rootQuorumTypes[activityType] {
		return ""
	}
	if i := strings.LastIndex(k, "_V"); i > 0 && i+2 < len(k) && strings.Trim(k[i+2:], "0123456789") == "" {
		k = k[:i]
	}
	return k
}
