// Package policy is the service's policy language: CEL with the dialect of the
// real service (`any`, `count`, list `contains`), the keywords each field sees,
// and the decision procedure that turns a set of policies into an outcome.
//
// It is used by the local service to evaluate every activity and by the
// console to lint a policy before it is submitted. See docs/policy-language.md.
package policy

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
)

// maxDiagnostics bounds how many problems Check reports per expression; a
// pasted blob of garbage should not flood the console.
const maxDiagnostics = 20

// Field names used in errors and diagnostics.
const (
	FieldCondition = "condition"
	FieldConsensus = "consensus"
	FieldTime      = "time"
)

// ExprError is a problem with a condition, consensus or time expression, at
// a position a user can find: Line and Column are 1-based, Column counts
// characters (not bytes).
type ExprError struct {
	Field   string // FieldCondition, FieldConsensus or FieldTime
	Line    int
	Column  int
	Message string
}

func (e *ExprError) Error() string {
	return fmt.Sprintf("%s: line %d, column %d: %s", e.Field, e.Line, e.Column, e.Message)
}

// Diagnostic is one problem found by Check, for live linting.
type Diagnostic struct {
	Field   string // FieldCondition, FieldConsensus or FieldTime
	Line    int    // 1-based
	Column  int    // 1-based, in characters
	Message string
}

func (d Diagnostic) String() string {
	return (&ExprError{Field: d.Field, Line: d.Line, Column: d.Column, Message: d.Message}).Error()
}

// Source is a policy's three expressions. Time is the real service's
// optional top-level `time` field (when the policy is active).
type Source struct {
	Condition, Consensus, Time string
}

// Compiled is a checked set of condition, consensus and time expressions,
// ready to be evaluated any number of times (concurrently too).
type Compiled struct {
	src                                 Source
	conditionPrg, consensusPrg, timePrg cel.Program // nil when the expression is empty
	filter                              prefilter   // what the condition says before it runs
	// readsCredentials: the consensus reads which credential approved
	// (see readsCredentialIdentity).
	readsCredentials bool
}

// ReadsCredentialIdentity reports whether the consensus may read the id,
// type or credential_id of the credentials that approved: what the console
// cannot know of a vote cast with a key deleted since (VoteCredential).
func (c *Compiled) ReadsCredentialIdentity() bool { return c.readsCredentials }

// ReadsClock reports whether the policy's verdict may change with the clock
// alone: it has a time expression (the only one that sees time.now).
func (c *Compiled) ReadsClock() bool { return c != nil && c.timePrg != nil }

// Condition returns the condition source, as compiled.
func (c *Compiled) Condition() string { return c.src.Condition }

// Consensus returns the consensus source, as compiled.
func (c *Compiled) Consensus() string { return c.src.Consensus }

// Time returns the time source, as compiled.
func (c *Compiled) Time() string { return c.src.Time }

// Compile checks a policy's condition and consensus and prepares them for
// evaluation. See CompileSource.
func Compile(condition, consensus string) (*Compiled, error) {
	return CompileSource(Source{Condition: condition, Consensus: consensus})
}

// CompileSource checks a policy's expressions and prepares them for
// evaluation. An empty (or all-blank) condition always applies, an empty
// consensus sets no consensus requirement, and an empty time is always
// active. Each non-empty expression must type-check to bool. The first
// problem found is returned as an *ExprError.
func CompileSource(src Source) (*Compiled, error) {
	return compileSource(src, checkSubmitted)
}

// CompileStored prepares a policy (or an MFA condition) that a service
// already accepted and stored. It skips the checks that only lint what a
// user submits now (a documented parameter compared with a literal of
// another kind; such a comparison is an evaluation error, so the policy
// does not apply where it happens): a later vigil may add such checks, and
// a policy an earlier vigil stored must stay readable after an upgrade. It
// fails only where the expression cannot be run: a parse or type error, an
// unknown function or field.
func CompileStored(src Source) (*Compiled, error) {
	return compileSource(src, checkStored)
}

