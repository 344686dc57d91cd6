package policy

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The documentation's own policies compare activity.type, kind, resource and
// action only with values activities have, so none may be warned "never
// true": the secrets and Spark types, which the docs name outside their
// resource and action table, included (audit 214, M1).
func TestNoEnumWarningOnTheDocsPolicies(t *testing.T) {
	n := 0
	check := func(where, condition string) {
		t.Helper()
		n++
		for _, w := range enumWarnings(condition) {
			t.Errorf("%s: %q is warned, yet the docs write it: %s", where, condition, w.Message)
		}
	}
	for _, x := range loadDocExamples(t) {
		check(x.Page+" "+x.Heading, x.Condition)
	}
	for _, x := range loadDocPageExprs(t) {
		if x.Field == "condition" {
			check(x.Page, x.Expr)
		}
	}
	b, err := os.ReadFile("../docs/policy-language.md")
	if err != nil {
		t.Fatal(err)
	}
	// The comparisons docs/policy-language.md shows as never matching.
	shownWrong := map[string]bool{"activity.action == 'delete'": true, "activity.type == ''": true}
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(string(b), -1) {
		if shownWrong[m[1]] {
			if len(enumWarnings(m[1])) != 1 {
				t.Errorf("%q, which the docs say never matches, is not warned", m[1])
			}
			continue
		}
		check("docs/policy-language.md", m[1])
	}
	if n < 200 {
		t.Fatalf("checked %d expressions: the test covers too little", n)
	}
}

// An activity's kind is empty for the root quorum's types, its resource and
// action for the types the docs' table omits: comparing with ” matches
// those, so it is not warned; an activity's type is never empty.
func TestEnumWarningsOnEmptyValues(t *testing.T) {
	for cond, activityType := range map[string]string{
		"activity.kind == ''":     "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM",
		"activity.resource == ''": "ACTIVITY_TYPE_EXPORT_SECRETS",
		"activity.action == ''":   "ACTIVITY_TYPE_SPARK_SIGN_FROST",
	} {
		c, err := Compile(cond, "")
		if err != nil {
			t.Fatal(err)
		}
		if matched, _, err := c.Evaluate(Input{Activity: ActivityFor(activityType, nil)}); err != nil || !matched {
			t.Fatalf("%s on %s: matched %v, %v", cond, activityType, matched, err)
		}
		if ws := Warnings(Source{Condition: cond}); len(ws) != 0 {
			t.Errorf("%s matches a %s activity, yet is warned: %v", cond, activityType, ws)
		}
	}
	ws := Warnings(Source{Condition: "activity.type == ''"})
	if len(ws) != 1 || !strings.Contains(ws[0].Message, "never true") {
		t.Errorf("activity.type == '': warnings %v, want one saying it is never true", ws)
	}
}

// The types the docs name outside the resource and action table: the
// engine matches them, so they are not warned.
func TestNoEnumWarningOnSecretsAndSparkTypes(t *testing.T) {
	for _, typ := range []string{
		"ACTIVITY_TYPE_EXPORT_SECRETS", "ACTIVITY_TYPE_IMPORT_SECRETS", "ACTIVITY_TYPE_INIT_IMPORT_SECRETS",
		"ACTIVITY_TYPE_SPARK_SIGN_FROST", "ACTIVITY_TYPE_SPARK_PREPARE_TRANSFER",
		"ACTIVITY_TYPE_SPARK_CLAIM_TRANSFER", "ACTIVITY_TYPE_SPARK_PREPARE_LIGHTNING_RECEIVE",
	} {
		for _, cond := range []string{"activity.type == '" + typ + "'", "activity.kind == '" + KindOf(typ) + "'"} {
			c, err := Compile(cond, "")
			if err != nil {
				t.Fatal(err)
			}
			if matched, _, err := c.Evaluate(Input{Activity: ActivityFor(typ, nil)}); err != nil || !matched {
				t.Fatalf("%s: matched=%v err=%v", cond, matched, err)
			}
			for _, d := range Warnings(Source{Condition: cond}) {
				t.Errorf("%s matches a %s activity, yet is warned: %s", cond, typ, d.Message)
			}
		}
	}
}

// Every value the docs give activity.resource, activity.action and
// activity.kind may match a real activity, so none is warned "never true":
// the resources and actions their "Activity resources and actions" section
// calls valid (some of which its by-type table gives to no type), and the
// kinds (and types) of their "Activity kinds" table that the by-type table
// omits (features/policies/language.mdx, tkhq/docs at c8289df2).
func TestNoEnumWarningOnDocumentedValues(t *testing.T) {
	var conditions []string
	// "Valid `activity.resource` values are …", "Valid `activity.action` values are …".
	for _, r := range strings.Fields("AUTH AUTH_PROXY CONFIG CREDENTIAL FIAT_TRANSACTION INVITATION MFA_POLICY " +
		"ON_RAMP_CREDENTIALS ORGANIZATION OTP PAYMENT_METHOD POLICY PRIVATE_KEY RECOVERY SESSION_PROFILE " +
		"SMART_CONTRACT_INTERFACE SPONSORSHIP SUBSCRIPTION TVC_APP TVC_DEPLOYMENT TVC_OPERATOR TVC_QUORUM_KEY " +
		"USER WALLET WEBHOOK_ENDPOINT") {
		conditions = append(conditions, "activity.resource == '"+r+"'")
	}
	for _, a := range strings.Fields("CREATE UPDATE DELETE SIGN EXPORT IMPORT VERIFY ENCRYPT") {
		conditions = append(conditions, "activity.action == '"+a+"'")
	}
	// Rows of "Activity kinds" whose types the by-type table does not list.
	for _, kind := range strings.Fields("UPSERT_SWAP_CONFIG EXECUTE_SWAP INIT_FIAT_ON_RAMP CREATE_FIAT_ON_RAMP_CREDENTIAL " +
		"DELETE_FIAT_ON_RAMP_CREDENTIAL UPDATE_FIAT_ON_RAMP_CREDENTIAL UPSERT_GAS_USAGE_CONFIG UPDATE_MFA_POLICY " +
		"DELETE_MFA_POLICY CREATE_SESSION_PROFILE") {
		conditions = append(conditions, "activity.kind == '"+kind+"'", "activity.type == 'ACTIVITY_TYPE_"+kind+"'")
	}
	for _, cond := range conditions {
		for _, w := range Warnings(Source{Condition: cond}) {
			t.Errorf("%s is warned, yet the docs give that value: %s", cond, w.Message)
		}
	}
	// Still warned: a value the docs never give.
	if ws := Warnings(Source{Condition: "activity.resource == 'SPONSORSHIPS'"}); len(ws) != 1 {
		t.Errorf("activity.resource == 'SPONSORSHIPS': warnings %v, want one", ws)
	}
}
