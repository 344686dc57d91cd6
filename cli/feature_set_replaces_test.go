package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A forgotten --value must not quietly submit "" (for WEBHOOK: webhooks off,
// approved by the quorum as a mere change): it is a usage error, and nothing
// reaches the service.
func TestFeatureSetWithoutValueIsRefusedBeforeSending(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	before, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"webhook", "email_auth"} {
		code, out, errOut := e.run("", "feature", "set", name)
		wantExit(t, "feature set "+name, code, exitUsage, out, errOut)
		if !strings.Contains(errOut, "--value is required") || !strings.Contains(errOut, "--value ''") {
			t.Errorf("feature set %s without --value does not say to give it (or '' to turn it off):\n%s", name, errOut)
		}
	}
	after, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("feature set without --value submitted an activity (%d activities, were %d)", len(after), len(before))
	}
}

// Turning webhooks off is said as such, with the URL it removes; the approve
// prompt of that change says which value it replaces, as the console does.
func TestFeatureChangeSaysWhatItReplacesToSubmitterAndVoter(t *testing.T) {
	e := newVerbEnv(t)
	const url = "https://hooks.example.com/vigil-replaced"
	if a := e.submitAndApprove("", "feature", "set", "--value", url, "webhook"); a.Status != api.StatusCompleted {
		t.Fatalf("set the webhook: %s", a.Status)
	}

	code, out, errOut := e.run("", "feature", "set", "--value", "", "webhook")
	wantExit(t, "feature set --value '' webhook", code, 0, out, errOut)
	if !strings.Contains(errOut, "turns webhooks off") || !strings.Contains(errOut, api.Quote(url)) {
		t.Errorf("turning webhooks off does not say so, with the URL it removes (%s):\n%s", api.Quote(url), errOut)
	}

	id := activityIDFrom(t, out)
	var buf strings.Builder
	c := proc{stdin: strings.NewReader(""), stdout: &buf, stderr: &buf, getenv: func(string) string { return "" }}
	bob := e.client("bob")
	a, err := getActivityShown(t.Context(), bob, id)
	if err != nil {
		t.Fatal(err)
	}
	if details := voteDetails(t.Context(), c, bob, a); !strings.Contains(details, "replaces: "+api.Quote(url)) {
		t.Errorf("bob's approve prompt does not say the change replaces %s:\n%s", api.Quote(url), details)
	}
}

// `vigil feature list` marks look-alike letters as the vote prompt does: a
// webhook host with Cyrillic "о"s never reads as the real one.
func TestFeatureListMarksLookalikeLetters(t *testing.T) {
	e := newVerbEnv(t)
	const lookalike = "https://h\u043e\u043eks.example.com/v"
	if a := e.submitAndApprove("", "feature", "set", "--value", lookalike, "webhook"); a.Status != api.StatusCompleted {
		t.Fatalf("set the webhook: %s", a.Status)
	}
	code, out, errOut := e.run("", "feature", "list")
	wantExit(t, "feature list", code, 0, out, errOut)
	if !strings.Contains(out, api.Quote(lookalike)) || strings.Contains(out, lookalike) {
		t.Errorf("feature list does not show the webhook as %s:\n%s", api.Quote(lookalike), out)
	}
}
