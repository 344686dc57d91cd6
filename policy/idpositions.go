package policy

import (
	"strings"

	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/parser"
)

// An expression names wallets, keys, accounts and policies by id as well as
// tags and users (wallet.id in ['…'], credentials.any(c, c.id == '…')): an
// id there that is no tag or user is right, and warning of it taught
// readers to skip the warning that matters, a mistyped tag in a consensus.
// The warning is a safety net, so it errs toward warning: an id-shaped
// literal that names nothing known is kept quiet only where it is provably
// another kind of id, compared with or looked up in a field that names a
// wallet, account, key, credential, policy or address. Everywhere else
// (an invitation's tags, a list of literals a loop checks, a position
// nobody foresaw) it is warned of.

// What an expression holds, as far as other kinds of ids go; a list kind
// is listOf its elements'.
const (
	kindOtherID = "other id" // a wallet, key, account, policy id or address: never a tag or user
	kindWallet  = "wallet"
	kindKey     = "private key"
	kindAccount = "wallet account"
	kindCred    = "credential"
	kindAct     = "activity"
	kindParam   = "activity parameter" // any value read from activity.params
	kindUser    = "user"               // an approver
	kindTagID   = "tag id"             // an element of a user's tags
	kindUserID  = "user id"            // a user's id
	listOf      = "list of "
)

// otherIDParams are the endings (snake_case) of the activity parameters
// that name something other than a tag or user.
var otherIDParams = []string{
	"wallet_id", "wallet_ids", "wallet_account_id", "wallet_account_ids",
	"private_key_id", "private_key_ids", "api_key_id", "api_key_ids",
	"authenticator_id", "authenticator_ids", "policy_id", "policy_ids",
	"endpoint_id", "endpoint_ids", "session_profile_id", "organization_id",
	"address", "addresses", "public_key", "public_keys",
	"leaf_id", "transfer_id", "operator_id",
}

// macroCalls bind their first argument to each element of their target.
var macroCalls = map[string]bool{"any": true, "all": true, "exists": true, "exists_one": true, "filter": true, "map": true}

// otherIDs is the set of string literal values that src uses only as ids of
// another kind than tags and users: every occurrence is compared with, or
// looked up in, such a field. It is empty when src cannot be read: what a
// literal is compared with is then unknown.
func otherIDs(src string) map[string]bool {
	w, ok := walkIDs(src)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	for v, ids := range w.uses {
		all := true
		for _, id := range ids {
			all = all && w.excused[id]
		}
		if all {
			out[v] = true
		}
	}
	return out
}

// How a comparison of a user's tags or id with a name reads (a name is
// never an id): never true (==, in, contains), always true (!=), or not told
// (under a `!`, a ternary, a function: what the comparison does to the
// whole is not followed).
const (
	comparedNever  = "never"
	comparedAlways = "always"
	comparedUntold = ""
)

// expectedID is where a literal is compared with a user's tags or id: the
// kind of id expected ("tag" or "user") and how the comparison reads
// (comparedNever…), untold when its uses differ.
type expectedID struct{ kind, compared string }

// expectedIDs maps each string literal value that src compares with, or
// looks up in, a user's tags or id to where (expectedID): a name written
// there is never equal to an id. It is empty when src cannot be read.
func expectedIDs(src string) map[string]expectedID {
	w, ok := walkIDs(src)
	if !ok {
		return nil
	}
	out := map[string]expectedID{}
	for v, ids := range w.uses {
		for _, id := range ids {
			var kind string
			switch w.expects[id] {
			case kindTagID:
				kind = "tag"
			case kindUserID:
				kind = "user"
			default:
				continue
			}
			compared := w.compared[id]
			if prev, seen := out[v]; seen && prev.compared != compared {
				compared = comparedUntold
			}
			out[v] = expectedID{kind: kind, compared: compared}
		}
	}
	return out
}