// checkMode says which compile-time checks apply.
type checkMode int

const (
	checkSubmitted checkMode = iota // everything, for what a user submits
	checkStored                     // only what stops evaluation, for what was stored
)

func compileSource(src Source, mode checkMode) (*Compiled, error) {
	e, err := loadEnvs()
	if err != nil {
		return nil, err
	}
	c := &Compiled{src: src}
	var condAst *cel.Ast
	if c.conditionPrg, condAst, err = compileOne(e, e.condition, FieldCondition, src.Condition, mode); err != nil {
		return nil, err
	}
	c.filter = newPrefilter(condAst)
	var consAst *cel.Ast
	if c.consensusPrg, consAst, err = compileOne(e, e.consensus, FieldConsensus, src.Consensus, mode); err != nil {
		return nil, err
	}
	c.readsCredentials = readsCredentialIdentity(consAst)
	if c.timePrg, _, err = compileOne(e, e.time, FieldTime, src.Time, mode); err != nil {
		return nil, err
	}
	return c, nil
}

// Check returns every problem in a condition and consensus. See CheckSource.
func Check(condition, consensus string) []Diagnostic {
	return CheckSource(Source{Condition: condition, Consensus: consensus})
}

// CheckSource returns every problem of a policy's expressions, in order of
// position, condition first, then consensus, then time. An empty result
// means CompileSource would succeed.
func CheckSource(src Source) []Diagnostic {
	e, err := loadEnvs()
	if err != nil {
		return []Diagnostic{{Field: FieldCondition, Line: 1, Column: 1, Message: err.Error()}}
	}
	var out []Diagnostic
	for _, f := range []struct {
		env        *cel.Env
		field, src string
	}{{e.condition, FieldCondition, src.Condition}, {e.consensus, FieldConsensus, src.Consensus}, {e.time, FieldTime, src.Time}} {
		_, diags := checkOne(f.env, f.field, f.src, checkSubmitted)
		out = append(out, diags...)
	}
	return out
}

// compileOne checks and plans one expression, for evaluation without
// short-circuits (strict.go). The AST returned is the one checked, as written.
func compileOne(e envs, env *cel.Env, field, src string, mode checkMode) (cel.Program, *cel.Ast, error) {
	ast, diags := checkOne(env, field, src, mode)
	if len(diags) > 0 {
		d := diags[0]
		return nil, nil, &ExprError{Field: d.Field, Line: d.Line, Column: d.Column, Message: d.Message}
	}
	if ast == nil {
		return nil, nil, nil
	}
	plan, err := strictPlan(e.strict, e.run[env], ast)
	if err != nil {
		return nil, nil, &ExprError{Field: field, Line: 1, Column: 1, Message: err.Error()}
	}
	opts := programOptions(e.zones)
	if ids := caseFoldedOperands(plan); len(ids) > 0 {
		opts = append(opts, cel.CustomDecoratorV2(caseFold(ids)))
	}
	prg, err := e.run[env].Program(plan, opts...)
	if err != nil {
		return nil, nil, &ExprError{Field: field, Line: 1, Column: 1, Message: err.Error()}
	}
	return prg, ast, nil
}

