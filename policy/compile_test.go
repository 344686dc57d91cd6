package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// input builds an Input for a create_user_tag activity approved by approvers.
func input(approvers ...Approver) Input {
	return Input{
		Activity: ActivityFor(api.TypeCreateUserTag, map[string]any{
			"userTagName": "ops-oncall",
			"userIds":     []string{"u-alice", "u-bob"},
		}),
		Approvers: approvers,
	}
}

var (
	alice = Approver{ID: "u-alice", Name: "alice", Email: "alice@example.com", Tags: []string{"ops", "admin"}}
	bob   = Approver{ID: "u-bob", Name: "bob", Tags: []string{"ops"}}
	carol = Approver{ID: "u-carol", Name: "carol", Tags: []string{"finance"}}
)

// TestDocumentedExpressions evaluates the expressions of the service's
// documentation and of the assignment against hand-built inputs.
func TestDocumentedExpressions(t *testing.T) {
	policyActivity := Input{Activity: ActivityFor(api.TypeCreatePolicyV3, map[string]any{"policyName": "p"})}
	walletInput := func(id string) Input {
		in := policyActivity
		in.Wallet = map[string]any{"id": id}
		return in
	}
	tests := []struct {
		name, condition, consensus string
		in                         Input
		wantCondition, wantCons    bool
	}{
		{"any by id", "", "approvers.any(user, user.id == 'u-bob')", input(alice, bob), true, true},
		{"any by id, absent", "", "approvers.any(user, user.id == 'u-bob')", input(alice, carol), true, false},
		{"count", "", "approvers.count() >= 2", input(alice, bob), true, true},
		{"count short", "", "approvers.count() >= 2", input(alice), true, false},
		{"filter tag count", "", "approvers.filter(user, user.tags.contains('ops')).count() >= 2", input(alice, bob, carol), true, true},
		{"filter tag count short", "", "approvers.filter(user, user.tags.contains('ops')).count() >= 2", input(alice, carol), true, false},
		{"all tagged", "", "approvers.all(user, user.tags.contains('ops'))", input(alice, bob), true, true},
		{"not all tagged", "", "approvers.all(user, user.tags.contains('ops'))", input(alice, carol), true, false},
		{"email and alias", "", "approvers.any(u, u.email == 'alice@example.com' && u.alias == 'alice' && u.name == 'alice')", input(alice), true, true},
		{"credentials", "", "credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256' && c.user_id == 'u-alice' && c.public_key == '02ab')",
			Input{Credentials: []Credential{{ID: "k1", Type: api.CredentialAPIKeyP256, PublicKey: "02ab", UserID: "u-alice"}}}, true, true},
		{"activity type", "activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'", "", policyActivity, true, true},
		{"activity type mismatch", "activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'", "", input(), false, false},
		{"resource and action", "activity.resource == 'POLICY' && activity.action == 'CREATE'", "", policyActivity, true, true},
		{"resource and action mismatch", "activity.resource == 'POLICY' && activity.action == 'CREATE'", "", input(), false, false},
		{"wallet in list", "wallet.id in ['a','b']", "", walletInput("b"), true, true},
		{"wallet not in list", "wallet.id in ['a','b']", "", walletInput("c"), false, false},
		{"param string contains", "activity.params.userTagName.contains('ops')", "", input(), true, true},
		{"param snake case", "activity.params.user_tag_name == 'ops-oncall'", "", input(), true, true},
		{"param list contains", "activity.params.userIds.contains('u-bob')", "", input(), true, true},
		{"param list count", "activity.params.user_ids.count() == 2", "", input(), true, true},
		{"in on literal list", "1 in [1, 2, 3] && 'a' != 'b' && [1,2,3].contains(1)", "", input(), true, true},
		{"doc grammar", "[1,1,1].all(x, x == 1) && [1,2,3].any(x, x == 1) && [1,2,3].filter(x, x == 1).count() == 1 && [1,2,3][0] == 1", "", input(), true, true},
		{"has on absent wallet", "!has(wallet.id)", "", input(), true, true},
		{"both fields", "activity.action == 'CREATE'", "approvers.count() >= 1", input(alice), true, true},
		{"condition false skips consensus", "activity.action == 'DELETE'", "approvers.count() >= 1", input(alice), false, false},
		{"empty both", "", "", input(), true, true},
		{"blank both", "  \n ", "\t", input(), true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compile(tc.condition, tc.consensus)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			cond, cons, err := c.Evaluate(tc.in)
			if err != nil {
				t.Fatalf("Evaluate: %v", err)
			}
			if cond != tc.wantCondition || cons != tc.wantCons {
				t.Errorf("condition, consensus = %v, %v; want %v, %v", cond, cons, tc.wantCondition, tc.wantCons)
			}
		})
	}
}

