package main

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Alice has bob's pending activity open; carol approves it from elsewhere. Within
// a refresh interval the open detail says COMPLETED and that alice can no longer
// vote, and a toast (kept in the messages view) says it completed after carol's
// approval — all against the local service.
func TestConsoleDetailFollowsAnotherMembersApprovalEndToEnd(t *testing.T) {
	demo := servertest.StartDemo(t)
	alice, carol := demo.Client("alice"), demo.Client("carol")
	ctx := context.Background()
	pending, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("demo should have one pending DELETE_API_KEYS: %v %v", pending, err)
	}
	target := pending[0]

	root := screens.NewRoot(screens.Options{Reader: alice, Submitter: alice, Profile: "alice",
		Theme: theme.Options{Dark: true, NoColor: true}, Refresh: 300 * time.Millisecond})
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(160, 48))
	waitForText(t, tm, "delete 1 API key", "Vigil Demo")
	tm.Type("/DELETE_API_KEYS")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitForText(t, tm, "Policy evaluations")

	if _, err := carol.ApproveActivity(ctx, target.Fingerprint); err != nil {
		t.Fatalf("carol approves: %v", err)
	}
	waitForText(t, tm, "approval:")
	tm.Type("q")
	final, ok := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*screens.Root)
	if !ok {
		t.Fatal("final model is not the console")
	}
	frame := ansi.Strip(final.Render())
	for _, want := range []string{"ACTIVITY_STATUS_COMPLETED", "approve: no, reject: no", "carol"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the open detail does not follow the activity: no %q in\n%s", want, frame)
		}
	}
	final.Update(tea.KeyPressMsg{Code: 'm', Text: "m"})
	messages := strings.Join(strings.Fields(ansi.Strip(final.Render())), " ")
	if !strings.Contains(messages, "completed after carol's approval: delete 1 API key") {
		t.Errorf("no 'completed after carol's approval' notice in the messages view:\n%s", ansi.Strip(final.Render()))
	}
}
