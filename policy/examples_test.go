package policy

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// docExample is one policy of the real service's example pages, verbatim
// (testdata/doc_examples.json, with the page and heading it came from).
type docExample struct {
	Page, Heading, PolicyName, Effect string
	Condition, Consensus, Time        string
}

func loadDocExamples(tb testing.TB) []docExample {
	tb.Helper()
	b, err := os.ReadFile("testdata/doc_examples.json")
	if err != nil {
		tb.Fatal(err)
	}
	var f struct{ Policies []docExample }
	if err := json.Unmarshal(b, &f); err != nil {
		tb.Fatal(err)
	}
	return f.Policies
}

var (
	quotedPlaceholder   = regexp.MustCompile(`'<([A-Za-z0-9_ ]+)>'`)
	unquotedPlaceholder = regexp.MustCompile(`<([A-Z0-9_]+)>`)
)

// unquotedValues are what the examples' unquoted placeholders stand for.
var unquotedValues = map[string]string{
	"BITCOIN_ADDRESS": "'BITCOIN_ADDRESS'", "TX_ID_OF_UTXO": "'TX_ID_OF_UTXO'", "VOUT_OF_UTXO": "0", "AMOUNT": "1000",
}

// fill replaces the placeholders of an example: '<NAME>' by 'NAME' (padded
// to the 40 characters of an address when it is one without its 0x),
// numbers quoted in the example by the numbers they stand for, and the
// unquoted placeholders by unquotedValues.
func fill(s string) string {
	s = strings.NewReplacer("'<CHAIN_ID>'", "1", "'<NONCE>'", "0").Replace(s)
	s = quotedPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-2]
		if strings.HasSuffix(name, "NO_0x_PREFIX") {
			name += strings.Repeat("0", 40-len(name))
		}
		return "'" + name + "'"
	})
	return unquotedPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := unquotedValues[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// TestDocExamplesCompileAsWritten compiles every example policy exactly as
// the documentation prints it, except those with a placeholder standing
// unquoted where a value goes (they are not valid as printed).
func TestDocExamplesCompileAsWritten(t *testing.T) {
	examples := loadDocExamples(t)
	compiled, skipped := 0, 0
	for i, ex := range examples {
		src := Source{Condition: ex.Condition, Consensus: ex.Consensus, Time: ex.Time}
		if unquotedPlaceholder.MatchString(quotedPlaceholder.ReplaceAllString(ex.Condition+ex.Consensus+ex.Time, "''")) {
			skipped++
			_, err := CompileSource(src)
			var ee *ExprError
			if err == nil || !asExprError(err, &ee) || !strings.Contains(ee.Message, "placeholder") {
				t.Errorf("#%d %s (%s): an unquoted placeholder: err = %v, want a placeholder error", i, ex.Page, ex.Heading, err)
			}
			continue
		}
		if _, err := CompileSource(src); err != nil {
			t.Errorf("#%d %s (%s): %v", i, ex.Page, ex.Heading, err)
			continue
		}
		compiled++
	}
	t.Logf("%d of %d example policies compile as written; %d have unquoted placeholders", compiled, len(examples), skipped)
	if len(examples) < 90 {
		t.Errorf("only %d examples in testdata", len(examples))
	}
}

// exampleInput is the JSON form of an Input in testdata/doc_example_inputs.json.
type exampleInput struct {
	Type      string
	Params    map[string]any
	Approvers []struct {
		ID   string
		Tags []string
	}
	Credentials []struct {
		ID, Type  string
		PublicKey string `json:"public_key"`
		UserID    string `json:"user_id"`
	}
	Wallet        map[string]any
	PrivateKey    map[string]any `json:"private_key"`
	WalletAccount map[string]any `json:"wallet_account"`
	Payloads      map[string]map[string]any
	Now           string
}

func (e exampleInput) input(tb testing.TB) Input {
	in := Input{Activity: ActivityFor(e.Type, e.Params), Wallet: e.Wallet, PrivateKey: e.PrivateKey,
		WalletAccount: e.WalletAccount, Payloads: e.Payloads}
	for _, a := range e.Approvers {
		in.Approvers = append(in.Approvers, Approver{ID: a.ID, Tags: a.Tags})
	}
	for _, c := range e.Credentials {
		in.Credentials = append(in.Credentials, Credential{ID: c.ID, Type: c.Type, PublicKey: c.PublicKey, UserID: c.UserID})
	}
	in.Now = time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC)
	if e.Now != "" {
		t, err := time.Parse(time.RFC3339, e.Now)
		if err != nil {
			tb.Fatal(err)
		}
		in.Now = t
	}
	return in
}

// mergePatch applies an RFC 7386 JSON merge patch.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	out := make(map[string]any, len(t))
	for k, v := range t {
		out[k] = v
	}
	for k, v := range p {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = mergePatch(out[k], v)
		}
	}
	return out
}

// TestDocExamplesEvaluate evaluates every example policy (placeholders
// filled in) against an input it matches and one it does not: built from
// the documented types, written by hand in testdata/doc_example_inputs.json.
// "Matches" means the policy is active, its condition holds and its
// consensus is met.
func TestDocExamplesEvaluate(t *testing.T) {
	examples := loadDocExamples(t)
	b, err := os.ReadFile("testdata/doc_example_inputs.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Example int
			Match   map[string]any
			Patch   map[string]any `json:"nomatch_patch"`
		}
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber() // amounts beyond 2^53 stay exact
	if err := dec.Decode(&f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != len(examples) {
		t.Fatalf("%d input cases for %d examples", len(f.Cases), len(examples))
	}
	decode := func(m any) exampleInput {
		raw, _ := json.Marshal(m)
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.UseNumber()
		var e exampleInput
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, tc := range f.Cases {
		ex := examples[tc.Example]
		src := Source{Condition: fill(ex.Condition), Consensus: fill(ex.Consensus), Time: fill(ex.Time)}
		c, err := CompileSource(src)
		if err != nil {
			t.Errorf("#%d %s (%s): %v", tc.Example, ex.Page, ex.Heading, err)
			continue
		}
		for _, want := range []bool{true, false} {
			m := any(tc.Match)
			if !want {
				m = mergePatch(tc.Match, tc.Patch)
			}
			r, err := c.Run(decode(m).input(t))
			got := r.Active && r.Condition && r.Consensus
			if err != nil || got != want {
				t.Errorf("#%d %s (%s), matching input %v: result %+v, err %v\n%+v", tc.Example, ex.Page, ex.Heading, want, r, err, src)
			}
		}
	}
}

func asExprError(err error, target **ExprError) bool {
	ee, ok := err.(*ExprError)
	if ok {
		*target = ee
	}
	return ok
}