// TestAbsentTargetDoesNotApply: a condition reading a keyword the activity
// does not have does not apply, even where the rest of it would be true,
// and the result names the keyword.
func TestAbsentTargetDoesNotApply(t *testing.T) {
	for _, tc := range []struct{ condition, missing string }{
		{"wallet.id in ['a','b']", "wallet"},
		{"activity.resource == 'USER' || wallet.label == 'x'", "wallet"},
		{"activity.resource == 'NOPE' && private_key.id == 'k'", "private_key"},
		{"!(wallet_account.address == 'x')", "wallet_account"},
		{"eth.tx.to == '0xabc' || true", "eth.tx"},
		{"solana.tx.transfers.count() == 0 || true", "solana.tx"},
		{"!bitcoin.tx.outputs.all(o, o.value > 1)", "bitcoin.tx"},
		{"wallets.all(w, w.imported)", "wallets"},
	} {
		c, err := Compile(tc.condition, "")
		if err != nil {
			t.Fatalf("%s: %v", tc.condition, err)
		}
		r, err := c.Run(input(alice))
		if err != nil || r.Condition || !slices.Contains(r.Missing, tc.missing) {
			t.Errorf("%s: result %+v, err %v; want a condition that does not apply, missing %s", tc.condition, r, err, tc.missing)
		}
	}
	// has() tests presence without making the condition inapplicable.
	c, err := Compile("!has(wallet.id) && !has(eth.tx.to)", "")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := c.Run(input(alice)); err != nil || !r.Condition || len(r.Missing) > 0 {
		t.Errorf("has() on absent targets: %+v, %v", r, err)
	}
}

// position returns the 1-based line and column (in characters) of the first
// occurrence of needle in src, computed independently of the package.
func position(t *testing.T, src, needle string) (int, int) {
	t.Helper()
	i := strings.Index(src, needle)
	if i < 0 {
		t.Fatalf("%q not in %q", needle, src)
	}
	before := src[:i]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndex(before, "\n")+1:]) + 1
	return line, col
}

