package api_test

// A mutation fuzz of the vote checks (first run by audit 195): honest activities of several operations in an organization of
// P-256, secp256k1 and Ed25519 root members (requester + approvals + a
// rejection), many random single and double mutations of their
// get_activity replies as a proxy would make them, and an oracle of what
// a vote's "verified" may not survive.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// ---- an ordered JSON tree (keeps key order and duplicate keys) ----

type fzNode struct {
	kind  byte // 'o', 'a', 's' (scalar: raw JSON text)
	keys  []string
	vals  []*fzNode
	elems []*fzNode
	raw   string
}

func fzParse(b []byte) *fzNode {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := fzParseDec(dec)
	if err != nil {
		panic(err)
	}
	return n
}

func fzParseDec(dec *json.Decoder) (*fzNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n := &fzNode{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := fzParseDec(dec)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, kt.(string))
				n.vals = append(n.vals, v)
			}
			_, err := dec.Token()
			return n, err
		}
		n := &fzNode{kind: 'a'}
		for dec.More() {
			v, err := fzParseDec(dec)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
		}
		_, err := dec.Token()
		return n, err
	case string:
		return fzStr(t), nil
	case json.Number:
		return &fzNode{kind: 's', raw: t.String()}, nil
	case bool:
		return &fzNode{kind: 's', raw: strconv.FormatBool(t)}, nil
	case nil:
		return &fzNode{kind: 's', raw: "null"}, nil
	}
	return nil, fmt.Errorf("token %v", tok)
}

func fzQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func fzStr(s string) *fzNode { return &fzNode{kind: 's', raw: fzQuote(s)} }

func (n *fzNode) clone() *fzNode {
	c := &fzNode{kind: n.kind, raw: n.raw, keys: append([]string(nil), n.keys...)}
	for _, v := range n.vals {
		c.vals = append(c.vals, v.clone())
	}
	for _, v := range n.elems {
		c.elems = append(c.elems, v.clone())
	}
	return c
}

func (n *fzNode) write(b *bytes.Buffer, pretty bool, depth int) {
	nl := func(d int) {
		if pretty {
			b.WriteString("\n" + strings.Repeat("  ", d))
		}
	}
	switch n.kind {
	case 's':
		b.WriteString(n.raw)
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			b.WriteString(fzQuote(k))
			b.WriteByte(':')
			if pretty {
				b.WriteByte(' ')
			}
			n.vals[i].write(b, pretty, depth+1)
		}
		if len(n.keys) > 0 {
			nl(depth)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			e.write(b, pretty, depth+1)
		}
		if len(n.elems) > 0 {
			nl(depth)
		}
		b.WriteByte(']')
	}
}

func (n *fzNode) bytes(pretty bool) []byte {
	var b bytes.Buffer
	n.write(&b, pretty, 0)
	return b.Bytes()
}

func (n *fzNode) get(k string) *fzNode {
	if n == nil || n.kind != 'o' {
		return nil
	}
	for i, kk := range n.keys {
		if kk == k {
			return n.vals[i]
		}
	}
	return nil
}