// checkOne parses and type-checks one expression. It returns a nil AST and no
// diagnostics for an empty expression.
func checkOne(env *cel.Env, field, src string, mode checkMode) (*cel.Ast, []Diagnostic) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	at := func(line, col int, format string, args ...any) []Diagnostic {
		return []Diagnostic{{Field: field, Line: line, Column: col, Message: fmt.Sprintf(format, args...)}}
	}
	// Characters, as api.Validate and the console's editors count them (and
	// as CEL's parser limit does): one limit, whatever the script.
	if n := utf8.RuneCountInString(src); n > MaxExpressionLength {
		return nil, at(1, 1, "expression is %d characters long; the limit is %d: split the policy into several", n, MaxExpressionLength)
	}
	if !utf8.ValidString(src) {
		return nil, at(1, 1, "expression is not valid UTF-8 text")
	}
	out := doubleQuotes(field, src)
	rw, rerrs := rewrite(src)
	for _, re := range rerrs {
		line, col := sourcePosition(src, re.offset)
		out = append(out, Diagnostic{Field: field, Line: line, Column: col, Message: re.message})
	}
	var ast *cel.Ast
	if len(rerrs) == 0 {
		var iss *cel.Issues
		ast, iss = env.Compile(rw.text)
		// len(iss.Errors()), not iss.Err(): Err formats every error with its
		// source line, quadratic in the column, for a string never shown.
		if iss != nil && len(iss.Errors()) > 0 {
			for _, e := range iss.Errors() {
				if len(out) >= maxDiagnostics {
					break
				}
				if strings.Contains(e.Message, "'"+varNow+"'") {
					continue // reported as CronSpan's own error
				}
				d := diagnose(field, e)
				d.Line, d.Column = rw.originalPosition(src, d.Line, d.Column)
				if name, ok := quotedAfter(d.Message, "undefined field '"); ok && !strings.Contains(d.Message, "did you mean") {
					d.Message += fieldHint(name, receiverStruct(src, d.Line, d.Column), func() string { return selectedOn(env, rw.text, e.Location) })
				}
				d.Column = atCalledName(src, d.Line, d.Column, e.Message)
				if name, ok := placeholderAt(src, d.Line, d.Column); ok {
					d.Message = fmt.Sprintf("%s is a placeholder: replace it with a value (a string in single quotes, e.g. '…', or a number)", name)
				}
				out = append(out, d)
			}
		}
		if iss == nil || len(iss.Errors()) == 0 {
			out = append(out, checkLiterals(field, src, rw, ast, mode)...)
		}
	}
	if len(out) > 0 {
		slices.SortStableFunc(out, func(a, b Diagnostic) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
		})
		return nil, out
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) && !t.IsExactType(cel.DynType) {
		line, col := firstNonBlank(src)
		return nil, at(line, col, "the %s must evaluate to a bool, but this expression is %s; compare it, e.g. `... == ...` or `... >= 2`",
			field, withArticle(friendlyType(t.String())))
	}
	return ast, nil
}

// atCalledName moves a position from a call's '(' back to the function name
// the message is about, which is where a user looks.
func atCalledName(src string, line, col int, msg string) int {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return col
	}
	rs := []rune(lines[line-1])
	if col < 2 || col > len(rs) || rs[col-1] != '(' {
		return col
	}
	start := col - 1
	for start > 0 && (rs[start-1] == '_' || unicode.IsLetter(rs[start-1]) || unicode.IsDigit(rs[start-1])) {
		start--
	}
	if name := string(rs[start : col-1]); name != "" && strings.Contains(msg, "'"+name+"'") {
		return start + 1
	}
	return col
}

// placeholderAt reports the documentation-style placeholder (<NAME>) that
// starts at a position, if one does.
func placeholderAt(src string, line, col int) (string, bool) {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return "", false
	}
	rs := []rune(lines[line-1])
	if col < 1 || col > len(rs) || rs[col-1] != '<' {
		return "", false
	}
	for i := col; i < len(rs) && i < col+64; i++ {
		r := rs[i]
		switch {
		case r == '>' && i > col:
			return string(rs[col-1 : i+1]), true
		case r == '_' || r == ' ' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
		default:
			return "", false
		}
	}
	return "", false
}