func TestCompileErrorsHavePositions(t *testing.T) {
	tests := []struct {
		name, condition, consensus string
		field, at                  string // at: the text the error points to
		wantMsg                    []string
	}{
		{"typo in consensus keyword", "", "approvers.count() >= 1 && aprovers.count() >= 2", FieldConsensus, "aprovers",
			[]string{"undeclared reference to 'aprovers'", "did you mean 'approvers'?"}},
		{"typo on second line", "activity.type == 'X' ||\n  activty.action == 'CREATE'", "", FieldCondition, "activty",
			[]string{"undeclared reference to 'activty'", "did you mean 'activity'?"}},
		{"typo in field", "activity.resouce == 'POLICY'", "", FieldCondition, ".resouce",
			[]string{"undefined field 'resouce'", "did you mean 'resource'?"}},
		// Suggested from the struct selected on, not another's fields.
		{"field of another struct", "wallet.nope == 'x'", "", FieldCondition, ".nope",
			[]string{"undefined field 'nope' (Wallet has: id, imported, exported, label)"}},
		{"typo in a nested field", "eth.tx.too == 'a'", "", FieldCondition, ".too",
			[]string{"did you mean 'to'?"}},
		{"typo in a lambda's field", "", "approvers.any(u, u.nam == 'x')", FieldConsensus, ".nam",
			[]string{"did you mean 'name'?"}},
		{"consensus keyword in condition", "approvers.count() > 1", "", FieldCondition, "approvers",
			[]string{"'approvers' is only available in the consensus"}},
		{"condition keyword in consensus", "", "activity.action == 'CREATE'", FieldConsensus, "activity",
			[]string{"'activity' is only available in the condition"}},
		{"non-ASCII before the error", "activity.params.userTagName == 'é€漢' && nope", "", FieldCondition, "nope",
			[]string{"undeclared reference to 'nope'", "the condition can use: activity"}},
		{"not a bool", "", "approvers.count()", FieldConsensus, "approvers",
			[]string{"must evaluate to a bool", "an int"}},
		{"not a bool string", "  activity.type", "", FieldCondition, "activity",
			[]string{"must evaluate to a bool", "a string"}},
		{"type mismatch", "", "approvers.count() >= 'two'", FieldConsensus, ">=",
			[]string{"no matching overload"}},
		{"assignment instead of comparison", "activity.type = 'X'", "", FieldCondition, "=",
			[]string{"compare with =="}},
		{"double quotes", "activity.type == 'a' || activity.type == \"X\"", "", FieldCondition, "\"X\"",
			[]string{"single quotes"}},
		{"syntax error", "", "approvers.count() >=", FieldConsensus, "",
			[]string{"Syntax error"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.condition, tc.consensus)
			var ee *ExprError
			if !errors.As(err, &ee) {
				t.Fatalf("Compile error = %v (%T), want *ExprError", err, err)
			}
			if ee.Field != tc.field {
				t.Errorf("Field = %q, want %q", ee.Field, tc.field)
			}
			src := tc.condition
			if tc.field == FieldConsensus {
				src = tc.consensus
			}
			if tc.at != "" {
				line, col := position(t, src, tc.at)
				if ee.Line != line || ee.Column != col {
					t.Errorf("position = line %d, column %d; want line %d, column %d (%v)", ee.Line, ee.Column, line, col, ee)
				}
			}
			for _, m := range tc.wantMsg {
				if !strings.Contains(ee.Message, m) {
					t.Errorf("message %q lacks %q", ee.Message, m)
				}
			}
			want := fmt.Sprintf("%s: line %d, column %d: %s", ee.Field, ee.Line, ee.Column, ee.Message)
			if ee.Error() != want {
				t.Errorf("Error() = %q, want %q", ee.Error(), want)
			}
		})
	}
}

func TestErrorReadsLikeTheExample(t *testing.T) {
	const consensus = "approvers.any(u, aprovers.count() > 1)"
	_, err := Compile("", consensus)
	want := fmt.Sprintf("consensus: line 1, column %d: undeclared reference to 'aprovers' (did you mean 'approvers'?)",
		strings.Index(consensus, "aprovers")+1)
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant  %s", err, want)
	}
}

func TestCheckReportsEveryProblem(t *testing.T) {
	cond := "activty.type == 'X' && wallet.idd == \"y\""
	cons := "aprovers.count() >= 2 || credentals.count() > 0"
	diags := Check(cond, cons)
	type pos struct {
		field     string
		line, col int
	}
	var want []pos
	for _, w := range []struct{ field, src, at string }{
		{FieldCondition, cond, "activty"},
		{FieldCondition, cond, ".idd"}, // Wallet is a documented struct: no field idd
		{FieldCondition, cond, "\"y\""},
		{FieldConsensus, cons, "aprovers"},
		{FieldConsensus, cons, "credentals"},
	} {
		l, c := position(t, w.src, w.at)
		want = append(want, pos{w.field, l, c})
	}
	var got []pos
	for _, d := range diags {
		got = append(got, pos{d.Field, d.Line, d.Column})
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("diagnostics at %v, want %v\n%v", got, want, diags)
	}
	if len(Check("activity.type == 'X'", "approvers.count() >= 2")) != 0 {
		t.Error("Check reports problems in valid expressions")
	}
}

