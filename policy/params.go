package policy

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"cel.dev/cel-go/parser"

	"github.com/vigil-console/vigil/api"
)

// documentedParams is the real service's table of the parameters a policy
// can read (features/policies/language.mdx, "Activity parameters", tkhq/docs
// c8289df2): field → the activity types that expose it. Reading any other
// field there is a MissingField evaluation error, so the policy neither
// allows nor denies. vigil's local service exposes every parameter, camelCase
// and snake_case, so Warnings flags the reads that would behave differently.
var documentedParams = map[string][]string{
	"hash_function":      {"SIGN_RAW_PAYLOAD", "SIGN_RAW_PAYLOAD_V2", "SIGN_RAW_PAYLOADS"},
	"encoding":           {"SIGN_RAW_PAYLOAD", "SIGN_RAW_PAYLOAD_V2", "SIGN_RAW_PAYLOADS"},
	"type":               {"SIGN_TRANSACTION_V2"},
	"user_ids":           {"DELETE_USERS"},
	"user_id":            {"CREATE_API_KEYS", "CREATE_API_KEYS_V2", "DELETE_API_KEYS"},
	"api_key_ids":        {"DELETE_API_KEYS"},
	"target_public_key":  {"EXPORT_WALLET", "EXPORT_WALLET_ACCOUNT", "EXPORT_PRIVATE_KEY"},
	"wallet_id":          {"UPDATE_WALLET"},
	"otp_length":         {"INIT_OTP_AUTH_V2", "INIT_OTP_AUTH_V3"},
	"session_profile_id": {"OTP_LOGIN", "OTP_LOGIN_V2", "STAMP_LOGIN", "OAUTH_LOGIN"},
	"endpoint_id":        {"UPDATE_WEBHOOK_ENDPOINT", "DELETE_WEBHOOK_ENDPOINT"},
	"sign_with":          {"SPARK_SIGN_FROST", "SPARK_PREPARE_TRANSFER", "SPARK_CLAIM_TRANSFER", "SPARK_PREPARE_LIGHTNING_RECEIVE"},
	"signatures":         {"SPARK_SIGN_FROST"},
	"transfer":           {"SPARK_PREPARE_TRANSFER"},
	"claim":              {"SPARK_CLAIM_TRANSFER"},
	"lightning_receive":  {"SPARK_PREPARE_LIGHTNING_RECEIVE"},
}

// DocumentedParam reports whether the real service lets policies read
// activity.params.<name>, and for which activity types (ACTIVITY_TYPE_…).
func DocumentedParam(name string) (types []string, ok bool) {
	ts, ok := documentedParams[name]
	for _, t := range ts {
		types = append(types, "ACTIVITY_TYPE_"+t)
	}
	return types, ok
}

// Warnings lists what in a policy compiles and runs here but behaves
// differently on the real service; they are not errors (the policy is
// accepted). Today: reads of activity.params fields the real service does
// not expose (camelCase names, or names outside its table), where reading is
// a MissingField error there, so the policy neither allows nor denies: a
// deny written on such a field never denies there; and the camelCase
// spelling of a Spark struct's field, a type error there; and either
// spelling of a parsed Solana instruction's named accounts, which the
// real service's docs spell two ways; and comparisons of activity.type,
// kind, resource or action with a value no activity has (enumWarnings),
// which never match on either service, and of a transaction field with a
// value outside the docs' closed set (fieldValueWarningsOf); and, in the
// consensus, reads of a User field the real service's User does not have, and comparisons of a
// credential's type with a value no credential has (consensusWarnings).
// It never fails.
//
// The condition is parsed once for all of them (and type-checked once).
func Warnings(src Source) []Diagnostic {
	c := parseCondition(src.Condition)
	out := append(paramWarnings(c), sparkCamelWarningsOf(c)...)
	out = append(out, namedAccountsWarningsOf(c)...)
	out = append(out, enumWarningsOf(c)...)
	out = append(out, fieldValueWarningsOf(c)...)
	return append(out, consensusWarnings(src.Consensus)...)
}

// WarningText is one of a proposed or edited policy's Warnings in the words
// its readers are shown: the console's editor, confirm, vote dialog and
// activity detail, and the CLI's vote prompt, approve --yes and activity get.
// Text may quote a decoded string literal: callers escape it.
type WarningText struct {
	Field string // FieldCondition or FieldConsensus
	Text  string // "column N: message", or "line L, column N: message" for an expression of several lines
}

// Part names the part of the policy the warning is of: "the policy's
// condition" or "the policy's consensus".
func (w WarningText) Part() string { return "the policy's " + w.Field }

