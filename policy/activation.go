package policy

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// payloadRoots maps each payload keyword to its root keyword and field.
var payloadRoots = map[string][2]string{
	PayloadEthTx:      {varEth, "tx"},
	PayloadEthEIP712:  {varEth, "eip_712"},
	PayloadEthEIP7702: {varEth, "eip_7702_authorization"},
	PayloadSolanaTx:   {varSolana, "tx"},
	PayloadTronTx:     {varTron, "tx"},
	PayloadBitcoinTx:  {varBitcoin, "tx"},
	PayloadTempoTx:    {varTempo, "tx"},
}

// rootTypes is the struct type of each root keyword holding payloads.
var rootTypes = map[string]string{varEth: typeEth, varSolana: typeSolana, varTron: typeTron, varBitcoin: typeBitcoin, varTempo: typeTempo}

// approverList is the approvers keyword's value.
func approverList(e envs, approvers []Approver) ref.Val {
	users := make([]any, len(approvers))
	for i, a := range approvers {
		tags := make([]any, len(a.Tags))
		for j, t := range a.Tags {
			tags[j] = t
		}
		users[i] = &record{typ: typeUser, fields: map[string]ref.Val{
			"id": types.String(a.ID), "name": types.String(a.Name), "alias": types.String(a.Name),
			"email": types.String(a.Email), "tags": types.NewDynamicList(e.adapter, tags)}}
	}
	return types.NewDynamicList(e.adapter, users)
}

// activation converts an Input into the variables the expressions see,
// checking every payload against the documented structs.
func (in Input) activation() (*activation, error) {
	e, err := loadEnvs()
	if err != nil {
		return nil, err
	}
	rec := &recorder{}
	c := converter{e: e}
	vars := make(map[string]any, 16)
	absent := map[string]bool{}

	vars[varApprovers] = approverList(e, in.Approvers)
	creds := make([]any, len(in.Credentials))
	for i, cr := range in.Credentials {
		creds[i] = &record{typ: typeCredential, fields: map[string]ref.Val{
			"id": types.String(cr.ID), "type": types.String(cr.Type), "public_key": types.String(cr.PublicKey),
			"user_id": types.String(cr.UserID), "credential_id": types.String(cr.CredentialID)}}
	}
	vars[varCredentials] = types.NewDynamicList(e.adapter, creds)

	params := in.Activity.Params
	if params == nil {
		params = map[string]any{}
	}
	act := in.Activity
	// An Activity built by hand (not by ActivityFor) gets what its type implies.
	if act.Kind == "" {
		act.Kind = KindOf(act.Type)
	}
	if act.Resource == "" && act.Action == "" {
		act.Resource, act.Action, _ = ResourceAction(act.Type)
	}
	if params, err = c.typedParams(act.Type, params); err != nil {
		return nil, err
	}
	vars[varActivity] = &record{typ: typeActivity, fields: map[string]ref.Val{
		"type": types.String(act.Type), "kind": types.String(act.Kind),
		"resource": types.String(act.Resource), "action": types.String(act.Action),
		"params": ordered(types.NewStringInterfaceMap(e.adapter, params))}}

	for _, t := range []struct {
		name, typ string
		m         map[string]any
	}{{varWallet, typeWallet, in.Wallet}, {varPrivateKey, typePrivateKey, in.PrivateKey}, {varWalletAccount, typeWalletAccount, in.WalletAccount},
		{varSecret, typeSecret, in.Secret}} {
		if t.m == nil {
			vars[t.name] = &record{typ: t.typ, missing: t.name, rec: rec}
			absent[t.name] = true
			continue
		}
		r, err := c.record(t.typ, t.m, t.name)
		if err != nil {
			return nil, err
		}
		vars[t.name] = r
	}
	if in.Wallets != nil {
		ws := make([]any, len(in.Wallets))
		for i, w := range in.Wallets {
			r, err := c.record(typeWallet, w, fmt.Sprintf("wallets[%d]", i))
			if err != nil {
				return nil, err
			}
			ws[i] = r
		}
		vars[varWallets] = types.NewDynamicList(e.adapter, ws)
	} else {
		absent[varWallets] = true
	}

	roots := map[string]*record{}
	for root, typ := range rootTypes {
		roots[root] = &record{typ: typ, fields: map[string]ref.Val{}}
		vars[root] = roots[root]
	}
	for kw, where := range payloadRoots {
		m, ok := in.Payloads[kw]
		var v *record
		if !ok || m == nil {
			v = &record{typ: e.provider.structs[rootTypes[where[0]]].fields[where[1]].decl, missing: kw, rec: rec}
			absent[kw] = true
		} else {
			if v, err = c.record(e.provider.structs[rootTypes[where[0]]].fields[where[1]].decl, m, kw); err != nil {
				return nil, err
			}
		}
		roots[where[0]].fields[where[1]] = recordVal{v}
	}
	for kw := range in.Payloads {
		if _, ok := payloadRoots[kw]; !ok {
			return nil, fmt.Errorf("unknown payload %q: the payloads are %s", kw, strings.Join(payloadKeywords(), ", "))
		}
	}

	if !in.Now.IsZero() {
		now := types.Timestamp{Time: in.Now.UTC()}
		vars[varTime] = &record{typ: typeTime, fields: map[string]ref.Val{"now": now}}
		vars[varNow] = now
	}
	return &activation{vars: vars, rec: rec, absent: absent, activityFields: map[string]string{
		"type": act.Type, "kind": act.Kind, "resource": act.Resource, "action": act.Action,
	}}, nil
}