// diagnose turns a CEL error into a diagnostic whose message speaks about the
// policy language rather than CEL internals, with a suggestion for typos.
func diagnose(field string, e *common.Error) Diagnostic {
	d := Diagnostic{Field: field, Line: 1, Column: 1, Message: e.Message}
	if loc := e.Location; loc != nil && loc.Line() > 0 {
		d.Line, d.Column = loc.Line(), loc.Column()+1
	}
	msg := strings.Replace(e.Message, " (in container '')", "", 1)
	msg = friendlyType(msg)
	hinted := strings.Contains(msg, "did you mean")
	if name, ok := quotedAfter(msg, "undeclared reference to '"); ok && (name == fnCronSpan || name == fnTimestmp) {
		msg = fmt.Sprintf("%s() is only available in the time field", name)
	} else if ok && otherFieldOf(field, name) != "" {
		msg = fmt.Sprintf("undeclared reference to '%s' ('%s' is only available in the %s expression)", name, name, otherFieldOf(field, name))
	} else if ok && !hinted {
		msg += hintForIdentifier(field, name)
	}
	if strings.Contains(msg, "recursion limit exceeded") || strings.Contains(msg, "max recursion depth exceeded") {
		msg = fmt.Sprintf("the expression nests more than %d levels deep: flatten it", MaxNestingDepth)
	}
	if strings.Contains(msg, "token recognition error at: '= ") {
		msg += " (compare with ==)"
	}
	msg += mismatchHint(msg)
	d.Message = msg
	return d
}

// fieldVars are the keywords of each field.
var fieldVars = map[string][]string{FieldCondition: conditionVars, FieldConsensus: consensusVars, FieldTime: timeVars}

// otherFieldOf names the other field whose keyword name is, if any.
func otherFieldOf(field, name string) string {
	for _, other := range []string{FieldCondition, FieldConsensus, FieldTime} {
		if other != field && slices.Contains(fieldVars[other], name) {
			return other
		}
	}
	return ""
}

// hintForIdentifier explains an unknown name: a keyword or function of
// another field, or a typo.
func hintForIdentifier(field, name string) string {
	if other := otherFieldOf(field, name); other != "" {
		return fmt.Sprintf(" ('%s' is only available in the %s expression)", name, other)
	}
	if field != FieldTime && (name == fnCronSpan || name == fnTimestmp) {
		return fmt.Sprintf(" (%s() is only available in the time field)", name)
	}
	own := fieldVars[field]
	if s := suggest(name, own); s != "" {
		return fmt.Sprintf(" (did you mean '%s'?)", s)
	}
	return fmt.Sprintf(" (the %s can use: %s)", field, strings.Join(own, ", "))
}

// quotedAfter returns the single-quoted word that follows prefix in msg.
func quotedAfter(msg, prefix string) (string, bool) {
	i := strings.Index(msg, prefix)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(prefix):]
	j := strings.IndexByte(rest, '\'')
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

// friendlyType replaces the names of the hidden functions rewrite
// introduces with the syntax the user wrote.
func friendlyType(s string) string {
	return strings.NewReplacer(
		"'"+fnIndex+"'", "'[ ]' (index)",
		"'"+fnSlice+"'", "'[ .. ]' (slice)",
		"'"+fnCount+"'", "'count'",
		"'"+fnNumber+"'", "a number",
		"'CronSpan' applied to '(timestamp, ", "'CronSpan' applied to '(",
		"'CronSpan' applied to '(timestamp)", "'CronSpan' applied to '()",
	).Replace(s)
}