func (n *fzNode) set(k string, v *fzNode) {
	for i, kk := range n.keys {
		if kk == k {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, k)
	n.vals = append(n.vals, v)
}

func (n *fzNode) del(k string) bool {
	for i, kk := range n.keys {
		if kk == k {
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			n.vals = append(n.vals[:i:i], n.vals[i+1:]...)
			return true
		}
	}
	return false
}

func (n *fzNode) strVal() (string, bool) {
	if n == nil || n.kind != 's' || !strings.HasPrefix(n.raw, `"`) {
		return "", false
	}
	var s string
	if json.Unmarshal([]byte(n.raw), &s) != nil {
		return "", false
	}
	return s, true
}

// fzSlot is a place in the tree: a member of an object or an element of an
// array.
type fzSlot struct {
	parent *fzNode
	i      int
	path   string
}

func (s fzSlot) node() *fzNode {
	if s.parent.kind == 'o' {
		return s.parent.vals[s.i]
	}
	return s.parent.elems[s.i]
}

func (s fzSlot) put(v *fzNode) {
	if s.parent.kind == 'o' {
		s.parent.vals[s.i] = v
	} else {
		s.parent.elems[s.i] = v
	}
}

func (s fzSlot) remove() {
	if s.parent.kind == 'o' {
		s.parent.keys = append(s.parent.keys[:s.i:s.i], s.parent.keys[s.i+1:]...)
		s.parent.vals = append(s.parent.vals[:s.i:s.i], s.parent.vals[s.i+1:]...)
	} else {
		s.parent.elems = append(s.parent.elems[:s.i:s.i], s.parent.elems[s.i+1:]...)
	}
}

func fzSlots(n *fzNode, path string, out *[]fzSlot) {
	switch n.kind {
	case 'o':
		for i, k := range n.keys {
			p := path + "." + k
			*out = append(*out, fzSlot{n, i, p})
			fzSlots(n.vals[i], p, out)
		}
	case 'a':
		for i, e := range n.elems {
			p := fmt.Sprintf("%s[%d]", path, i)
			*out = append(*out, fzSlot{n, i, p})
			fzSlots(e, p, out)
		}
	}
}

func fzObjects(n *fzNode, out *[]*fzNode) {
	switch n.kind {
	case 'o':
		*out = append(*out, n)
		for _, v := range n.vals {
			fzObjects(v, out)
		}
	case 'a':
		*out = append(*out, n) // arrays too, for "add an element"
		for _, v := range n.elems {
			fzObjects(v, out)
		}
	}
}

// ---- the honest activities ----

type fzVoter struct {
	name   string
	key    *keys.Key
	id     string
	client *api.Client
}

type fzWorld struct {
	demo   *servertest.Demo
	org    string
	voters []*fzVoter
	byID   map[string]*fzVoter
	acts   []fzAct
	users  []api.User
	types  []string
}

type fzAct struct {
	name      string
	id        string
	raw       []byte        // the honest get_activity reply, as sent
	honest    *api.Activity // decoded exactly
	requester string
}

func fzSetup(t *testing.T) *fzWorld {
	t.Helper()
	ctx := context.Background()
	demo := servertest.StartDemo(t)
	w := &fzWorld{demo: demo, byID: map[string]*fzVoter{}}
	specs := []struct{ name, scheme string }{
		{"pat", keys.SchemeP256}, {"kai", keys.SchemeSecp256k1}, {"eve", keys.SchemeEd25519},
		{"rob", keys.SchemeP256}, {"sam", keys.SchemeSecp256k1}, {"ned", keys.SchemeEd25519},
	}
	var users []server.UserSpec
	for _, s := range specs {
		k, err := keys.Generate(s.scheme)
		if err != nil {
			t.Fatal(err)
		}
		w.voters = append(w.voters, &fzVoter{name: s.name, key: k})
		users = append(users, server.UserSpec{Name: s.name, Email: s.name + "@example.com", Root: true,
			APIKeys: []server.APIKeySpec{{Name: s.name + "-key", PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}})
	}
	org, err := demo.Server.CreateOrganization(ctx, "fuzz org", 4, users)
	if err != nil {
		t.Fatal(err)
	}
	w.org = org.ID
	for _, v := range w.voters {
		v.id = org.UserIDs[v.name]
		if v.id == "" {
			t.Fatalf("no id for %s: %v", v.name, org.UserIDs)
		}
		if v.client, err = api.NewClient(demo.URL, org.ID, v.key, api.WithExactStrings()); err != nil {
			t.Fatal(err)
		}
		w.byID[v.id] = v
	}
	_, accounts, err := demo.Server.AddWallet(ctx, org.ID, "fuzz wallet", []server.WalletAccountSpec{
		{Address: "0x1111111111111111111111111111111111111111", Exported: true},
		{Address: "0x2222222222222222222222222222222222222222", Exported: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	ids := func(names ...string) []string {
		var out []string
		for _, n := range names {
			for _, v := range w.voters {
				if v.name == n {
					out = append(out, v.id)
				}
			}
		}
		return out
	}
	type submit = func(c *api.Client, me string) (*api.Activity, error)
	cases := []struct {
		name string
		s    submit
	}{
		{"create_user_tag", func(c *api.Client, me string) (*api.Activity, error) {
			return c.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "fuzz ops", UserIDs: ids("kai", "eve")})
		}},
		{"create_policy", func(c *api.Client, me string) (*api.Activity, error) {
			return c.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "Deny tags", Effect: api.EffectDeny,
				Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.count() >= 2", Notes: "line 1\nline 2"})
		}},
		{"set_organization_feature", func(c *api.Client, me string) (*api.Activity, error) {
			return c.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: "https://hooks.example.com/x"})
		}},
		{"create_invitations", func(c *api.Client, me string) (*api.Activity, error) {
			return c.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{
				{ReceiverUserName: "dave", ReceiverUserEmail: "dave@example.com", ReceiverUserTags: []string{}, AccessType: api.AccessTypeAll, SenderUserID: me},
				{ReceiverUserName: "erin", ReceiverUserEmail: "erin@example.com", ReceiverUserTags: []string{}, AccessType: api.AccessTypeWeb, SenderUserID: me}}})
		}},
		{"delete_wallet_accounts", func(c *api.Client, me string) (*api.Activity, error) {
			return c.DeleteWalletAccounts(ctx, api.DeleteWalletAccountsParams{WalletAccountIDs: accounts, DeleteWithoutExport: &yes})
		}},
		{"create_mfa_policy", func(c *api.Client, me string) (*api.Activity, error) {
			return c.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: ids("rob")[0], MfaPolicyName: "two steps",
				Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS'", Order: 2,
				RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthEmailOTP}, {Type: api.AuthAPIKey}}}}})
		}},
		{"create_read_only_session", func(c *api.Client, me string) (*api.Activity, error) {
			return c.CreateReadOnlySession(ctx)
		}},
		{"create_smart_contract_interface", func(c *api.Client, me string) (*api.Activity, error) {
			return c.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{SmartContractAddress: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
				SmartContractInterface: `[{"type":"function","name":"transfer"}]`, Type: api.SmartContractInterfaceEthereum, Label: "DAI"})
		}},
	}
	n := len(w.voters)
	for i, c := range cases {
		req := w.voters[i%n]
		act, err := c.s(req.client, req.id)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// two approvals and a rejection by members of other schemes
		for j, vote := range []bool{true, false, true} {
			v := w.voters[(i+1+j)%n]
			if vote {
				_, err = v.client.ApproveActivity(ctx, act.Fingerprint)
			} else {
				_, err = v.client.RejectActivity(ctx, act.Fingerprint)
			}
			if err != nil {
				t.Fatalf("%s: %s votes: %v", c.name, v.name, err)
			}
		}
		raw, err := req.client.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: org.ID, ActivityID: act.ID})
		if err != nil {
			t.Fatal(err)
		}
		got, err := req.client.GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Votes) != 4 {
			t.Fatalf("%s: %d votes (%s), want 4", c.name, len(got.Votes), got.Status)
		}
		for k, c := range api.CheckVotes(*got) {
			if c.State != api.VoteVerified {
				t.Fatalf("%s: honest vote %d: %+v", c, k, c)
			}
		}
		w.acts = append(w.acts, fzAct{name: c.name, id: act.ID, raw: raw, honest: got, requester: req.id})
		w.types = append(w.types, got.Type)
	}
	if w.users, err = w.voters[0].client.ListUsers(ctx); err != nil {
		t.Fatal(err)
	}
	return w
}