// walkIDs walks src's string literals; false when src cannot be read.
func walkIDs(src string) (*idWalk, bool) {
	rw, errs := rewrite(src)
	if len(errs) > 0 {
		return nil, false
	}
	p, err := parser.NewParser() // no macros: any(v, p) stays a call, its variable in sight
	if err != nil {
		return nil, false
	}
	parsed, iss := p.Parse(common.NewTextSource(rw.text))
	if iss != nil && len(iss.GetErrors()) > 0 {
		return nil, false
	}
	w := &idWalk{excused: map[int64]bool{}, expects: map[int64]string{}, compared: map[int64]string{}, uses: map[string][]int64{}}
	w.walk(parsed.Expr(), nil, true)
	return w, true
}

// idWalk records each string literal's occurrences (uses, by expression
// id), those that are provably another kind of id (excused), and those
// compared with a user's tags or id (expects: kindTagID or kindUserID), and
// how those comparisons read (compared).
type idWalk struct {
	excused  map[int64]bool
	expects  map[int64]string
	compared map[int64]string
	uses     map[string][]int64
}

// scope is the macro variables in sight, innermost last.
type scope []struct{ name, kind string }

func (s scope) kindOf(name string) (string, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].name == name {
			return s[i].kind, true
		}
	}
	return "", false
}

func (s scope) with(name, kind string) scope {
	return append(s[:len(s):len(s)], struct{ name, kind string }{name, kind})
}

// elemKind is the kind of an element of a value of kind k: an id list's
// are ids, a parameter's parts are parameters.
func elemKind(k string) string {
	switch {
	case strings.HasPrefix(k, listOf):
		return k[len(listOf):]
	case k == kindOtherID, k == kindParam:
		return k
	}
	return ""
}

// kind is what e holds, "" when it is nothing this file follows.
func (w *idWalk) kind(e ast.Expr, s scope) string {
	switch e.Kind() {
	case ast.IdentKind:
		name := e.AsIdent()
		if k, ok := s.kindOf(name); ok {
			return k // a loop variable shadows a keyword
		}
		switch name {
		case varWallet:
			return kindWallet
		case varWallets:
			return listOf + kindWallet
		case varPrivateKey:
			return kindKey
		case varWalletAccount:
			return kindAccount
		case varCredentials:
			return listOf + kindCred
		case varActivity:
			return kindAct
		case varApprovers:
			return listOf + kindUser
		}
	case ast.SelectKind:
		sel := e.AsSelect()
		if sel.IsTestOnly() {
			return ""
		}
		return fieldKind(w.kind(sel.Operand(), s), sel.FieldName())
	case ast.CallKind:
		call := e.AsCall()
		if !call.IsMemberFunction() {
			return ""
		}
		target, args := call.Target(), call.Args()
		switch call.FunctionName() {
		case fnIndex:
			k := w.kind(target, s)
			if k == kindParam && len(args) == 1 {
				if name, ok := stringLiteral(args[0]); ok {
					return fieldKind(k, name) // activity.params['wallet_id']
				}
			}
			return elemKind(k)
		case fnSlice, "filter":
			return w.kind(target, s)
		case "map":
			if n := len(args); (n == 2 || n == 3) && args[0].Kind() == ast.IdentKind {
				elem := elemKind(w.kind(target, s))
				if k := w.kind(args[n-1], s.with(args[0].AsIdent(), elem)); k != "" {
					return listOf + k
				}
			}
		}
	}
	return ""
}

// fieldKind is what field of a value of kind holds.
func fieldKind(kind, field string) string {
	switch kind {
	case kindWallet:
		if field == "id" {
			return kindOtherID
		}
	case kindKey:
		if field == "id" || field == "tags" { // a key's tags are private key tags, not user tags
			return kindOtherID
		}
	case kindAccount:
		return kindOtherID
	case kindCred:
		if field == "id" || field == "credential_id" || field == "public_key" {
			return kindOtherID
		}
	case kindAct:
		switch field {
		case "params":
			return kindParam
		case "type", "kind", "resource", "action":
			return kindOtherID // names, never an id
		}
	case kindUser:
		switch field {
		case "id":
			return kindUserID
		case "tags":
			return listOf + kindTagID
		}
	case kindParam:
		name := snakeCase(field)
		for _, end := range otherIDParams {
			if name == end || strings.HasSuffix(name, "_"+end) {
				return kindOtherID
			}
		}
		return kindParam
	}
	return ""
}

