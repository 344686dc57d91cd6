package policy

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"

	"cel.dev/cel-go/interpreter"

	"github.com/vigil-console/vigil/api"
)

// Input is everything the expressions of one evaluation can see.
type Input struct {
	Activity Activity
	// Wallet, PrivateKey and WalletAccount describe the target of the activity
	// when it has one. None of this service's activities targets a wallet, key
	// or account, so they are usually nil, which expressions see as an empty
	// map: `has(wallet.id)` is false and `wallet.id` is an evaluation error.
	Wallet, PrivateKey, WalletAccount map[string]any
	// Approvers are the users who have approved so far, the requester first.
	Approvers []Approver
	// Credentials are the credentials those approvals were made with.
	Credentials []Credential
}

// Activity is what a condition sees as `activity`.
type Activity struct {
	Type     string // activity type value, e.g. ACTIVITY_TYPE_CREATE_POLICY_V3
	Resource string // e.g. POLICY (see ResourceAction)
	Action   string // e.g. CREATE
	Params   map[string]any
}

// Approver is a user who approved the activity.
type Approver struct {
	ID, Name, Email string
	Tags            []string // user tag ids
	Root            bool     // member of the root quorum
}

// Credential is a credential an approval was made with.
type Credential struct {
	ID, Type, PublicKey, UserID string
	CredentialID                string // passkey credential id; empty for API keys
}

// Resources and actions of `activity.resource` and `activity.action`.
const (
	ResourceOrganization  = "ORGANIZATION"
	ResourceInvitation    = "INVITATION"
	ResourcePolicy        = "POLICY"
	ResourceWallet        = "WALLET"
	ResourceUser          = "USER"
	ResourceCredential    = "CREDENTIAL"
	ResourceAuth          = "AUTH"
	ResourceTvcDeployment = "TVC_DEPLOYMENT"
	ResourceActivity      = "ACTIVITY"

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
	api.TypeOauth:                        {ResourceAuth, ActionCreate},         // docs
	api.TypeCreateInvitations:            {ResourceInvitation, ActionCreate},   // docs
	api.TypeCreateSmartContractInterface: {ResourcePolicy, ActionCreate},       // feeds the policy engine
	api.TypeSetOrganizationFeature:       {ResourceOrganization, ActionUpdate}, // docs
	api.TypeUpdateOauth2Credential:       {ResourceAuth, ActionUpdate},         // like the OAuth provider types
	api.TypeCreatePolicyV3:               {ResourcePolicy, ActionCreate},       // docs
	api.TypeDeleteWalletAccounts:         {ResourceWallet, ActionDelete},       // accounts are WALLET, as CREATE_WALLET_ACCOUNTS
	api.TypeCreateUserTag:                {ResourceUser, ActionCreate},         // docs
	api.TypeDeleteAPIKeys:                {ResourceCredential, ActionDelete},   // docs
	api.TypeCreateReadOnlySession:        {ResourceAuth, ActionCreate},         // like CREATE_READ_WRITE_SESSION
	api.TypeDeleteTvcDeployment:          {ResourceTvcDeployment, ActionDelete},
	api.TypeCreateMfaPolicy:              {ResourcePolicy, ActionCreate},
	api.TypeApproveActivity:              {ResourceActivity, ActionApprove},
	api.TypeRejectActivity:               {ResourceActivity, ActionReject},
}

// ResourceAction returns the resource and action of an activity type; ok is
// false for a type this service does not know.
func ResourceAction(activityType string) (resource, action string, ok bool) {
	ra, ok := resourceActions[activityType]
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
	a := Activity{Type: typ, Params: map[string]any{}}
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
	a.Params = normalize(m).(map[string]any)
	return a
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

// activation converts an Input into the variables both fields' expressions see.
func (in Input) activation() (interpreter.Activation, error) {
	users := make([]celUser, len(in.Approvers))
	for i, a := range in.Approvers {
		tags := a.Tags
		if tags == nil {
			tags = []string{}
		}
		users[i] = celUser{ID: a.ID, Name: a.Name, Alias: a.Name, Email: a.Email, Tags: tags}
	}
	creds := make([]celCredential, len(in.Credentials))
	for i, c := range in.Credentials {
		creds[i] = celCredential{ID: c.ID, Type: c.Type, PublicKey: c.PublicKey, UserID: c.UserID, CredentialID: c.CredentialID}
	}
	params := in.Activity.Params
	if params == nil {
		params = map[string]any{}
	}
	return interpreter.NewActivation(map[string]any{
		varApprovers:     users,
		varCredentials:   creds,
		varActivity:      celActivity{Type: in.Activity.Type, Resource: in.Activity.Resource, Action: in.Activity.Action, Params: params},
		varWallet:        orEmpty(in.Wallet),
		varPrivateKey:    orEmpty(in.PrivateKey),
		varWalletAccount: orEmpty(in.WalletAccount),
	})
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
