package policy

import (
	"fmt"
	"reflect"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/parser"
)

// Limits that keep a hostile policy from costing the service more than a
// well-behaved one. They are deliberately generous for real policies: an
// allowlist of a few hundred addresses fits in MaxExpressionLength, and the
// cost limit allows nested quantifiers over hundreds of approvers.
const (
	// MaxExpressionLength is the longest condition or consensus accepted, in bytes.
	MaxExpressionLength = 16 << 10
	// MaxNestingDepth bounds how deeply an expression may nest (parentheses,
	// operators, calls) before the parser refuses it.
	MaxNestingDepth = 64
	// maxExpressionNodes bounds the size of the parsed tree, macros included.
	maxExpressionNodes = 5000
	// CostLimit is the evaluation budget of one expression, in CEL cost units
	// (roughly one unit per operation). Exceeding it is an evaluation error.
	CostLimit = 200_000
)

// Names the expressions see. Consensus and condition see different keywords,
// as in the real service's policy language.
const (
	varApprovers     = "approvers"
	varCredentials   = "credentials"
	varActivity      = "activity"
	varWallet        = "wallet"
	varPrivateKey    = "private_key"
	varWalletAccount = "wallet_account"
)

// celUser is what a consensus expression sees for one approver. The `cel`
// tags are the field names of the real service's User struct.
type celUser struct {
	ID    string   `cel:"id"`
	Name  string   `cel:"name"`
	Alias string   `cel:"alias"`
	Email string   `cel:"email"`
	Tags  []string `cel:"tags"`
}

// celCredential is what a consensus expression sees for one credential that
// approved the activity.
type celCredential struct {
	ID           string `cel:"id"`
	Type         string `cel:"type"`
	PublicKey    string `cel:"public_key"`
	UserID       string `cel:"user_id"`
	CredentialID string `cel:"credential_id"`
}

// celActivity is what a condition expression sees as `activity`.
type celActivity struct {
	Type     string         `cel:"type"`
	Resource string         `cel:"resource"`
	Action   string         `cel:"action"`
	Params   map[string]any `cel:"params"`
}

// fieldNames lists every struct field an expression can reach, for "did you
// mean" suggestions on a mistyped field.
var fieldNames = []string{"id", "name", "alias", "email", "tags", "type", "public_key",
	"user_id", "credential_id", "resource", "action", "params"}

// consensusVars and conditionVars are the keywords of each field.
var (
	consensusVars = []string{varApprovers, varCredentials}
	conditionVars = []string{varActivity, varWallet, varPrivateKey, varWalletAccount}
)

// dialect is the service's additions to CEL: `x.any(v, p)` (CEL's exists),
// `list.count()` and `map.count()` (CEL's size), and `list.contains(v)`
// (membership, beside CEL's string contains).
func dialect() []cel.EnvOption {
	listT := cel.ListType(cel.TypeParamType("T"))
	return []cel.EnvOption{
		cel.Macros(cel.ReceiverMacro("any", 2, parser.MakeExists)),
		cel.Function("count",
			cel.MemberOverload("vigil_list_count", []*cel.Type{listT}, cel.IntType,
				cel.UnaryBinding(sizeOf)),
			cel.MemberOverload("vigil_map_count",
				[]*cel.Type{cel.MapType(cel.TypeParamType("K"), cel.TypeParamType("V"))}, cel.IntType,
				cel.UnaryBinding(sizeOf)),
		),
		cel.Function("contains",
			cel.MemberOverload("vigil_list_contains", []*cel.Type{listT, cel.TypeParamType("T")}, cel.BoolType,
				cel.BinaryBinding(listContains)),
		),
	}
}

func sizeOf(v ref.Val) ref.Val {
	s, ok := v.(traits.Sizer)
	if !ok {
		return types.NewErr("count() needs a list or a map, got %s", v.Type().TypeName())
	}
	return s.Size()
}

func listContains(list, v ref.Val) ref.Val {
	c, ok := list.(traits.Container)
	if !ok {
		return types.NewErr("contains() needs a list or a string, got %s", list.Type().TypeName())
	}
	return c.Contains(v)
}

// envs holds the two checked environments. They are immutable once built, so
// they are built once and shared.
type envs struct {
	consensus, condition *cel.Env
}

var loadEnvs = sync.OnceValues(func() (envs, error) {
	common := []cel.EnvOption{
		ext.NativeTypes(ext.ParseStructTags(true), reflect.TypeFor[celUser](), reflect.TypeFor[celCredential](), reflect.TypeFor[celActivity]()),
		cel.CrossTypeNumericComparisons(true),
		cel.ParserRecursionLimit(MaxNestingDepth),
		cel.ParserExpressionSizeLimit(MaxExpressionLength),
		cel.ExpressionNodeLimit(maxExpressionNodes),
	}
	common = append(common, dialect()...)

	userT := cel.ObjectType("policy.celUser")
	credT := cel.ObjectType("policy.celCredential")
	activityT := cel.ObjectType("policy.celActivity")
	anyMap := cel.MapType(cel.StringType, cel.DynType)

	consensus, err := cel.NewEnv(append(common,
		cel.Variable(varApprovers, cel.ListType(userT)),
		cel.Variable(varCredentials, cel.ListType(credT)),
	)...)
	if err != nil {
		return envs{}, fmt.Errorf("policy: consensus environment: %w", err)
	}
	condition, err := cel.NewEnv(append(common,
		cel.Variable(varActivity, activityT),
		cel.Variable(varWallet, anyMap),
		cel.Variable(varPrivateKey, anyMap),
		cel.Variable(varWalletAccount, anyMap),
	)...)
	if err != nil {
		return envs{}, fmt.Errorf("policy: condition environment: %w", err)
	}
	return envs{consensus: consensus, condition: condition}, nil
})