// PolicyWarningTexts are the Warnings of a policy's condition and consensus
// (the condition's first), each at its column, and at its line too when its
// expression has several: a column alone would send the reader to the first
// line. The time reads no field the services differ on, so it has none.
//
// shown is how the reader is shown a source line (escaped: a tab as \t), and
// the column counts the characters of the line as shown: counted in the
// source, it would point one cell short of the token for each tab before it.
func PolicyWarningTexts(condition, consensus string, shown func(line string) string) []WarningText {
	src := map[string]string{FieldCondition: condition, FieldConsensus: consensus}
	var out []WarningText
	for _, w := range Warnings(Source{Condition: condition, Consensus: consensus}) {
		lines := strings.Split(src[w.Field], "\n")
		col := w.Column
		if w.Line >= 1 && w.Line <= len(lines) {
			col = ShownColumn(lines[w.Line-1], w.Column, shown)
		}
		at := fmt.Sprintf("column %d", col)
		if len(lines) > 1 {
			at = fmt.Sprintf("line %d, column %d", w.Line, col)
		}
		out = append(out, WarningText{Field: w.Field, Text: at + ": " + w.Message})
	}
	return out
}

// ShownColumn is the 1-based column, in characters of line as shown, of the
// character at column col (1-based, in characters) of line.
func ShownColumn(line string, col int, shown func(string) string) int {
	rs := []rune(line)
	col = min(max(col-1, 0), len(rs))
	return utf8.RuneCountInString(shown(string(rs[:col]))) + 1
}

// pinnedTypes are the activity types (ACTIVITY_TYPE_…), kinds, resources and
// actions a condition's top-level `&&` clauses restrict it to (the
// prefilter's activityClause): a clause on one of those fields that the
// activity fails makes the condition false, so only those types can see a
// parameter read. A nil list: that field is not pinned.
type pinnedTypes struct{ types, kinds, resources, actions []string }

func pinsOf(condition string) pinnedTypes {
	return pinsOfParse(parseCondition(condition))
}

// pinsOfParse is pinsOf of a condition parsed for several warnings.
func pinsOfParse(c *conditionParse) pinnedTypes {
	var p pinnedTypes
	parsed := c.parsed
	if parsed == nil {
		return p
	}
	// Several clauses on one field all hold: the pinned values are those
	// every clause allows.
	narrow := func(have, values []string) []string {
		if have == nil {
			return slices.Clone(values)
		}
		return slices.DeleteFunc(have, func(v string) bool { return !slices.Contains(values, v) })
	}
	for _, clause := range conjuncts(parsed.NativeRep().Expr()) {
		m, ok := activityClause(clause)
		switch {
		case !ok:
		case m.field == "type":
			p.types = narrow(p.types, m.values)
		case m.field == "kind":
			p.kinds = narrow(p.kinds, m.values)
		case m.field == "resource":
			p.resources = narrow(p.resources, m.values)
		case m.field == "action":
			p.actions = narrow(p.actions, m.values)
		}
	}
	return p
}

// unexposed lists the pinned types (or, with no type pinned, kinds) for
// which the real service does not expose the documented parameter name; with
// only a resource or an action pinned, those, when no type exposing the name
// has them.
func (p pinnedTypes) unexposed(name string) []string {
	exposed, _ := DocumentedParam(name)
	var out []string
	switch {
	case p.types != nil:
		for _, t := range p.types {
			if !slices.Contains(exposed, t) {
				out = append(out, t)
			}
		}
	case p.kinds != nil:
		for _, k := range p.kinds {
			if !slices.ContainsFunc(exposed, func(t string) bool { return KindOf(t) == k }) {
				out = append(out, "kind "+k)
			}
		}
	case p.resources != nil || p.actions != nil:
		// A resource or an action covers many types, of which some may not
		// expose the name: only a read that none of them exposes (one that
		// can never succeed there) is reported.
		if slices.ContainsFunc(exposed, p.allowsResourceAction) {
			return nil
		}
		for _, r := range p.resources {
			out = append(out, "resource "+r)
		}
		for _, a := range p.actions {
			out = append(out, "action "+a)
		}
		if out == nil { // pinned to no value at all: it never applies
			return nil
		}
	}
	return out
}

// allowsResourceAction reports whether an activity of type t can meet the
// condition's pinned resources and actions (true when the service's tables
// do not say which t's are).
func (p pinnedTypes) allowsResourceAction(t string) bool {
	resource, action, ok := ResourceAction(t)
	return !ok || (p.resources == nil || slices.Contains(p.resources, resource)) &&
		(p.actions == nil || slices.Contains(p.actions, action))
}

