package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// Two listeners saving in one --save DIR would each trim DIR/accepted-events
// from their own memory, and after a restart save a redelivered event again.
// The second is refused, naming DIR and what to do; once the first stops,
// DIR can be listened on again.
func TestWebhookListenRefusesASecondListenerOnOneSaveDir(t *testing.T) {
	saveDir := t.TempDir()
	start := func() (func(context.Context) error, error) {
		_, serve, err := startWebhookListener("127.0.0.1:0", "http://127.0.0.1:1", hookOrg, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, saveDir,
			func(deliveryReport) error { return nil })
		return serve, err
	}
	serve, err := start()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()

	_, err = start()
	if err == nil {
		t.Fatal("a second listener on the same --save directory was started")
	}
	for _, want := range []string{saveDir, "another listener", "stop it first", "another --save directory"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	serve, err = start()
	if err != nil {
		t.Fatalf("after the first listener stopped: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if err := serve(ctx); err != nil {
		t.Fatal(err)
	}
}