func TestDoubleQuoteScannerIgnoresQuotesInSingleQuotedStringsAndComments(t *testing.T) {
	for _, src := range []string{
		`activity.params.userTagName == 'say "hi"'`,
		`activity.params.userTagName == '\'"'`,
		"activity.params.userTagName == '''a \"quoted\" 'word' ''' // \"comment\"\n|| true",
	} {
		if diags := Check(src, ""); len(diags) != 0 {
			t.Errorf("Check(%q) = %v, want no problems", src, diags)
		}
	}
}

func TestHostileExpressionsAreRefused(t *testing.T) {
	deep := strings.Repeat("(", 500) + "true" + strings.Repeat(")", 500)
	long := "activity.type == '" + strings.Repeat("x", MaxExpressionLength) + "'"
	manyTerms := "true" + strings.Repeat(" && true", 3000)
	nestedCalls := strings.Repeat("[", 200) + "1" + strings.Repeat("]", 200) + ".count() > 0"
	longSum := "activity.type == 'a'" + strings.Repeat(" + 'a'", 300)
	for name, src := range map[string]string{"deep parens": deep, "too long": long, "huge tree": manyTerms, "nested lists": nestedCalls, "long sum": longSum, "bad utf8": "activity.type == '\xff'"} {
		t.Run(name, func(t *testing.T) {
			_, err := Compile(src, "")
			var ee *ExprError
			if !errors.As(err, &ee) {
				t.Fatalf("Compile = %v, want *ExprError", err)
			}
		})
	}
}

func TestHostileEvaluationIsCostLimited(t *testing.T) {
	many := make([]Approver, 300)
	for i := range many {
		many[i] = Approver{ID: fmt.Sprint("u", i), Tags: []string{"t"}}
	}
	list := "[" + strings.Repeat("1,", 999) + "1]"
	for name, consensus := range map[string]string{
		"nested quantifiers over approvers":    "approvers.all(a, approvers.all(b, approvers.all(c, a.id != '' && b.id != '' && c.id != '')))",
		"nested comprehensions over a literal": list + ".all(a, " + list + ".all(b, " + list + ".all(c, a == b)))",
		"growing lists":                        list + ".map(a, " + list + ".map(b, " + list + ")).count() > 0",
	} {
		t.Run(name, func(t *testing.T) {
			c, err := Compile("", consensus)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			_, _, err = c.Evaluate(input(many...))
			if err == nil || !strings.Contains(err.Error(), "cost") {
				t.Fatalf("Evaluate err = %v, want a cost limit error", err)
			}
		})
	}
}

// twenty is a 20-element list literal, for loops that repeat work.
const twenty = "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]"

// TestWorkThatGrowsWithItsArgumentsIsCostLimited: the audit's policies.
// Slicing, string indexing, list contains and the size of a string did work
// proportional to their arguments for one cost unit each, so policies within
// every limit took seconds per evaluation. They now cost that work and stop
// at the cost limit.
func TestWorkThatGrowsWithItsArgumentsIsCostLimited(t *testing.T) {
	list := "[" + strings.Repeat("1,", 1499) + "1]"
	text := "'" + strings.Repeat("é", 7000) + "'"
	half := "'" + strings.Repeat("é", 3500) + "'"
	for name, condition := range map[string]string{
		"list slice in a loop":        fmt.Sprintf("%s.all(a, %s.all(b, %s[0..1500].count() > 0))", list, twenty, list),
		"string index in a loop":      fmt.Sprintf("%s.all(a, %s.all(b, %s.all(d, %s[6999] == 'é')))", twenty, twenty, twenty, text),
		"string slice in a loop":      fmt.Sprintf("%s.all(a, %s.all(b, %s.all(d, %s[6990..6999] != '')))", twenty, twenty, twenty, text),
		"size of a string in a loop":  fmt.Sprintf("%s.all(a, %s.all(b, %s.all(d, size(%s) > 0)))", twenty, twenty, twenty, text),
		"list contains in a loop":     fmt.Sprintf("%s.all(a, !%s.contains(2))", list, list),
		"string comparison in a loop": fmt.Sprintf("%s.all(a, %s.all(b, %s.all(d, %s <= %s)))", twenty, twenty, twenty, half, half),
	} {
		t.Run(name, func(t *testing.T) {
			c, err := Compile(condition, "")
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			_, _, err = c.Evaluate(input(alice))
			if err == nil || !strings.Contains(err.Error(), "cost limit exceeded") {
				t.Fatalf("Evaluate err = %v, want the cost limit error", err)
			}
		})
	}
}