// ---- mutations ----

type fzMut struct {
	class string // a short class name
	desc  string
}

func fzPick[T any](r *rand.Rand, xs []T) T { return xs[r.Intn(len(xs))] }

var fzLookalike = map[rune]string{'a': "а", 'e': "е", 'o': "о", 'p': "р", 'c': "с", 'x': "х", 'i': "і", 's': "ѕ", 'y': "у"}

func fzTweakString(r *rand.Rand, s string) (string, string) {
	switch r.Intn(9) {
	case 0:
		return s + "x", "append a char"
	case 1:
		if s == "" {
			return "x", "fill empty"
		}
		return "", "empty"
	case 2:
		for i, c := range s {
			if l, ok := fzLookalike[c]; ok {
				return s[:i] + l + s[i+utf8.RuneLen(c):], "unicode look-alike"
			}
		}
		return s + "\u200b", "zero-width space"
	case 3:
		if u := strings.ToUpper(s); u != s {
			return u, "upper-case"
		}
		return strings.ToLower(s) + "Z", "case"
	case 4:
		return " " + s, "leading space"
	case 5:
		return s + "\n", "trailing newline"
	case 6:
		if len(s) > 1 {
			return s[:len(s)-1], "truncate"
		}
		return s + s, "double"
	case 7:
		if q := strings.Trim(strconv.QuoteToASCII(s), `"`); q != s {
			return q, "its escaped spelling as text"
		}
		return strings.Replace(s, "'", "\"", 1) + "", "quote swap"
	default:
		return "EVIL", "replace"
	}
}

// fzMutateValue changes one node in place (returns a description) or
// returns the replacement.
func fzMutateValue(r *rand.Rand, w *fzWorld, slot fzSlot) string {
	n := slot.node()
	switch n.kind {
	case 's':
		if s, ok := n.strVal(); ok {
			switch r.Intn(6) {
			case 0:
				if _, err := strconv.ParseFloat(s, 64); err == nil {
					slot.put(&fzNode{kind: 's', raw: s})
					return "numeric string as a number"
				}
				slot.put(&fzNode{kind: 's', raw: "null"})
				return "string to null"
			case 1:
				v := fzPick(r, w.voters)
				slot.put(fzStr(v.id))
				return "string to a user id"
			default:
				t, d := fzTweakString(r, s)
				slot.put(fzStr(t))
				return "string: " + d
			}
		}
		switch n.raw {
		case "true":
			slot.put(&fzNode{kind: 's', raw: fzPick(r, []string{"false", `"true"`, "null", "1"})})
			return "bool true changed"
		case "false":
			slot.put(&fzNode{kind: 's', raw: fzPick(r, []string{"true", `"false"`, "null", "0"})})
			return "bool false changed"
		case "null":
			slot.put(&fzNode{kind: 's', raw: fzPick(r, []string{`""`, "[]", "{}", "true"})})
			return "null changed"
		}
		// a number
		slot.put(&fzNode{kind: 's', raw: fzPick(r, []string{strconv.Quote(n.raw), n.raw + "1", "0", "-" + n.raw, n.raw + ".0", n.raw + "e0"})})
		return "number changed"
	case 'a':
		switch r.Intn(6) {
		case 0:
			if len(n.elems) > 0 {
				i := r.Intn(len(n.elems))
				n.elems = append(n.elems[:i:i], n.elems[i+1:]...)
				return "array: drop an element"
			}
			n.elems = append(n.elems, fzStr(fzPick(r, w.voters).id))
			return "array: add to empty"
		case 1:
			if len(n.elems) > 0 {
				n.elems = append(n.elems, n.elems[r.Intn(len(n.elems))].clone())
				return "array: duplicate an element"
			}
			n.elems = append(n.elems, fzStr("x"))
			return "array: add to empty"
		case 2:
			if len(n.elems) > 1 {
				n.elems[0], n.elems[len(n.elems)-1] = n.elems[len(n.elems)-1], n.elems[0]
				return "array: swap first and last"
			}
			slot.put(&fzNode{kind: 's', raw: "null"})
			return "array: to null"
		case 3:
			slot.put(&fzNode{kind: 'a'})
			return "array: emptied"
		case 4:
			if len(n.elems) > 0 {
				slot.put(n.elems[0].clone())
				return "array: to its first element"
			}
			slot.put(&fzNode{kind: 's', raw: "null"})
			return "array: to null"
		default:
			n.elems = append(n.elems, fzStr(fzPick(r, w.voters).id))
			return "array: append a user id"
		}
	case 'o':
		switch r.Intn(3) {
		case 0:
			slot.put(&fzNode{kind: 'o'})
			return "object: emptied"
		case 1:
			slot.put(&fzNode{kind: 's', raw: "null"})
			return "object: to null"
		default:
			slot.put(&fzNode{kind: 'a', elems: []*fzNode{n}})
			return "object: wrapped in an array"
		}
	}
	return "nothing"
}

