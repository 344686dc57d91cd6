package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// proposeWarnedPolicy has carol propose a deny whose condition the real
// service never meets (a lower-case action; a type with a hidden bidi
// control), as 'policy create' warned her; it returns the activity id and
// the warnings each reader must be shown, escaped.
func (e *verbEnv) proposeWarnedPolicy() (id string, want []string) {
	e.t.Helper()
	act, err := e.client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "No deletions",
		Effect: api.EffectDeny, Condition: "activity.action == 'delete' || activity.type == 'ACTIVITY_TYPE_X\u202e'"})
	if err != nil {
		e.t.Fatal(err)
	}
	return act.ID, []string{
		`WARNING: column 20: "delete" is never an activity.action, so this comparison is never true (a deny written on it never denies): actions are upper case: 'DELETE'`,
		`WARNING: column 49: "ACTIVITY_TYPE_X\u202e" is never an activity.type`,
	}
}

// activity get warns of what a proposed policy's condition does differently
// on the real service, as the console's activity detail does.
func TestActivityGetWarnsOfThePolicysCondition(t *testing.T) {
	e := newVerbEnv(t)
	id, want := e.proposeWarnedPolicy()
	code, out, errOut := e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("activity get lacks %q:\n%s", w, out)
		}
	}
	wantOnlyEscaped(t, "activity get", out)
}

// approve --yes reads no prompt, so it says the condition's warnings the
// prompt shows on standard error before it votes, escaped, as the
// feature-value warning is.
func TestApproveYesWarnsOfThePolicysCondition(t *testing.T) {
	e := newVerbEnv(t)
	id, want := e.proposeWarnedPolicy()
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve --yes", code, 0, out, errOut)
	for _, w := range want {
		line := "vigil: warning: the policy's condition: " + strings.TrimPrefix(w, "WARNING: ")
		if !strings.Contains(errOut, line) {
			t.Errorf("approve --yes did not warn %q on standard error:\n%s", line, errOut)
		}
	}
	wantOnlyEscaped(t, "approve --yes", errOut)
}

// proposeConsensusWarnedPolicy has carol propose an allow whose consensus
// reads an approver's name, a field the real service's User does not have
// (there the consensus errors, so the allow never allows), and whose
// condition is warned too; it returns the activity id and the two warnings,
// each under the heading naming its part, as activity get and the vote
// prompt print them.
func (e *verbEnv) proposeConsensusWarnedPolicy() (id string, want []string) {
	e.t.Helper()
	act, err := e.client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "Alice approves",
		Effect: api.EffectAllow, Condition: "activity.action == 'delete'", Consensus: "approvers.any(u, u.name == 'alice')"})
	if err != nil {
		e.t.Fatal(err)
	}
	return act.ID, []string{
		"the policy's condition:\n  WARNING: column 20: \"delete\" is never an activity.action",
		"the policy's consensus:\n  WARNING: column 19: .name: the real service's User has no field name (only id, tags, email and alias); write .alias",
	}
}

// activity get warns of what a proposed policy's consensus does differently
// on the real service, under its own heading, as the console's detail does.
func TestActivityGetWarnsOfThePolicysConsensus(t *testing.T) {
	e := newVerbEnv(t)
	id, want := e.proposeConsensusWarnedPolicy()
	code, out, errOut := e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("activity get lacks %q:\n%s", w, out)
		}
	}
}

// approve --yes says the consensus's warnings on standard error, naming the
// part, as it says the condition's.
func TestApproveYesWarnsOfThePolicysConsensus(t *testing.T) {
	e := newVerbEnv(t)
	id, _ := e.proposeConsensusWarnedPolicy()
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve --yes", code, 0, out, errOut)
	for _, line := range []string{
		"vigil: warning: the policy's condition: column 20: \"delete\" is never an activity.action",
		"vigil: warning: the policy's consensus: column 19: .name: the real service's User has no field name",
	} {
		if !strings.Contains(errOut, line) {
			t.Errorf("approve --yes did not warn %q on standard error:\n%s", line, errOut)
		}
	}
}

