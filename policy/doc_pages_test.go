package policy

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// docPageExpr is one expression printed on a page of the real service's
// documentation outside the example pages (testdata/doc_pages_exprs.json,
// tkhq/docs at c8289df2): solutions, secrets, delegated access, time-based
// policies, MFA, …
type docPageExpr struct {
	Page, Field, Expr string
	Line              int
}

func loadDocPageExprs(tb testing.TB) []docPageExpr {
	tb.Helper()
	b, err := os.ReadFile("testdata/doc_pages_exprs.json")
	if err != nil {
		tb.Fatal(err)
	}
	var xs []docPageExpr
	if err := json.Unmarshal(b, &xs); err != nil {
		tb.Fatal(err)
	}
	return xs
}

// The Secrets page and the key-management solutions gate secret exports on
// `secret.static_properties[...]`: vigil must accept those policies (the
// CLI and the console refuse to submit what does not compile, and
// simulations drop stored policies that do not).
func TestSecretKeywordPoliciesOfTheDocsCompile(t *testing.T) {
	n := 0
	for _, x := range loadDocPageExprs(t) {
		if x.Field != "condition" || !strings.Contains(x.Expr, "secret.") {
			continue
		}
		n++
		if _, err := Compile(x.Expr, ""); err != nil {
			t.Errorf("%s:%d: %q is refused: %v", x.Page, x.Line, x.Expr, err)
		}
	}
	if n < 5 {
		t.Fatalf("found %d secret policies in the docs' pages, want the 5 of the Secrets and key-management pages", n)
	}
}

// A policy on a secret decides exports of that secret, and neither allows
// nor denies an activity that reads no secret.
func TestSecretKeywordDecides(t *testing.T) {
	cond := "secret.static_properties['kind'] == 'creditCard' && activity.type == 'ACTIVITY_TYPE_EXPORT_SECRETS'"
	allow := mustPolicy(t, "cards-to-agent", api.EffectAllow, cond, "")
	deny := mustPolicy(t, "no-cards", api.EffectDeny, cond, "")
	quorum := Quorum{Threshold: 2, UserIDs: []string{"r1", "r2"}}
	approvers := []Approver{{ID: "u-agent", Name: "agent"}}

	export := func(kind string) Input {
		return Input{Activity: ActivityFor("ACTIVITY_TYPE_EXPORT_SECRETS", nil), Approvers: approvers,
			Secret: map[string]any{"static_properties": map[string]string{"kind": kind}}}
	}
	if d := Decide([]Policy{allow}, export("creditCard"), quorum, false); d.Outcome != api.OutcomeAllow {
		t.Errorf("export of a credit card under an allow on its kind: %s (%s), want ALLOW", d.Outcome, d.Reason)
	}
	if d := Decide([]Policy{allow}, export("password"), quorum, false); d.Outcome != api.OutcomeDenyImplicit {
		t.Errorf("export of a password under an allow on credit cards: %s (%s), want DENY_IMPLICIT", d.Outcome, d.Reason)
	}
	if d := Decide([]Policy{allow, deny}, export("creditCard"), quorum, false); d.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("export of a credit card under a deny on its kind: %s (%s), want DENY_EXPLICIT", d.Outcome, d.Reason)
	}

	// An activity with no secret: the deny must not deny, the allow must not allow.
	other := Input{Activity: ActivityFor("ACTIVITY_TYPE_EXPORT_SECRETS", nil), Approvers: approvers}
	d := Decide([]Policy{allow, deny}, other, quorum, false)
	if d.Outcome != api.OutcomeDenyImplicit {
		t.Errorf("no secret read: %s (%s), want DENY_IMPLICIT (no policy applies)", d.Outcome, d.Reason)
	}
	for id, o := range outcomes(d) {
		if o == api.OutcomeAllow || o == api.OutcomeDenyExplicit {
			t.Errorf("no secret read: policy %s gave %s; a policy on a secret must neither allow nor deny", id, o)
		}
	}
	if !strings.Contains(d.Reason, "reads secret") {
		t.Errorf("no secret read: the reason %q does not say the policies read a secret the activity lacks", d.Reason)
	}
}

// Two solution pages compare eth.tx.chain_id with a quoted number. vigil
// refuses it (the field is a number), and the refusal must say so and how to
// fix it, not only CEL's "no matching overload".
func TestQuotedNumberComparisonSaysToDropTheQuotes(t *testing.T) {
	_, err := Compile("activity.action == 'SIGN' && eth.tx.chain_id == '8453'", "")
	if err == nil {
		t.Fatal("eth.tx.chain_id == '8453' compiles; the field is a number")
	}
	for _, want := range []string{"number", "string", "without quotes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	_, err = Compile("activity.action == 'SIGN' && wallet.imported == 'true'", "")
	if err == nil || !strings.Contains(err.Error(), "bool") || !strings.Contains(err.Error(), "string") {
		t.Errorf("comparing a bool with a string: %v; want both types named", err)
	}
}
