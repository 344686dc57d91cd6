package policy

import (
	"fmt"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/env"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/parser"
)

// Limits that keep a hostile policy from costing the service more than a
// well-behaved one. They are deliberately generous for real policies: an
// allowlist of a few hundred addresses fits in MaxExpressionLength, and the
// cost limit allows nested quantifiers over hundreds of approvers.
const (
	// MaxExpressionLength is the longest condition, consensus or time
	// accepted, in characters (at most 64 KiB of UTF-8). What bounds the
	// work is counted in characters or nodes too: the parser's size limit
	// (code points), maxExpressionNodes and CostLimit (CEL sizes strings
	// in code points), so a 4-byte character costs what an ASCII one does.
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

// Names the expressions see. Consensus, condition and time each see their
// own keywords, as in the real service's policy language.
const (
	varApprovers     = "approvers"
	varCredentials   = "credentials"
	varActivity      = "activity"
	varWallet        = "wallet"
	varWallets       = "wallets"
	varPrivateKey    = "private_key"
	varWalletAccount = "wallet_account"
	varSecret        = "secret"
	varEth           = "eth"
	varSolana        = "solana"
	varTron          = "tron"
	varBitcoin       = "bitcoin"
	varTempo         = "tempo"
	varTime          = "time"
)

// The keywords of each field.
var (
	consensusVars = []string{varApprovers, varCredentials}
	conditionVars = []string{varActivity, varEth, varSolana, varTron, varBitcoin, varTempo,
		varWallet, varWallets, varPrivateKey, varWalletAccount, varSecret}
	timeVars = []string{varTime}

	// keywordTypes are the struct types of the keywords that are one struct
	// (wallets, approvers and credentials are lists): the environments
	// declare them from here, and compile errors suggest their fields.
	keywordTypes = map[string]string{varActivity: typeActivity, varWallet: typeWallet, varPrivateKey: typePrivateKey,
		varWalletAccount: typeWalletAccount, varSecret: typeSecret, varEth: typeEth, varSolana: typeSolana, varTron: typeTron,
		varBitcoin: typeBitcoin, varTempo: typeTempo, varTime: typeTime}
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

// listContains compares as == does (equality.go): an element of another
// kind than v is an error, not "absent".
func listContains(list, v ref.Val) ref.Val {
	l, ok := list.(traits.Lister)
	if !ok {
		return types.NewErr("contains() needs a list or a string, got %s", list.Type().TypeName())
	}
	return listHas(l, v)
}

// envs holds the three checked environments and what evaluation needs to
// build values for them. They are immutable once built (zones is a bounded
// cache of the time zones computed CronSpan arguments name), so they are
// built once and shared.
type envs struct {
	consensus, condition, time *cel.Env
	// run holds, for each of the three, the environment its expressions are
	// planned in: the same extended with the strict logic of strict.go,
	// which a policy's text cannot call.
	run      map[*cel.Env]*cel.Env
	strict   *cel.StaticOptimizer
	provider *provider
	adapter  adapter
	zones    *zoneCache
}

var loadEnvs = sync.OnceValues(func() (envs, error) {
	reg, err := types.NewRegistry()
	if err != nil {
		return envs{}, fmt.Errorf("policy: type registry: %w", err)
	}
	ad := adapter{base: reg}
	prov := &provider{Registry: reg, structs: buildSchema(), adapter: ad}

	// CEL's own <, <=, > and >= and its arithmetic are replaced by ones that
	// also handle numbers beyond 64 bits (see number.go and arith.go).
	std := env.NewLibrarySubset().AddExcludedFunctions(append(arithmeticExcluded(),
		&env.Function{Name: operators.Less}, &env.Function{Name: operators.LessEquals},
		&env.Function{Name: operators.Greater}, &env.Function{Name: operators.GreaterEquals})...)
	common := []cel.EnvOption{
		cel.StdLib(cel.StdLibSubset(std)),
		cel.CustomTypeAdapter(ad),
		cel.CustomTypeProvider(prov),
		cel.ParserRecursionLimit(MaxNestingDepth),
		cel.ParserExpressionSizeLimit(MaxExpressionLength + 4096), // room for rewrite's additions
		cel.ExpressionNodeLimit(maxExpressionNodes),
	}
	common = append(common, dialect()...)
	common = append(common, accessFunctions()...)
	common = append(common, comparisonOperators()...)
	common = append(common, arithmeticOperators()...)

	obj := cel.ObjectType
	consensus, err := cel.NewCustomEnv(append(common,
		cel.Variable(varApprovers, cel.ListType(obj(typeUser))),
		cel.Variable(varCredentials, cel.ListType(obj(typeCredential))),
	)...)
	if err != nil {
		return envs{}, fmt.Errorf("policy: consensus environment: %w", err)
	}
	conditionDecls := []cel.EnvOption{cel.Variable(varWallets, cel.ListType(obj(typeWallet)))}
	for _, name := range conditionVars {
		if typ, ok := keywordTypes[name]; ok {
			conditionDecls = append(conditionDecls, cel.Variable(name, obj(typ)))
		}
	}
	condition, err := cel.NewCustomEnv(append(common, conditionDecls...)...)
	if err != nil {
		return envs{}, fmt.Errorf("policy: condition environment: %w", err)
	}
	timeEnv, err := cel.NewCustomEnv(append(append(common, timeFunctions()...),
		cel.Variable(varTime, obj(keywordTypes[varTime])),
		cel.Variable(varNow, cel.TimestampType),
	)...)
	if err != nil {
		return envs{}, fmt.Errorf("policy: time environment: %w", err)
	}
	run := make(map[*cel.Env]*cel.Env, 3)
	for _, e := range []*cel.Env{consensus, condition, timeEnv} {
		if run[e], err = e.Extend(strictFunctions()...); err != nil {
			return envs{}, fmt.Errorf("policy: evaluation environment: %w", err)
		}
	}
	strict, err := cel.NewStaticOptimizer(strictLogic{})
	if err != nil {
		return envs{}, fmt.Errorf("policy: strict evaluation: %w", err)
	}
	return envs{consensus: consensus, condition: condition, time: timeEnv, run: run, strict: strict,
		provider: prov, adapter: ad, zones: &zoneCache{}}, nil
})