func fzKeyVariant(r *rand.Rand, k string) (string, string) {
	switch r.Intn(5) {
	case 0:
		return strings.ToUpper(k[:1]) + k[1:], "key: capitalised"
	case 1:
		return strings.ToUpper(k), "key: upper-case"
	case 2:
		if strings.Contains(k, "s") {
			return strings.Replace(k, "s", "ſ", 1), "key: long s (folds to s)"
		}
		if strings.Contains(k, "k") {
			return strings.Replace(k, "k", "\u212a", 1), "key: Kelvin sign (folds to k)"
		}
		return k + "\u200b", "key: zero-width"
	case 3:
		for i, c := range k {
			if l, ok := fzLookalike[c]; ok {
				return k[:i] + l + k[i+utf8.RuneLen(c):], "key: cyrillic look-alike"
			}
		}
		return k + "_", "key: suffix"
	default:
		return " " + k, "key: leading space"
	}
}

// fzObjectMembers keeps the slots that are members of an object (not array
// elements): the ones whose key can be respelt or repeated.
func fzObjectMembers(slots []fzSlot) []fzSlot {
	var members []fzSlot
	for _, s := range slots {
		if s.parent.kind == 'o' {
			members = append(members, s)
		}
	}
	return members
}

// fzMutateIntent applies one mutation to the intent object.
func fzMutateIntent(r *rand.Rand, w *fzWorld, act, intent *fzNode) fzMut {
	var slots []fzSlot
	fzSlots(intent, "intent", &slots)
	switch r.Intn(12) {
	case 0, 1, 2, 3:
		if len(slots) == 0 {
			break
		}
		s := fzPick(r, slots)
		return fzMut{"intent: value", s.path + ": " + fzMutateValue(r, w, s)}
	case 4:
		if len(slots) == 0 {
			break
		}
		s := fzPick(r, slots)
		s.remove()
		return fzMut{"intent: remove", s.path}
	case 5:
		var objs []*fzNode
		fzObjects(intent, &objs)
		o := fzPick(r, objs)
		if o.kind == 'a' {
			if len(o.elems) > 0 {
				o.elems = append(o.elems, o.elems[0].clone())
				return fzMut{"intent: array add", "duplicated first element"}
			}
			o.elems = append(o.elems, fzStr("x"))
			return fzMut{"intent: array add", "added x"}
		}
		name := fzPick(r, []string{"extra", "userIds", "userTagName", "value", "condition", "effect", "deleteWithoutExport", "invalidateExisting", "notes", "order", "walletAccountIds", "policyName", "time"})
		val := fzPick(r, []*fzNode{fzStr("x"), {kind: 's', raw: "true"}, {kind: 'a'}, {kind: 's', raw: "null"}, fzStr(""), {kind: 's', raw: "false"}, {kind: 's', raw: "0"}})
		if o.get(name) != nil {
			o.keys = append(o.keys, name)
			o.vals = append(o.vals, val.clone())
			return fzMut{"intent: duplicate key", "added " + name + " again"}
		}
		o.keys = append(o.keys, name)
		o.vals = append(o.vals, val.clone())
		return fzMut{"intent: add field", "added " + name + "=" + val.raw}
	case 6:
		// a key in another spelling, replacing it or beside it
		objSlots := fzObjectMembers(slots)
		if len(objSlots) == 0 {
			break
		}
		s := fzPick(r, objSlots)
		k2, d := fzKeyVariant(r, s.parent.keys[s.i])
		if r.Intn(2) == 0 {
			s.parent.keys[s.i] = k2
			return fzMut{"intent: key respelt", d + " " + s.path}
		}
		v := s.node().clone()
		fzMutateValue(r, w, fzSlot{&fzNode{kind: 'a', elems: []*fzNode{v}}, 0, ""})
		s.parent.keys = append(s.parent.keys, k2)
		s.parent.vals = append(s.parent.vals, v)
		return fzMut{"intent: key respelt beside", d + " " + s.path}
	case 7:
		// duplicate a key exactly, with another value, before or after
		objSlots := fzObjectMembers(slots)
		if len(objSlots) == 0 {
			break
		}
		s := fzPick(r, objSlots)
		holder := &fzNode{kind: 'a', elems: []*fzNode{s.node().clone()}}
		fzMutateValue(r, w, fzSlot{holder, 0, ""})
		k := s.parent.keys[s.i]
		if r.Intn(2) == 0 {
			s.parent.keys = append([]string{k}, s.parent.keys...)
			s.parent.vals = append([]*fzNode{holder.elems[0]}, s.parent.vals...)
		} else {
			s.parent.keys = append(s.parent.keys, k)
			s.parent.vals = append(s.parent.vals, holder.elems[0])
		}
		return fzMut{"intent: duplicate key", s.path}
	case 8:
		// reorder keys (no change of meaning)
		var objs []*fzNode
		fzObjects(intent, &objs)
		o := fzPick(r, objs)
		if o.kind == 'o' {
			for i := len(o.keys) - 1; i > 0; i-- {
				j := r.Intn(i + 1)
				o.keys[i], o.keys[j] = o.keys[j], o.keys[i]
				o.vals[i], o.vals[j] = o.vals[j], o.vals[i]
			}
		}
		return fzMut{"same: key order", ""}
	case 9:
		// another activity's intent, whole
		other := fzPick(r, w.acts)
		oi := fzParse(other.raw).get("activity").get("intent")
		act.set("intent", oi)
		return fzMut{"intent: another activity's", other.name}
	case 10:
		// the operation key renamed, or a second operation added
		if len(intent.keys) == 0 {
			break
		}
		keys := []string{"createUserTagIntent", "createPolicyIntentV3", "setOrganizationFeatureIntent", "createInvitationsIntent",
			"deleteWalletAccountsIntent", "createMfaPolicyIntent", "createReadOnlySessionIntent", "createSmartContractInterfaceIntent", "deleteApiKeysIntent", "createPolicyIntentV2", "unknownIntent"}
		if r.Intn(2) == 0 {
			intent.keys[0] = fzPick(r, keys)
			return fzMut{"intent: operation key renamed", intent.keys[0]}
		}
		other := fzPick(r, w.acts)
		oi := fzParse(other.raw).get("activity").get("intent")
		if len(oi.keys) > 0 {
			intent.keys = append(intent.keys, oi.keys[0])
			intent.vals = append(intent.vals, oi.vals[0])
		}
		return fzMut{"intent: second operation", other.name}
	default:
		// a string re-escaped with \u escapes (same value)
		for _, s := range slots {
			if v, ok := s.node().strVal(); ok && v != "" {
				var b strings.Builder
				b.WriteByte('"')
				for _, c := range v {
					if c < 0x80 && c != '"' && c != '\\' && c >= 0x20 {
						fmt.Fprintf(&b, "\\u%04x", c)
					} else {
						b.WriteString(strings.Trim(fzQuote(string(c)), `"`))
					}
				}
				b.WriteByte('"')
				s.put(&fzNode{kind: 's', raw: b.String()})
				return fzMut{"same: \\u escapes", s.path}
			}
		}
	}
	return fzMut{"same: none", ""}
}

