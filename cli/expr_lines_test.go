package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// wideningCondition ends its first line in a `// comment` and widens itself
// on the next: CEL ends a comment only at a line break, so it matches every
// activity, though joined on one line it reads as USER-only.
const wideningCondition = "activity.resource == 'USER' // only user resources, never the treasury wallets\n|| true"

// commentHides reports a line that shows `|| true` after a `//`, as if it
// were part of the comment.
func commentHides(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if c, w := strings.Index(l, "//"), strings.Index(l, "|| true"); c >= 0 && w > c {
			return l
		}
	}
	return ""
}

// rowOf is the line of out that holds name.
func rowOf(out, name string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, name) {
			return l
		}
	}
	return ""
}

// A policy whose condition widens itself after a comment's line break reads
// as what it does everywhere the CLI shows it: the approve prompt and policy
// get show it line by line, the `|| true` on its own line; policy list shows
// it without the comment, so that the cut cell still holds the `|| true`.
func TestCLIPolicyCommentDoesNotHideCode(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "policy", "create", "--name", "users only", "--effect", "allow",
		"--condition", wideningCondition, "--consensus", "approvers.any(u, u.id == 'x')")
	wantExit(t, "policy create", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	bob := e.client("bob")
	a, err := getActivityShown(t.Context(), bob, id)
	if err != nil {
		t.Fatal(err)
	}
	prompt := voteDetails(t.Context(), proc{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &strings.Builder{}, getenv: func(string) string { return "" }}, bob, a)
	if l := commentHides(prompt); l != "" || !strings.Contains(prompt, api.Quote("|| true")) {
		t.Errorf("bob's approve prompt does not show the `|| true` on its own line:\n%s", prompt)
	}

	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve", code, 0, out, errOut)
	code, out, errOut = e.run("", "activity", "wait", "--timeout", "30s", id)
	wantExit(t, "wait", code, 0, out, errOut)

	code, out, errOut = e.run("", "policy", "list")
	wantExit(t, "policy list", code, 0, out, errOut)
	row := rowOf(out, "users only")
	if !strings.Contains(row, "|| true") || commentHides(row) != "" {
		t.Errorf("policy list: the condition's `|| true` (which makes it match everything) is not shown, or shown after the comment:\n%s", row)
	}

	code, out, errOut = e.run("", "policy", "get", strings.Fields(row)[0])
	wantExit(t, "policy get", code, 0, out, errOut)
	if l := commentHides(out); l != "" {
		t.Errorf("policy get: `|| true` drawn after the comment on its line, as if commented out:\n%s", out)
	}
	head := rowOf(out, "condition:")
	next := rowOf(out[strings.Index(out, head)+len(head):], "|| true")
	if head == "" || strings.TrimSpace(next) != "|| true" || strings.Index(next, "|") != strings.Index(head, "activity.") {
		t.Errorf("policy get: the condition's second line is not under its first:\n%s", out)
	}
}

// The same for an MFA policy's condition in mfa list and mfa get.
func TestCLIMfaCommentDoesNotHideCode(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	alice, err := e.client("alice").GetUser(ctx, e.userID("alice"))
	if err != nil || len(alice.APIKeys) == 0 {
		t.Fatalf("alice should have an API key: %v", err)
	}
	act, err := e.client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: alice.UserID, MfaPolicyName: "users only", Condition: wideningCondition, Order: 3,
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if act = e.approvedByBob(act); act.Result.CreateMfaPolicyResult == nil {
		t.Fatalf("MFA policy not created: %+v", act)
	}

	code, out, errOut := e.run("", "mfa", "list")
	wantExit(t, "mfa list", code, 0, out, errOut)
	if row := rowOf(out, "users only"); !strings.Contains(row, "|| true") || commentHides(row) != "" {
		t.Errorf("mfa list: the condition's `|| true` is not shown, or shown after the comment:\n%s", row)
	}
	code, out, errOut = e.run("", "mfa", "get", act.Result.CreateMfaPolicyResult.MfaPolicyID)
	wantExit(t, "mfa get", code, 0, out, errOut)
	if l := commentHides(out); l != "" || !strings.Contains(out, "\n") || rowOf(out, "|| true") == "" {
		t.Errorf("mfa get: the condition's `|| true` is not on a line of its own:\n%s", out)
	}
}
