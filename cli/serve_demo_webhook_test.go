package cli

import (
	"context"
	"strings"
	"testing"
	"time"
)

// 'vigil serve --demo --data DIR' after a 'vigil demo --data DIR' run that
// stopped with an event pending for its listener's random port, now some
// other program's: serve has no demo listener, so it sends that program
// nothing, and says what became of the event (kept as dead, logged).
func TestServeDemoSendsNothingToAnEarlierDemoRunsListenerPort(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	act, stray := demoRunLeftAnEventPending(ctx, t, dir)

	_, logs := startServe(t, dir, "--demo")
	// Once the event is kept as dead it is never sent: then whatever reached
	// the other program has reached it.
	for !strings.Contains(logs.String(), "event="+act.ID+":") {
		select {
		case id := <-stray:
			t.Fatalf("vigil serve --demo POSTed event %s to the previous demo run's port, now another program's", id)
		case <-ctx.Done():
			t.Fatalf("the event of %s, pending for the previous demo run's listener, was neither sent nor logged as not sent:\n%s", act.ID, logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if l := logs.String(); !strings.Contains(l, "webhook not sent") || !strings.Contains(l, "'vigil demo' run") || !strings.Contains(l, "kept as dead") {
		t.Errorf("serve's log does not say why the event was not sent and where it is kept:\n%s", l)
	}
	select {
	case id := <-stray:
		t.Errorf("vigil serve --demo POSTed event %s to the previous demo run's port, now another program's", id)
	default:
	}
}

// A demo that joined a 'vigil serve' has no listener, and must not say the
// service receives the deliveries: vigil serve listens for none, it sends
// them wherever the organization's webhook points.
func TestDemoJoiningServeDoesNotSayServeReceivesDeliveries(t *testing.T) {
	dir := t.TempDir()
	startServe(t, dir, "--demo")
	env, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	hooks, err := env.webhooks(context.Background(), discardLogger())
	if err != nil || hooks.feed != nil {
		t.Fatalf("the joined demo's webhooks: %+v %v", hooks, err)
	}
	if !strings.Contains(hooks.noneWhy, "'vigil serve'") || strings.Contains(hooks.noneWhy, "receives the deliveries") {
		t.Errorf("the Webhooks screen of a demo that joined vigil serve says: %q", hooks.noneWhy)
	}
	if !strings.Contains(hooks.noneWhy, "vigil webhook listen") {
		t.Errorf("the Webhooks screen does not say how to receive the deliveries: %q", hooks.noneWhy)
	}
}