// activity get prints a condition and consensus of several lines one
// source line per line, so their warnings say the line as well as the
// column: column 22 and 21 of the first line shown would point at
// "'WALLET' &&" and "1 &&", not at the literal and the .name of line 2.
func TestActivityGetWarnsOfAMultilinePolicyAtLineAndColumn(t *testing.T) {
	e := newVerbEnv(t)
	act, err := e.client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "Alice approves",
		Effect: api.EffectAllow, Condition: "activity.resource == 'WALLET' &&\n  activity.action == 'delete'",
		Consensus: "approvers.count() >= 1 &&\n  approvers.any(u, u.name == 'alice')"})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "activity", "get", act.ID)
	wantExit(t, "activity get", code, 0, out, errOut)
	for _, w := range []string{
		"the policy's condition:\n  WARNING: line 2, column 22: \"delete\" is never an activity.action",
		"the policy's consensus:\n  WARNING: line 2, column 21: .name: the real service's User has no field name",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("activity get lacks %q:\n%s", w, out)
		}
	}
}

// A warning's column counts the condition as activity get prints it: a tab
// shown as \t takes two cells, so the column after it points at the token,
// not one cell short.
func TestActivityGetWarningColumnCountsTheConditionAsPrinted(t *testing.T) {
	e := newVerbEnv(t)
	act, err := e.client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "tabs",
		Effect: api.EffectDeny, Condition: "activity.resource == 'WALLET' &&\n\t\tactivity.action == 'delete'"})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "activity", "get", act.ID)
	wantExit(t, "activity get", code, 0, out, errOut)
	printed := ""
	for l := range strings.Lines(out) {
		if strings.Contains(l, `activity.action == 'delete'`) {
			printed = strings.TrimSpace(l)
		}
	}
	// The 'delete' literal: column 24 inside the printed quotes ("\t\t"
	// four cells), column 22 in the source (a tab one character each).
	if i := strings.Index(printed, "'delete'"); !strings.HasPrefix(printed, `"`) || i != 24 {
		t.Fatalf("precondition: the second line printed as %q, 'delete' at %d", printed, i)
	}
	if !strings.Contains(out, `WARNING: line 2, column 24: "delete" is never an activity.action`) {
		t.Errorf("the warning's column does not point at 'delete' as printed (%q):\n%s", printed, out)
	}
}

// A warning's column counts only the line as printed between its quotes:
// the note api.Quote adds after the closing quote, " (not NFC)" for a
// decomposed accent or " (Cyrillic)" for look-alike letters, is not text
// before the token, and counting it put the column 10 or more past it.
func TestActivityGetWarningColumnLeavesOutQuotesNote(t *testing.T) {
	for _, tc := range []struct {
		condition, printed string
		column             string
	}{
		// 'delete' after 'cafe\u0301' (12 cells) and " != '' && activity.action == " (29).
		{"'cafe\u0301' != '' && activity.action == 'delete'", `"'cafe\u0301' != '' && activity.action == 'delete'" (not NFC)`, "column 42:"},
		// 'delete' after "'орѕ' != '' || " (15 cells), the prefix Cyrillic letters alone.
		{"'орѕ' != '' || 'delete' == activity.action", `"'орѕ' != '' || 'delete' == activity.action"`, "column 16:"},
	} {
		e := newVerbEnv(t)
		act, err := e.client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "noted",
			Effect: api.EffectDeny, Condition: tc.condition})
		if err != nil {
			t.Fatal(err)
		}
		code, out, errOut := e.run("", "activity", "get", act.ID)
		wantExit(t, "activity get", code, 0, out, errOut)
		if tc.printed != "" && !strings.Contains(out, tc.printed) {
			t.Fatalf("precondition: the condition is not printed as %s:\n%s", tc.printed, out)
		}
		if !strings.Contains(out, "WARNING: "+tc.column+` "delete" is never an activity.action`) {
			t.Errorf("%q: the warning is not at %s\n%s", tc.condition, tc.column, out)
		}
	}
}
