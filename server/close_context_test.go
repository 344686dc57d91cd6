package server

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A close whose context has ended (vigil serve's second signal) does not
// wait for a webhook delivery its receiver holds: the log says it was
// abandoned, and the event stays in the outbox for the next start, which
// delivers it. A close with no delivery in progress says nothing of the
// kind, even with its context ended.
func TestCloseContextAbandonsHeldDeliveriesToTheOutbox(t *testing.T) {
	dir := t.TempDir()
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir, log: logs})
	rc, release := newHeldReceiver(t)
	a := mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))
	for rc.requestCount() < 1 {
		time.Sleep(5 * time.Millisecond)
	}
	e.http.Close()
	hurried, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.srv.CloseContext(hurried); err != nil {
		t.Fatal(err)
	}
	if log := logs.String(); !strings.Contains(log, "webhook deliveries abandoned at shutdown") || !strings.Contains(log, "deliveries=1") {
		t.Errorf("the abandoned delivery is not logged:\n%s", log)
	}

	release()
	quiet := &logBuffer{}
	again, err := Open(Config{DataDir: dir, Logger: slog.New(slog.NewTextHandler(quiet, nil))})
	if err != nil {
		t.Fatal(err)
	}
	rc.waitDelivered(t, completedEvent(a))
	waitOutbox(t, again, WebhookOutboxStats{})
	if err := again.CloseContext(hurried); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(quiet.String(), "abandoned") {
		t.Errorf("a close with no delivery in progress says one was abandoned:\n%s", quiet.String())
	}
}
