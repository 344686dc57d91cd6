package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The MFA screen promises the status of up to maxMfaStatusActivities pending
// activities per load (docs/console.md): it must list that many, not the
// service's default page, which would leave the rest unchecked and the
// heading saying "of more than 10".
func TestMfaStatusChecksUpToItsBoundOfPendingActivities(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	bob := d.Client("bob")
	for i := range 10 {
		if _, err := bob.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: fmt.Sprintf("extra-%d", i), UserIDs: []string{}}); err != nil {
			t.Fatal(err)
		}
	}
	pending, err := d.Client("alice").ListActivities(ctx, api.ListActivitiesOptions{
		Statuses: []string{api.StatusConsensusNeeded, api.StatusAuthenticatorsNeeded}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) <= api.DefaultListLimit || len(pending) > maxMfaStatusActivities {
		t.Fatalf("%d pending: the test needs more than the default page and at most the bound", len(pending))
	}
	h := demoHarness(t, d, nil)
	h.gotoScreen("MFA policies")
	m := h.mfa()
	if m.pending.listed != len(pending) || len(m.statuses) != len(pending) || m.pending.more {
		t.Errorf("%d activities pending, at most %d to check: listed %d, checked %d; heading: %q",
			len(pending), maxMfaStatusActivities, m.pending.listed, len(m.statuses), mfaHeadingLine(h.frame()))
	}
	if line := mfaHeadingLine(h.frame()); strings.Contains(line, "checked of") {
		t.Errorf("all %d pending were checked, but the heading says some were not: %q", len(pending), line)
	}
}

func mfaHeadingLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "for pending activities") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}