func fzMutateVote(r *rand.Rand, w *fzWorld, act *fzNode, votes *fzNode, self fzAct) fzMut {
	if len(votes.elems) == 0 {
		return fzMut{"same: none", ""}
	}
	vi := r.Intn(len(votes.elems))
	v := votes.elems[vi]
	other := fzParse(fzPick(r, w.acts).raw).get("activity").get("votes")
	ov := fzPick(r, other.elems)
	field := fzPick(r, []string{"userId", "userId", "user", "user", "selection", "publicKey", "scheme", "signature", "message", "message", "createdAt", "createdAt", "activityId", "id"})
	desc := fmt.Sprintf("vote %d %s", vi, field)
	cls := "vote: " + field
	cur := v.get(field)
	switch field {
	case "userId":
		switch r.Intn(4) {
		case 0:
			v.set("userId", fzStr(fzPick(r, w.voters).id))
		case 1:
			v.set("userId", fzStr(strings.ToUpper(fzOr(cur))))
		case 2:
			v.set("userId", fzStr(w.demo.Info.Members[0].UserID))
			cls += " (not in this org)"
		default:
			v.set("userId", fzStr(fzPick(r, w.voters).id))
			if u := v.get("user"); u != nil {
				u.set("userId", v.get("userId"))
				for _, vv := range w.voters {
					if s, _ := v.get("userId").strVal(); vv.id == s {
						u.set("userName", fzStr(vv.name))
					}
				}
			}
			cls += " (with user)"
		}
	case "user":
		u := v.get("user")
		if u == nil {
			u = &fzNode{kind: 'o'}
			v.set("user", u)
		}
		o := fzPick(r, w.voters)
		switch r.Intn(3) {
		case 0:
			u.set("userName", fzStr(o.name))
			cls += ".userName"
		case 1:
			u.set("userId", fzStr(o.id))
			cls += ".userId"
		default:
			u.set("userName", fzStr(o.name))
			u.set("userId", fzStr(o.id))
			cls += " (name and id)"
		}
	case "selection":
		s := fzOr(cur)
		switch r.Intn(3) {
		case 0:
			if s == api.VoteApproved {
				s = api.VoteRejected
			} else {
				s = api.VoteApproved
			}
		case 1:
			s = strings.ToLower(s)
		default:
			s = "VOTE_SELECTION_UNSPECIFIED"
		}
		v.set("selection", fzStr(s))
	case "publicKey":
		s := fzOr(cur)
		switch r.Intn(3) {
		case 0:
			v.set("publicKey", ov.get("publicKey"))
		case 1:
			v.set("publicKey", fzStr(strings.ToUpper(s)))
			cls = "same: publicKey upper-case"
		default:
			t, _ := fzTweakString(r, s)
			v.set("publicKey", fzStr(t))
		}
	case "scheme":
		v.set("scheme", fzStr(fzPick(r, []string{keys.SchemeP256, keys.SchemeSecp256k1, keys.SchemeEd25519, keys.SchemeWebAuthn, strings.ToLower(fzOr(cur)), ""})))
	case "signature":
		s := fzOr(cur)
		switch r.Intn(3) {
		case 0:
			v.set("signature", ov.get("signature"))
		case 1:
			v.set("signature", fzStr(strings.ToUpper(s)))
		default:
			b := []byte(s)
			if len(b) > 10 {
				i := 8 + r.Intn(len(b)-9)
				if b[i] == '0' {
					b[i] = '1'
				} else {
					b[i] = '0'
				}
			}
			v.set("signature", fzStr(string(b)))
		}
	case "message":
		m := fzOr(cur)
		switch r.Intn(5) {
		case 0:
			v.set("message", ov.get("message"))
		case 1:
			// the message re-formatted (another body, same meaning)
			var x any
			if json.Unmarshal([]byte(m), &x) == nil {
				b, _ := json.MarshalIndent(x, "", " ")
				v.set("message", fzStr(string(b)))
			}
		case 2:
			v.set("message", fzStr(strings.Replace(m, api.TypeApproveActivity, api.TypeRejectActivity, 1)))
		case 3:
			v.set("message", fzStr(m+" "))
		default:
			v.del("message")
		}
	case "createdAt":
		t := fzTime(cur)
		switch r.Intn(4) {
		case 0:
			v.set("createdAt", fzTimeNode(cur, t.Add(time.Duration(r.Intn(300))*time.Second)))
			cls = "same: createdAt within tolerance"
		case 1:
			v.set("createdAt", fzTimeNode(cur, t.Add(time.Duration(11+r.Intn(100000))*time.Minute)))
		case 2:
			v.set("createdAt", fzTimeNode(cur, t.Add(-time.Duration(11+r.Intn(100000))*time.Minute)))
		default:
			if vi > 0 {
				v.set("createdAt", votes.elems[vi-1].get("createdAt"))
				cls = "same: createdAt of the vote before"
			}
		}
	case "activityId":
		v.set("activityId", fzStr(fzPick(r, w.acts).id))
	case "id":
		v.set("id", ov.get("id"))
	}
	return fzMut{cls, desc}
}

