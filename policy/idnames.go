package policy

import (
	"fmt"
	"slices"

	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/parser"

	"github.com/vigil-console/vigil/api"
)

// A policy names who may approve, and what it applies to, by tag and user
// ids written as string literals: user.tags.contains('01a2…'). A reviewer
// deciding on such a policy needs the names, or a policy naming the
// "operator" tag reads exactly like one naming "ops".

// IDRef is a string literal of an expression that is, or looks like, a
// tag or user id, and what it names.
type IDRef struct {
	ID   string // the literal's value, exact
	Kind string // "tag", "user", or "" when neither list has the id
	Name string // the tag's or user's name, exact as the service sent it
	// Meant, when not empty, is the id of the tag or user (Kind) whose name
	// the literal is, written where that kind of id is expected
	// (user.tags.contains('ops')): a name never equals an id. When more
	// than one has the name, Meant is the least of their ids, all in
	// MeantAll (sorted).
	Meant    string
	MeantAll []string
	// Compared is how that comparison reads: "never" (==, in, contains:
	// never true), "always" (!=: always true, it excludes no one), or ""
	// when the expression around it (a `!`, a ternary) is not followed.
	Compared string
}

// Known reports whether the id names a tag or user of the lists given.
func (r IDRef) Known() bool { return r.Kind != "" }

// Warns reports whether the reference is shown as a warning: an id that
// names nothing known, or a name where an id is expected.
func (r IDRef) Warns() bool { return !r.Known() || r.Meant != "" }

// String shows the reference for a terminal, id and name escaped:
// `01a2… is tag ops`, or for an id neither list has, a warning that it
// names no tag or user the reader knows (a typo, a deleted tag, or a tag
// older than the lists read).
func (r IDRef) String() string {
	if r.Meant != "" {
		return r.nameWarning()
	}
	if !r.Known() {
		return api.SanitizeID(r.ID) + " is not a tag or user of this organization that vigil knows: if it should be one, check the id"
	}
	return api.SanitizeID(r.ID) + " is " + r.Kind + " " + api.NameText(r.Name)
}

// IDRefs lists, in order of first appearance and once each, the string
// literals of src that name a tag (tagNames: id → name) or a user
// (userNames), and those shaped like an id (a UUID) that name neither,
// unless every use of one is provably another kind of id, a wallet's or a
// key's (idpositions.go; none is, when src does not parse); and, as a
// warning (Meant), a literal that is not an id but the name of a tag or user,
// compared with a user's tags or id (idpositions.go), where it never
// matches. Literals are decoded as the policy language decodes them, so an
// id written with escapes ('\u0030…') is still found. It never fails: src
// may be any text.
func IDRefs(src string, tagNames, userNames map[string]string) []IDRef {
	var out []IDRef
	var p *parser.Parser // made at the first literal: most expressions hold none
	seen := map[string]bool{}
	var other map[string]bool // read at the first unknown id
	read := false
	var expected map[string]expectedID // read at the first literal that is a name
	readExpected := false
	for _, t := range Tokens(src) {
		if t.Kind != TokenString {
			continue
		}
		if p == nil {
			var err error
			if p, err = parser.NewParser(); err != nil {
				return out // no options given: it does not fail
			}
		}
		v, ok := stringValue(p, t.Text)
		if !ok || seen[v] {
			continue
		}
		seen[v] = true
		if !hasKey(tagNames, v) && !hasKey(userNames, v) && (hasValue(tagNames, v) || hasValue(userNames, v)) {
			if !readExpected {
				expected = expectedIDs(src)
				readExpected = true
			}
			where, isExpected := expected[v]
			names := tagNames
			if where.kind == "user" {
				names = userNames
			}
			if ids := idsNamed(names, v); len(ids) > 0 && isExpected {
				out = append(out, IDRef{ID: v, Kind: where.kind, Name: v, Meant: ids[0], MeantAll: ids, Compared: where.compared})
				continue
			}
		}
		switch n, isTag := tagNames[v]; {
		case isTag:
			out = append(out, IDRef{ID: v, Kind: "tag", Name: n})
		case hasKey(userNames, v):
			out = append(out, IDRef{ID: v, Kind: "user", Name: userNames[v]})
		case api.UUIDShaped(v):
			if !read {
				other = otherIDs(src)
				read = true
			}
			if !other[v] {
				out = append(out, IDRef{ID: v})
			}
		}
	}
	return out
}