func payloadKeywords() []string {
	out := make([]string, 0, len(payloadRoots))
	for k := range payloadRoots {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// converter turns JSON-like Go values into language values, checked
// against the schema. A lenient one skips the keys a struct does not have
// (activity.params keeps camelCase spellings beside the documented ones);
// a strict one refuses them.
type converter struct {
	e       envs
	lenient bool
}

func (c converter) record(typ string, m map[string]any, path string) (*record, error) {
	spec, ok := c.e.provider.structs[typ]
	if !ok {
		return nil, fmt.Errorf("%s: unknown type %s", path, typ)
	}
	r := &record{typ: typ, fields: make(map[string]ref.Val, len(m))}
	for k, v := range m {
		name, f, ok := k, fieldSpec{}, false
		if c.lenient {
			// A Spark field as submitted (camelCase) fills its documented
			// field, unless the documented spelling is given as well.
			name, f, ok = structField(typ, k)
			if _, both := m[name]; ok && name != k && both {
				continue
			}
		} else {
			f, ok = spec.fields[k]
		}
		if !ok && c.lenient {
			continue
		}
		if !ok {
			return nil, fmt.Errorf("%s: a %s has no field %q (its fields: %s)", path, typ, k, strings.Join(spec.names, ", "))
		}
		if v == nil {
			continue // absent
		}
		val, err := c.value(f.decl, v, path+"."+k)
		if err != nil {
			return nil, err
		}
		if caseInsensitive[typ][name] {
			val = lowerASCII(val)
		}
		r.fields[name] = val
	}
	if typ == typeSolanaParsed {
		if err := fillNamedAccounts(r, path); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (c converter) value(decl string, v any, path string) (ref.Val, error) {
	wrong := func() (ref.Val, error) {
		return nil, fmt.Errorf("%s: want %s, got %T", path, decl, v)
	}
	switch {
	case decl == "string":
		s, ok := v.(string)
		if !ok {
			return wrong()
		}
		return types.String(s), nil
	case decl == "bool":
		b, ok := v.(bool)
		if !ok {
			return wrong()
		}
		return types.Bool(b), nil
	case decl == "int" || decl == "uint" || decl == "number":
		n, ok := toBig(v)
		if !ok {
			return wrong()
		}
		if decl == "uint" && n.Sign() < 0 || n.CmpAbs(maxUint256) > 0 {
			return nil, fmt.Errorf("%s: %s is out of range for %s", path, n, decl)
		}
		return numberOf(n), nil
	case decl == "dyn":
		return c.dyn(v, path)
	case decl == "timestamp":
		return wrong()
	case strings.HasPrefix(decl, "list<"):
		elem := strings.TrimSuffix(strings.TrimPrefix(decl, "list<"), ">")
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			return wrong()
		}
		out := make([]ref.Val, rv.Len())
		for i := range out {
			x, err := c.value(elem, rv.Index(i).Interface(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return types.NewRefValList(c.e.adapter, out), nil
	case strings.HasPrefix(decl, "map<string,"):
		elem := strings.TrimSuffix(strings.TrimPrefix(decl, "map<string,"), ">")
		m, ok := asStringMap(v)
		if !ok {
			return wrong()
		}
		out := make(map[string]any, len(m))
		for k, x := range m {
			val, err := c.value(elem, x, fmt.Sprintf("%s['%s']", path, k))
			if err != nil {
				return nil, err
			}
			out[k] = val
		}
		return ordered(types.NewStringInterfaceMap(c.e.adapter, out)), nil
	}
	m, ok := asStringMap(v)
	if !ok {
		return wrong()
	}
	r, err := c.record(decl, m, path)
	if err != nil {
		return nil, err
	}
	return recordVal{r}, nil
}

// dyn converts a JSON-like value of any shape (contract arguments, EIP-712
// messages): numbers become ints (exact beyond 64 bits) or doubles.
func (c converter) dyn(v any, path string) (ref.Val, error) {
	switch t := v.(type) {
	case nil:
		return types.NullValue, nil
	case string:
		return types.String(t), nil
	case bool:
		return types.Bool(t), nil
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return types.Int(int64(t)), nil
		}
		return types.Double(t), nil
	case json.Number:
		if n, ok := toBig(t); ok {
			return numberOf(n), nil
		}
		f, err := t.Float64()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return types.Double(f), nil
	}
	if n, ok := toBig(v); ok {
		if _, isString := v.(string); !isString {
			return numberOf(n), nil
		}
	}
	if m, ok := asStringMap(v); ok {
		out := make(map[string]any, len(m))
		for k, x := range m {
			val, err := c.dyn(x, path+"['"+k+"']")
			if err != nil {
				return nil, err
			}
			out[k] = val
		}
		return ordered(types.NewStringInterfaceMap(c.e.adapter, out)), nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		out := make([]ref.Val, rv.Len())
		for i := range out {
			x, err := c.dyn(rv.Index(i).Interface(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return types.NewRefValList(c.e.adapter, out), nil
	}
	return nil, fmt.Errorf("%s: unsupported value %T", path, v)
}

func asStringMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[string]string:
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[k] = x
		}
		return out, true
	}
	return nil, false
}

// toBig reads an integer given as a Go integer, a whole float, a
// json.Number, a *big.Int or a decimal string.
func toBig(v any) (*big.Int, bool) {
	switch t := v.(type) {
	case int:
		return big.NewInt(int64(t)), true
	case int8, int16, int32, int64:
		return big.NewInt(reflect.ValueOf(t).Int()), true
	case uint, uint8, uint16, uint32, uint64:
		return new(big.Int).SetUint64(reflect.ValueOf(t).Uint()), true
	case float64:
		if t != math.Trunc(t) || math.IsInf(t, 0) {
			return nil, false
		}
		n, _ := big.NewFloat(t).Int(nil)
		return n, true
	case *big.Int:
		if t == nil {
			return nil, false
		}
		return new(big.Int).Set(t), true
	case json.Number:
		return new(big.Int).SetString(string(t), 10)
	case string:
		return new(big.Int).SetString(t, 10)
	}
	return nil, false
}