func fzOr(n *fzNode) string {
	s, _ := n.strVal()
	return s
}

// fzTime reads a createdAt node ({"seconds","nanos"} or a string).
func fzTime(n *fzNode) time.Time {
	var t api.Time
	if n != nil {
		_ = json.Unmarshal(n.bytes(false), &t)
	}
	return t.Time()
}

func fzTimeNode(like *fzNode, t time.Time) *fzNode {
	b, _ := json.Marshal(api.NewTime(t))
	return fzParse(b)
}

func fzMutateActivity(r *rand.Rand, w *fzWorld, act *fzNode, self fzAct) fzMut {
	votes := act.get("votes")
	switch k := r.Intn(20); {
	case k < 7:
		in := act.get("intent")
		if in == nil || in.kind != 'o' {
			return fzMut{"same: none", ""}
		}
		return fzMutateIntent(r, w, act, in)
	case k < 13:
		return fzMutateVote(r, w, act, votes, self)
	case k == 13:
		switch r.Intn(4) {
		case 0:
			act.set("type", fzStr(fzPick(r, w.types)))
			return fzMut{"type: another", ""}
		case 1:
			act.set("type", fzStr(strings.ToLower(fzOr(act.get("type")))))
			return fzMut{"type: lower-case", ""}
		case 2:
			act.del("type")
			return fzMut{"type: removed", ""}
		default:
			act.set("type", fzStr(fzOr(act.get("type"))+"_V2"))
			return fzMut{"type: versioned", ""}
		}
	case k == 14:
		switch r.Intn(3) {
		case 0:
			act.set("fingerprint", fzPick(r, w.acts).honestFP())
			return fzMut{"fingerprint: another", ""}
		case 1:
			act.set("fingerprint", fzStr(strings.ToUpper(fzOr(act.get("fingerprint")))))
			return fzMut{"fingerprint: upper-case", ""}
		default:
			act.del("fingerprint")
			return fzMut{"fingerprint: removed", ""}
		}
	case k == 15:
		t := fzTime(act.get("createdAt"))
		if r.Intn(2) == 0 {
			act.set("createdAt", fzTimeNode(nil, t.Add(time.Duration(11+r.Intn(10000))*time.Minute)))
			return fzMut{"activity createdAt: far", ""}
		}
		act.set("timestampMs", fzStr(strconv.FormatInt(t.Add(time.Hour).UnixMilli(), 10)))
		return fzMut{"same: timestampMs", ""}
	case k == 16:
		if r.Intn(2) == 0 {
			act.set("organizationId", fzStr(strings.ToUpper(fzOr(act.get("organizationId")))))
			return fzMut{"organizationId: upper-case", ""}
		}
		act.set("organizationId", fzStr(w.demo.Info.OrganizationID))
		return fzMut{"organizationId: another", ""}
	default:
		switch r.Intn(6) {
		case 0:
			if len(votes.elems) > 0 {
				i := r.Intn(len(votes.elems))
				votes.elems = append(votes.elems[:i:i], votes.elems[i+1:]...)
				return fzMut{"votes: drop one", strconv.Itoa(i)}
			}
		case 1:
			if len(votes.elems) > 0 {
				i := r.Intn(len(votes.elems))
				votes.elems = append(votes.elems, votes.elems[i].clone())
				return fzMut{"votes: duplicate one", strconv.Itoa(i)}
			}
		case 2:
			if len(votes.elems) > 0 {
				i := r.Intn(len(votes.elems))
				c := votes.elems[i].clone()
				o := fzPick(r, w.voters)
				c.set("userId", fzStr(o.id))
				if u := c.get("user"); u != nil {
					u.set("userId", fzStr(o.id))
					u.set("userName", fzStr(o.name))
				}
				votes.elems = append(votes.elems, c)
				return fzMut{"votes: duplicate one under another user", strconv.Itoa(i)}
			}
		case 3:
			r.Shuffle(len(votes.elems), func(i, j int) { votes.elems[i], votes.elems[j] = votes.elems[j], votes.elems[i] })
			return fzMut{"same: votes reordered", ""}
		case 4:
			other := fzParse(fzPick(r, w.acts).raw).get("activity").get("votes")
			ov := fzPick(r, other.elems)
			if r.Intn(2) == 0 {
				ov.set("activityId", act.get("id"))
			}
			if len(votes.elems) > 0 && r.Intn(2) == 0 {
				votes.elems[r.Intn(len(votes.elems))] = ov
				return fzMut{"votes: replaced by another activity's", ""}
			}
			votes.elems = append(votes.elems, ov)
			return fzMut{"votes: another activity's added", ""}
		default:
			// a forged vote: a member's approval with no message
			o := fzPick(r, w.voters)
			nv := votes.elems[0].clone()
			nv.set("userId", fzStr(o.id))
			nv.set("id", fzStr("forged-"+o.name))
			nv.set("selection", fzStr(api.VoteApproved))
			if r.Intn(2) == 0 {
				nv.del("message")
			} else {
				nv.set("scheme", fzStr(keys.SchemeWebAuthn))
			}
			votes.elems = append(votes.elems, nv)
			return fzMut{"votes: forged, uncheckable", ""}
		}
	}
	return fzMut{"same: none", ""}
}