// nameWarning is String for a name written where an id is expected: what
// the name names (every tag or user that has it, a few, then a count), what
// the comparison therefore does (Compared), and the id to write when one
// tag or user has the name.
func (r IDRef) nameWarning() string {
	ids := r.MeantAll
	if len(ids) == 0 {
		ids = []string{r.Meant}
	}
	const shown = 3
	var named string
	if len(ids) == 1 {
		named = r.Kind + " " + api.SanitizeID(ids[0])
	} else {
		named = fmt.Sprintf("%d %ss (the name is ambiguous): ", len(ids), r.Kind)
		for i, id := range ids[:min(len(ids), shown)] {
			if i > 0 {
				named += ", "
			}
			named += api.SanitizeID(id)
		}
		if len(ids) > shown {
			named += fmt.Sprintf(" and %d more", len(ids)-shown)
		}
	}
	where := "user.tags holds tag ids"
	if r.Kind == "user" {
		where = "a user's id is compared here"
	}
	var outcome string
	switch r.Compared {
	case comparedNever:
		outcome = ", so it never matches"
	case comparedAlways:
		outcome = ", so this != is always true (it excludes no one)"
	default:
		outcome = ", not a name"
	}
	advice := ": write '" + api.SanitizeID(ids[0]) + "'"
	if len(ids) > 1 {
		advice = ": write the id of the one meant"
	}
	return quoteLiteral(r.ID) + " is the NAME of " + named + "; " + where + outcome + advice
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

func hasValue(m map[string]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}

// idsNamed is every id that names maps to name, sorted (a stable answer
// when names repeat).
func idsNamed(names map[string]string, name string) []string {
	var ids []string
	for id, n := range names {
		if n == name {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// NeedsIDNames reports whether IDRefs of srcs may say anything, so that the
// organization's tags and users are worth reading: some literal is, or looks
// like, an id, or is compared with a user's tags or id (and may be a name).
func NeedsIDNames(srcs ...string) bool {
	for _, src := range srcs {
		if len(IDRefs(src, nil, nil)) > 0 || len(expectedIDs(src)) > 0 {
			return true
		}
	}
	return false
}

// stringValue decodes one string literal token, quotes included.
func stringValue(p *parser.Parser, lit string) (string, bool) {
	parsed, errs := p.Parse(common.NewTextSource(lit))
	if errs != nil && len(errs.GetErrors()) > 0 {
		return "", false
	}
	e := parsed.Expr()
	if e.Kind() != ast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}

// IntentIDRefs is IDRefs over the policy expressions an intent holds:
// create_policy's condition, consensus and time, create_mfa_policy's condition;
// each id once. It is empty for any other intent.
func IntentIDRefs(in api.Intent, tagNames, userNames map[string]string) []IDRef {
	var out []IDRef
	seen := map[string]bool{}
	for _, src := range intentExprs(in) {
		for _, r := range IDRefs(src, tagNames, userNames) {
			if !seen[r.ID] {
				seen[r.ID] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// IntentNeedsIDNames is NeedsIDNames over the policy expressions an intent
// holds (as IntentIDRefs reads them).
func IntentNeedsIDNames(in api.Intent) bool { return NeedsIDNames(intentExprs(in)...) }

func intentExprs(in api.Intent) []string {
	var exprs []string
	if p := in.CreatePolicyIntentV3; p != nil {
		exprs = append(exprs, p.Condition, p.Consensus, p.Time)
	}
	if p := in.CreateMfaPolicyIntent; p != nil {
		exprs = append(exprs, p.Condition)
	}
	return exprs
}