// TestSlicesAndIndexesWithinTheCostLimitEvaluate: charging slices and
// indexes by their work leaves ordinary uses, even of long values, working.
func TestSlicesAndIndexesWithinTheCostLimitEvaluate(t *testing.T) {
	long := strings.Repeat("ab", 4000)
	in := paramsInput(map[string]any{"data": "0xa9059cbb" + long, "name": "café-ops", "ids": []any{"w1", "w2", "w3"}})
	for _, condition := range []string{
		"activity.params.data[0..10] == '0xa9059cbb'",
		"activity.params.data[8009] == 'b' && size(activity.params.data) == 8010",
		"activity.params.name[3] == 'é' && activity.params.name[0..4] == 'café' && activity.params.name[5..8] == 'ops'",
		"activity.params.ids[1..3] == ['w2', 'w3'] && activity.params.ids[0] == 'w1' && activity.params.ids.contains('w3')",
		twenty + ".all(i, activity.params.data[0..2] == '0x' && activity.params.ids[0..2].count() == 2)",
	} {
		r, err := evalCondition(t, condition, in)
		if err != nil || !r.Condition {
			t.Errorf("%s: %+v, %v; want true", condition, r, err)
		}
	}
}

// TestRealisticPoliciesFitTheCostLimit guards against a limit so tight that
// legitimate policies fail: 100 approvers, a pairwise check over them, and a
// 500-entry allowlist.
func TestRealisticPoliciesFitTheCostLimit(t *testing.T) {
	many := make([]Approver, 100)
	for i := range many {
		many[i] = Approver{ID: fmt.Sprint("u", i), Email: fmt.Sprint("u", i, "@example.com"), Tags: []string{"a", "b", "ops"}}
	}
	ids := make([]string, 500)
	for i := range ids {
		ids[i] = fmt.Sprintf("'w%d'", i)
	}
	in := input(many...)
	in.Wallet = map[string]any{"id": "w499"}
	c, err := Compile("wallet.id in ["+strings.Join(ids, ", ")+"]",
		"approvers.all(a, approvers.any(b, b.id == a.id && b.tags.contains('ops'))) && approvers.filter(u, u.tags.contains('ops')).count() >= 2")
	if err != nil {
		t.Fatal(err)
	}
	cond, cons, err := c.Evaluate(in)
	if err != nil || !cond || !cons {
		t.Fatalf("Evaluate = %v, %v, %v; want true, true, nil", cond, cons, err)
	}
}

// A suggestion among equally close names is the same on every run.
func TestFieldSuggestionIsStable(t *testing.T) {
	var first string
	for i := range 20 {
		ds := Check("(1 > 0 ? wallets : wallets)[0].nope == 'x'", "")
		if len(ds) == 0 {
			t.Fatal("no diagnostic")
		}
		if i == 0 {
			first = ds[0].Message
		} else if ds[0].Message != first {
			t.Fatalf("run %d says %q, run 0 said %q", i, ds[0].Message, first)
		}
	}
}