func (a fzAct) honestFP() *fzNode { return fzStr(a.honest.Fingerprint) }

// ---- the oracle ----

// fzCanonIntent is the intent's meaning: as the client decoded it,
// re-encoded, with every zero value (null, "", false, 0, [], {}) left out.
func fzCanonIntent(in api.Intent) any {
	b, err := json.Marshal(in)
	if err != nil {
		return "unencodable"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	_ = dec.Decode(&x)
	return fzDropZero(x)
}

func fzDropZero(x any) any {
	switch v := x.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if e = fzDropZero(e); e != nil {
				out[k] = e
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(v) == 0 {
			return nil
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = fzDropZero(e)
		}
		return out
	case string:
		if v == "" {
			return nil
		}
	case bool:
		if !v {
			return nil
		}
	case json.Number:
		if f, _ := v.Float64(); f == 0 {
			return nil
		}
	}
	return x
}

func fzCanonKey(scheme, pk string) string {
	cred := keys.CredentialTypeOfScheme(scheme)
	if k, err := keys.CanonicalPublicKey(cred, pk); err == nil {
		return k
	}
	return strings.ToLower(pk)
}

type fzOrigin struct {
	act  *fzAct
	vote *api.Vote
}

// fzFindOrigin is the honest vote v was made from: its message under its key.
func fzFindOrigin(w *fzWorld, v *api.Vote) (fzOrigin, bool) {
	for i := range w.acts {
		a := &w.acts[i]
		for j := range a.honest.Votes {
			h := &a.honest.Votes[j]
			if h.Message == v.Message && fzCanonKey(h.Scheme, h.PublicKey) == fzCanonKey(v.Scheme, v.PublicKey) {
				return fzOrigin{a, h}, true
			}
		}
	}
	return fzOrigin{}, false
}

func fzSignedAt(msg string) time.Time {
	var b struct {
		TimestampMs string `json:"timestampMs"`
	}
	_ = json.Unmarshal([]byte(msg), &b)
	ms, _ := strconv.ParseInt(b.TimestampMs, 10, 64)
	return time.UnixMilli(ms)
}

// fzVerdict is what one mutated reply showed that breaks a rule ("" none),
// for each verified vote, by rule.
type fzFinding struct {
	rule string
	mut  []fzMut
	vote int
	why  string
	raw  []byte
}

// fzJudge applies the rules to activity m (decoded from the mutated reply
// of self), its checks and intent check (api.CheckActivityVotes); owner(i)
// is VoteKeyOwner's state for vote i.
func fzJudge(w *fzWorld, self *fzAct, base map[string]*api.Activity, m *api.Activity, checks []api.VoteCheck, intent api.IntentCheck, owner func(i int) string) []fzFinding {
	var out []fzFinding
	add := func(rule string, i int, why string) { out = append(out, fzFinding{rule: rule, vote: i, why: why}) }
	anySubmissionVerified := false
	for i, c := range checks {
		if c.State != api.VoteVerified {
			continue
		}
		v := &m.Votes[i]
		o, ok := fzFindOrigin(w, v)
		if !ok {
			add("verified with no honest origin", i, c.Reason)
			continue
		}
		oa := base[o.act.id] // as this reader decodes the honest reply
		if m.Fingerprint != oa.Fingerprint {
			add("verified on another fingerprint", i, c.Reason)
		}
		if v.Selection != o.vote.Selection {
			add("verified with another selection", i, v.Selection)
		}
		if v.UserID != o.vote.UserID && owner(i) == api.KeyListed {
			add("verified under another user, key listed", i, v.UserID)
		}
		if v.UserID != o.vote.UserID && owner(i) != api.KeyNotListed {
			add("INFO verified under another user, key owner "+owner(i), i, v.UserID)
		}
		if v.User.UserName != o.vote.User.UserName && v.UserID == o.vote.UserID {
			add("INFO verified with another user.userName (display name)", i, v.User.UserName+" for "+o.vote.User.UserName)
		}
		signed := fzSignedAt(v.Message)
		if d := v.CreatedAt.Time().Sub(signed); d > api.SignedTimeTolerance+time.Minute || d < -api.SignedTimeTolerance-time.Minute {
			if strings.Contains(c.Reason, "with the vote before it") {
				add("INFO verified re-dated, with the note", i, c.Reason)
			} else {
				add("verified re-dated", i, c.Reason)
			}
		}
		if api.BodyFingerprint([]byte(v.Message)) == oa.Fingerprint {
			anySubmissionVerified = true
			// The intent reads checked only as the requester shown's own
			// submission: the first vote, signed by the member it names,
			// their only vote.
			if intent.State != api.IntentNotChecked {
				n := 0
				for _, w := range m.Votes {
					if w.UserID == v.UserID {
						n++
					}
				}
				notMine := i != 0 || api.SubmitterOf(*m) != o.vote.UserID || n != 1
				switch {
				case notMine && intent.State == api.IntentPartlyChecked && owner(i) == api.KeyUnchecked &&
					strings.Contains(intent.Reason, "not checked to be the member who signed it"):
					// no user list to tell whose key it is, and it says so
					add("INFO intent partly checked by a submission not the requester's, its signer said unchecked", i, intent.Reason)
				case notMine:
					add("intent "+intent.State+" by a submission not the requester's", i, intent.Reason)
				}
				// checked only by a key the user list holds as the
				// requester's: with no list read, at best partly
				if intent.State == api.IntentChecked && owner(i) != api.KeyListed {
					add("intent checked by a key owner "+owner(i), i, intent.Reason)
				}
			}
			// The vote may say its requester signed it only while the
			// intent line does not say the requester is not (checked to
			// be) the signer.
			signerDoubted := intent.State == api.IntentNotChecked || strings.Contains(intent.Reason, "not checked to be the member who signed it")
			if signerDoubted && strings.Contains(c.Reason, "its requester signed") {
				add("submission says its requester signed it, intent "+intent.State, i, c.Reason)
			}
			if d := m.CreatedAt.Time().Sub(signed); d > api.SignedTimeTolerance+time.Minute || d < -api.SignedTimeTolerance-time.Minute {
				add("submission verified on an activity re-dated", i, c.Reason)
			}
			changed := m.Type != oa.Type || m.OrganizationID != oa.OrganizationID ||
				!reflect.DeepEqual(fzCanonIntent(m.Intent), fzCanonIntent(oa.Intent))
			if changed {
				if strings.Contains(c.Reason, "not compared") || strings.Contains(c.Reason, "compared only as escaped") {
					add("INFO submission verified over a changed intent, said not compared", i, c.Reason)
				} else {
					add("submission verified over a changed activity", i, c.Reason)
				}
			}
		}
	}
	if !anySubmissionVerified {
		// No verified submission binds the type and intent shown: the
		// intent must read NOT checked, and no approval's verified reason
		// may read as if it vouched for it (approvals sign the fingerprint,
		// whatever intent is shown beside it).
		if intent.State != api.IntentNotChecked {
			add("intent "+intent.State+" with no verified submission", -1, intent.Reason)
		}
		for i, c := range checks {
			if c.State == api.VoteVerified && m.Votes[i].Selection == api.VoteApproved && !strings.Contains(c.Reason, "NOT checked") {
				add("approval vouches for an intent no verified submission binds", i, c.Reason)
			}
		}
	}
	return out
}

// fzRun mutates each activity n times (a third of them twice) with seed and
// hands each mutated reply to read, which returns the activity as decoded
// (nil: refused), its checks, intent check and key owners. It returns the
// findings by rule.
func fzRun(t *testing.T, w *fzWorld, seed int64, n int, read func(a *fzAct, raw []byte) (*api.Activity, []api.VoteCheck, api.IntentCheck, func(int) string, error)) map[string][]fzFinding {
	r := rand.New(rand.NewSource(seed))
	byRule := map[string][]fzFinding{}
	refused := 0
	base := map[string]*api.Activity{}
	for i := range w.acts {
		a := &w.acts[i]
		m, checks, intent, _, err := read(a, a.raw)
		if err != nil {
			t.Fatalf("%s as sent: %v", a.name, err)
		}
		for j, c := range checks {
			if c.State != api.VoteVerified {
				t.Fatalf("%s as sent: vote %d %+v", a.name, j, c)
			}
		}
		if intent.State == api.IntentNotChecked {
			t.Fatalf("%s as sent: intent %+v", a.name, intent)
		}
		base[a.id] = m
	}
	for k := 0; k < n; k++ {
		self := &w.acts[r.Intn(len(w.acts))]
		root := fzParse(self.raw)
		act := root.get("activity")
		muts := []fzMut{fzMutateActivity(r, w, act, *self)}
		if r.Intn(3) == 0 {
			muts = append(muts, fzMutateActivity(r, w, act, *self))
		}
		raw := root.bytes(r.Intn(4) == 0)
		m, checks, intent, owner, err := read(self, raw)
		if err != nil || m == nil {
			refused++
			continue
		}
		same := true
		for _, mu := range muts {
			if !strings.HasPrefix(mu.class, "same:") {
				same = false
			}
		}
		if same && !strings.Contains(string(raw), "createdAt of the vote before") {
			for i, c := range checks {
				if c.State != api.VoteVerified && i < len(m.Votes) {
					byRule["INFO false alarm after a meaning-preserving mutation"] = append(byRule["INFO false alarm after a meaning-preserving mutation"],
						fzFinding{rule: "false alarm", mut: muts, vote: i, why: c.State + ": " + c.Reason, raw: raw})
				}
			}
		}
		for _, f := range fzJudge(w, self, base, m, checks, intent, owner) {
			f.mut, f.raw = muts, raw
			byRule[f.rule] = append(byRule[f.rule], f)
		}
	}
	t.Logf("%d mutations, %d refused by the client", n, refused)
	return byRule
}

func fzReport(t *testing.T, byRule map[string][]fzFinding) (holes int) {
	var rules []string
	for r := range byRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	for _, rule := range rules {
		fs := byRule[rule]
		classes := map[string]int{}
		for _, f := range fs {
			var cs []string
			for _, m := range f.mut {
				cs = append(cs, m.class)
			}
			classes[strings.Join(cs, " + ")]++
		}
		var cl []string
		for c, k := range classes {
			cl = append(cl, fmt.Sprintf("%dx %s", k, c))
		}
		sort.Slice(cl, func(i, j int) bool {
			a, _ := strconv.Atoi(strings.SplitN(cl[i], "x", 2)[0])
			b, _ := strconv.Atoi(strings.SplitN(cl[j], "x", 2)[0])
			return a > b
		})
		if len(cl) > 12 {
			cl = append(cl[:12], fmt.Sprintf("... %d more classes", len(cl)-12))
		}
		t.Logf("RULE %q: %d, by mutation class:\n    %s\n  e.g. %+v %s", rule, len(fs), strings.Join(cl, "\n    "), fs[0].mut, fs[0].why)
		if !strings.HasPrefix(rule, "INFO") {
			holes += len(fs)
		}
	}
	return holes
}