func paramWarnings(parsed *conditionParse) []Diagnostic {
	condition := parsed.condition
	type tok struct {
		Token
		line, col int
	}
	var toks []tok
	line, col := 1, 1
	for _, t := range Tokens(condition) {
		if t.Kind != TokenPlain || strings.TrimSpace(t.Text) != "" {
			toks = append(toks, tok{Token{t.Kind, strings.TrimSpace(t.Text)}, line, col})
			// a plain token's position is that of its first rune; good enough
			// for ".", "[" and the like, which are not reported.
		}
		for _, r := range t.Text {
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
	}
	var p *parser.Parser
	var pins *pinnedTypes // parsed at the first documented read
	var out []Diagnostic
	seen := map[string]bool{}
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].Kind != TokenKeyword || toks[i].Text != varActivity || toks[i+1].Text != "." ||
			toks[i+2].Kind != TokenIdent || toks[i+2].Text != "params" {
			continue
		}
		var name string
		at := toks[i+3]
		switch {
		case at.Text == "." && i+4 < len(toks) && toks[i+4].Kind == TokenIdent:
			at, name = toks[i+4], toks[i+4].Text
		case at.Text == "[" && i+4 < len(toks) && toks[i+4].Kind == TokenString:
			if p == nil {
				var err error
				if p, err = parser.NewParser(); err != nil {
					continue
				}
			}
			v, ok := stringValue(p, toks[i+4].Text)
			if !ok {
				continue
			}
			at, name = toks[i+4], v
		default:
			continue
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		if _, documented := documentedParams[name]; documented && pins == nil {
			pins = new(pinsOfParse(parsed))
		}
		if msg := paramWarning(name, pins); msg != "" {
			out = append(out, Diagnostic{Field: FieldCondition, Line: at.line, Column: at.col, Message: msg})
		}
	}
	return out
}

// paramWarning says what reading activity.params.<name> does on the real
// service, or "" when the real service exposes it for every type the
// condition is pinned to (pins; nil for a name outside the table).
func paramWarning(name string, pins *pinnedTypes) string {
	const missing = "on the real service reading it is a MissingField evaluation error, so the policy " +
		"neither allows nor denies (a deny on it never denies there); vigil's local service reads it on every activity type"
	if exposed, ok := DocumentedParam(name); ok {
		if pins == nil {
			return ""
		}
		not := pins.unexposed(name)
		if len(not) == 0 {
			return ""
		}
		return fmt.Sprintf("activity.params.%s: the real service exposes it only for %s, and this condition "+
			"applies to %s: there %s", name, strings.Join(exposed, ", "), strings.Join(not, ", "), missing)
	}
	// The name is the author's, of any length: it is shortened, as the
	// warning is about the name's spelling, which its start shows.
	shown := "activity.params." + paramName(name)
	if snake := snakeCase(name); snake != name {
		if types, ok := DocumentedParam(snake); ok {
			return fmt.Sprintf("%s: the real service names parameters in snake_case; write activity.params.%s "+
				"(it exposes it for %s): as written, %s", shown, snake, strings.Join(types, ", "), missing)
		}
		return fmt.Sprintf("%s: the real service names parameters in snake_case, and %s is not among those it "+
			"lets policies read (docs/policy-language.md lists them): %s", shown, paramName(snake), missing)
	}
	return fmt.Sprintf("%s is not among the parameters the real service lets policies read "+
		"(docs/policy-language.md lists them): %s", shown, missing)
}

// paramName shows a parameter name a warning quotes: bare when it is an
// identifier, else quoted and escaped (quoteLiteral), as it was decoded from
// a string literal and may hold anything, a real ESC included.
func paramName(name string) string {
	if isParamIdent(name) {
		return clipName(name)
	}
	return quoteLiteral(name)
}

// quoteLiteral shows the decoded value of a string literal in a message:
// shortened, quoted and escaped with api.Quote, so that an escape the author
// typed ('\x1b') never reaches a terminal as a real control character, and a
// look-alike shows as one.
func quoteLiteral(s string) string { return api.Quote(clipName(s)) }

// clipName shortens a parameter name a warning quotes to what a line shows.
func clipName(name string) string {
	const most = 48
	if r := []rune(name); len(r) > most {
		return string(r[:most]) + "…"
	}
	return name
}

func isParamIdent(s string) bool {
	return s != "" && !slices.ContainsFunc([]rune(s), func(r rune) bool {
		return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