// suggest returns the candidate closest to name if it is close enough to be
// a plausible typo (edit distance at most 2, and less than half the name).
func suggest(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		d := editDistance(name, c)
		if d < bestDist && d*2 < utf8.RuneCountInString(c)+1 {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// firstNonBlank returns the 1-based line and column of the first character
// that is not white space.
func firstNonBlank(src string) (line, col int) {
	line, col = 1, 1
	for _, r := range src {
		switch r {
		case '\n':
			line, col = line+1, 1
		case ' ', '\t', '\r':
			col++
		default:
			return line, col
		}
	}
	return 1, 1
}

// withArticle prefixes a type name with "a" or "an".
func withArticle(s string) string {
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// doubleQuotes reports the double-quoted strings CEL would accept but the
// real service refuses ("only single quotes are supported"), so that a policy
// accepted here is accepted there too.
func doubleQuotes(field, src string) []Diagnostic {
	var out []Diagnostic
	line, col := 1, 0
	rs := []rune(src)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		col++
		if r == '\n' {
			line, col = line+1, 0
			continue
		}
		switch r {
		case '"':
			out = append(out, Diagnostic{Field: field, Line: line, Column: col,
				Message: "strings are written in single quotes ('text'); the service does not accept double quotes"})
			if len(out) >= maxDiagnostics {
				return out
			}
			// Skip the rest of the double-quoted string.
			for i++; i < len(rs) && rs[i] != '"' && rs[i] != '\n'; i++ {
				col++
				if rs[i] == '\\' && i+1 < len(rs) && rs[i+1] != '\n' {
					i++
					col++
				}
			}
			if i < len(rs) && rs[i] == '\n' {
				i-- // let the outer loop count the line
			} else {
				col++
			}
		case '/':
			// A comment runs to the end of the line; quotes in it are prose.
			if i+1 < len(rs) && rs[i+1] == '/' {
				for i+1 < len(rs) && rs[i+1] != '\n' {
					i++
				}
			}
		case '\'':
			// Skip a single-quoted string ('...' or '''...'''), minding escapes.
			triple := i+2 < len(rs) && rs[i+1] == '\'' && rs[i+2] == '\''
			if triple {
				i += 2
				col += 2
			}
			for i++; i < len(rs); i++ {
				col++
				if rs[i] == '\n' {
					line, col = line+1, 0
				}
				if rs[i] == '\\' && i+1 < len(rs) {
					i++
					col++
					continue
				}
				if rs[i] == '\'' {
					if !triple {
						break
					}
					if i+2 < len(rs) && rs[i+1] == '\'' && rs[i+2] == '\'' {
						i += 2
						col += 2
						break
					}
				}
			}
		}
	}
	return out
}

// receiverStruct is the struct type of the path before the '.' at or just
// before line:col ("wallet", "eth.tx"), or "" when it is not a plain path.
func receiverStruct(src string, line, col int) string {
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	rs := []rune(lines[line-1])
	end := col - 1 // 0-based
	switch {
	case end >= 0 && end < len(rs) && rs[end] == '.':
	case end >= 1 && end <= len(rs) && rs[end-1] == '.':
		end--
	default:
		return ""
	}
	start := end
	for start > 0 {
		r := rs[start-1]
		if !(r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			break
		}
		start--
	}
	if start > 0 && (rs[start-1] == ')' || rs[start-1] == ']') {
		return ""
	}
	path := strings.Split(string(rs[start:end]), ".")
	st, ok := keywordTypes[path[0]]
	if !ok {
		return ""
	}
	for _, f := range path[1:] {
		spec, ok := schemaStructs()[st].fields[f]
		if !ok || spec.elemKind == "" || strings.HasPrefix(spec.elemKind, "list:") {
			return ""
		}
		st = spec.elemKind
	}
	return st
}

// mismatchHint explains CEL's "no matching overload for '_==_' applied to
// '(int, string)'": a comparison of two types that never compare, naming
// both and the fix (the docs' own `eth.tx.chain_id == '8453'`).
func mismatchHint(msg string) string {
	op, ok := quotedAfter(msg, "no matching overload for '")
	if !ok || !slices.Contains([]string{"_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_"}, op) {
		return ""
	}
	i := strings.Index(msg, "applied to '(")
	if i < 0 {
		return ""
	}
	args := msg[i+len("applied to '("):]
	if j := strings.Index(args, ")'"); j >= 0 {
		args = args[:j]
	}
	left, right, ok := strings.Cut(args, ", ")
	if !ok {
		return ""
	}
	number := func(t string) bool { return t == "int" || t == "uint" || t == "double" }
	switch {
	case number(left) && right == "string":
		return fmt.Sprintf(": this compares a number (%s) with a string; the field is a number, so write the value without quotes (for example 8453, not '8453')", left)
	case left == "string" && number(right):
		return fmt.Sprintf(": this compares a string with a number (%s); quote the value (for example '8453', not 8453) or compare with a string field", right)
	case left != right:
		return fmt.Sprintf(": this compares a %s with a %s, which never compare; write the value as a %s", left, right, left)
	}
	return ""
}
