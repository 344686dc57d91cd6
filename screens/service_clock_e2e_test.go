package screens

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The service's clock is 3 hours behind this machine's. Alice proposed 23
// hours ago by the service's clock (26 by this machine's): her approval
// still counts, so the service keeps the activity waiting with her vote, and
// the console must count it too: bob's approval runs it. By this machine's
// clock the round would have ended and the dialog would say bob's vote
// leaves it waiting. The status bar says the clocks differ.
func TestEndToEndConsoleJudgesVotesByTheServiceClock(t *testing.T) {
	var offset atomic.Int64 // the service's clock minus this machine's
	serviceNow := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	d := servertest.StartDemoOn(t, serviceNow)
	ctx := context.Background()

	offset.Store(int64(-26 * time.Hour))                           // the service 23 hours ago
	alice := d.ClientAt(d.URL, "alice", api.WithClock(serviceNow)) // a submit's time must be the service's
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "clock-skew", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	offset.Store(int64(-3 * time.Hour)) // the service now
	if got, err := alice.GetActivity(ctx, act.ID); err != nil || len(got.Votes) != 1 {
		t.Fatalf("set-up: the service should still count alice's approval of 23 h ago: %+v %v", got, err)
	}

	bob := d.Client("bob") // on this machine's clock, as the console is
	r := NewRoot(Options{Reader: bob, Submitter: bob, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Static: true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	h.run(r.Init())
	for range len(h.activities().items) {
		if h.activities().selected().ID == act.ID {
			break
		}
		h.key("down")
	}
	if h.activities().selected().ID != act.ID {
		t.Fatalf("activity %s is not listed:\n%s", act.ID, h.frame())
	}
	if frame := h.frame(); !strings.Contains(frame, "service clock 3h behind this machine's: times shown are the service's") {
		t.Errorf("the status bar does not say the service's clock is 3 h behind:\n%s", frame)
	}
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(text, "runs now") {
		t.Errorf("alice's approval still counts by the service's clock, so bob's runs it, but the dialog says otherwise:\n%s", text)
	}
}
