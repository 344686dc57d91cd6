package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// commentSwallows reports a frame line on which a `//` comment is followed by
// code the service runs: drawn on one line, the code reads as part of the
// comment.
func commentSwallows(frame, code string) string {
	for _, l := range strings.Split(frame, "\n") {
		if i := strings.Index(l, "//"); i >= 0 && strings.Contains(l[i:], code) {
			return l
		}
	}
	return ""
}

// A stored condition written on several lines, with a comment on the first,
// is a deny on everything (`|| true` follows the comment): the policy's
// detail draws it on its lines, the `|| true` on a line of its own.
func TestPolicyDetailKeepsConditionLines(t *testing.T) {
	pol := api.Policy{PolicyID: "pol-x", PolicyName: "Deny user changes", Effect: api.EffectDeny,
		Condition: "activity.resource == 'USER' // only users\r\n|| true",
		CreatedAt: api.NewTime(testNow.Add(-time.Hour)), UpdatedAt: api.NewTime(testNow.Add(-time.Hour))}
	out := policyDetailFrame(t, pol)
	if l := commentSwallows(out, "|| true"); l != "" {
		t.Errorf("the policy's detail draws code after a comment on the comment's line: %q\n%s", strings.TrimSpace(l), out)
	}
	if !strings.Contains(out, "|| true") || strings.Contains(out, `\r`) {
		t.Errorf("the condition's second line is not drawn as written:\n%s", out)
	}
}

// The MFA policies list and detail showed the raw condition: the same
// comment swallowed the `|| true` after it.
func TestMfaConditionCommentDoesNotSwallowCode(t *testing.T) {
	pols := alicePolicies()
	pols["u-alice"][1].Condition = "activity.type == 'X' // big transfers only\n|| true"
	fake := &fakeClient{users: governanceUsers(), mfaPolicies: pols}
	h := memberConsole(t, fake)
	h.gotoScreen("MFA policies")
	out := h.frame()
	if l := commentSwallows(out, "|| true"); l != "" {
		t.Errorf("the MFA list draws code after a comment on the comment's line: %q\n%s", strings.TrimSpace(l), out)
	}
	for range 2 {
		h.key("enter")
		out = h.frame()
		if strings.Contains(out, "big transfers") {
			break
		}
		h.key("esc")
		h.key("down")
	}
	if !strings.Contains(out, "|| true") {
		t.Fatalf("the MFA policy's detail does not show the condition's second line:\n%s", out)
	}
	if l := commentSwallows(out, "|| true"); l != "" {
		t.Errorf("the MFA policy's detail draws code after a comment on the comment's line: %q\n%s", strings.TrimSpace(l), out)
	}
}

// A line break inside a triple-quoted string is shown as \n on the string's
// line: split there, `// only user resources”' || true` drew as a line of
// its own, reading as a comment that hides `|| true`, which is code.
func TestPolicyDetailTripleQuotedBreakStaysOnItsLine(t *testing.T) {
	pol := api.Policy{PolicyID: "pol-x", PolicyName: "Users only", Effect: api.EffectAllow,
		Condition: "activity.resource == '''USER\n// only user resources''' || true",
		CreatedAt: api.NewTime(testNow.Add(-time.Hour)), UpdatedAt: api.NewTime(testNow.Add(-time.Hour))}
	out := policyDetailFrame(t, pol)
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "|| true") {
			row = l
		}
	}
	if !strings.Contains(row, "activity.resource ==") {
		t.Errorf("the detail draws `|| true` on a line of its own, after `//`, as if commented out:\n%s", out)
	}
}

// policyDetailFrame is the console's frame with pol, the one policy of the
// organization, open in the Policies screen.
func policyDetailFrame(t *testing.T, pol api.Policy) string {
	t.Helper()
	h := newHarness(t, &fakeClient{activities: sampleActivities(), policies: []api.Policy{pol}}, false, 0)
	h.toPolicies()
	h.key("enter")
	return h.plainFrame()
}