// excuse marks e, when it is a string literal, as another kind of id when
// kind says it is compared with one, and as where a tag or user id is
// expected when kind is one of those, the comparison reading compared.
func (w *idWalk) excuse(e ast.Expr, kind, compared string) {
	if _, ok := stringLiteral(e); !ok {
		return
	}
	switch kind {
	case kindOtherID:
		w.excused[e.ID()] = true
	case kindTagID, kindUserID:
		w.expects[e.ID()] = kind
		w.compared[e.ID()] = compared
	}
}

func (w *idWalk) excuseEach(list ast.Expr, kind, compared string) {
	if list.Kind() != ast.ListKind {
		return
	}
	for _, el := range list.AsList().Elements() {
		w.excuse(el, kind, compared)
	}
}

// reading is how a comparison with a name reads where the truth of a
// comparison is the truth it adds to the whole (plain; see walk): positive
// (==, in, contains) never true, negated (!=) always true; untold elsewhere.
func reading(plain, negated bool) string {
	switch {
	case !plain:
		return comparedUntold
	case negated:
		return comparedAlways
	}
	return comparedNever
}

// walk records the string literals in e and below, and excuses those
// compared with another kind of id. plain is whether e's truth counts
// toward the whole as is: only && and ||, and the predicates of any, all,
// exists and filter, pass it down; a `!`, a ternary or any other call
// hides it.
func (w *idWalk) walk(e ast.Expr, s scope, plain bool) {
	switch e.Kind() {
	case ast.LiteralKind:
		if v, ok := stringLiteral(e); ok {
			w.uses[v] = append(w.uses[v], e.ID())
		}
	case ast.SelectKind:
		w.walk(e.AsSelect().Operand(), s, false)
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.walk(el, s, false)
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			w.walk(en.AsMapEntry().Key(), s, false)
			w.walk(en.AsMapEntry().Value(), s, false)
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			w.walk(f.AsStructField().Value(), s, false)
		}
	case ast.CallKind:
		w.call(e.AsCall(), s, plain)
	}
}

// plainPredicates are the macros whose predicate's truth counts toward
// theirs as is (exists_one's does not: two matches make it false).
var plainPredicates = map[string]bool{"any": true, "all": true, "exists": true, "filter": true}

func (w *idWalk) call(call ast.CallExpr, s scope, plain bool) {
	args := call.Args()
	member := call.IsMemberFunction()
	fn := call.FunctionName()
	switch {
	case (fn == operators.Equals || fn == operators.NotEquals) && len(args) == 2:
		compared := reading(plain, fn == operators.NotEquals)
		w.excuse(args[1], w.kind(args[0], s), compared)
		w.excuse(args[0], w.kind(args[1], s), compared)
	case fn == operators.In && len(args) == 2:
		compared := reading(plain, false)
		w.excuseEach(args[1], w.kind(args[0], s), compared)
		w.excuse(args[0], elemKind(w.kind(args[1], s)), compared)
	case fn == "contains" && member && len(args) == 1:
		compared := reading(plain, false)
		w.excuse(args[0], elemKind(w.kind(call.Target(), s)), compared)
		w.excuseEach(call.Target(), w.kind(args[0], s), compared)
	case (fn == "startsWith" || fn == "endsWith") && member && len(args) == 1:
		w.excuse(args[0], w.kind(call.Target(), s), comparedUntold)
	case macroCalls[fn] && member && (len(args) == 2 || len(args) == 3) && args[0].Kind() == ast.IdentKind:
		// the predicate, and map's transform (map(x, filter, expr) too)
		w.walk(call.Target(), s, false)
		inner := s.with(args[0].AsIdent(), elemKind(w.kind(call.Target(), s)))
		for _, a := range args[1:] {
			w.walk(a, inner, plain && plainPredicates[fn] && len(args) == 2)
		}
		return
	}
	passes := plain && (fn == operators.LogicalAnd || fn == operators.LogicalOr)
	if member {
		w.walk(call.Target(), s, false)
	}
	for _, a := range args {
		w.walk(a, s, passes)
	}
}
