package cli

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// lockedBuffer is a bytes.Buffer a logger and a test may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	b.buf.Reset()
	return s
}

// When the console's queue is full, the service's redelivery of an event it
// already accepted is still answered 200; the console's log must say so, not
// that it was answered 503 (which would send the operator hunting for a lost
// event).
func TestConsoleWebhookFeedLogsWhatARedeliveryWasAnswered(t *testing.T) {
	ring, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	jwks := httptest.NewServer(webhook.JWKSHandler(ring))
	defer jwks.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs lockedBuffer
	feed, err := consoleWebhookFeed(ctx, Profile{Name: "p", BaseURL: jwks.URL, OrganizationID: hookOrg, WebhookListen: "127.0.0.1:0"}, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + feed.Addr + "/"
	sign := func(id string) (http.Header, []byte) {
		body := activityBody(id)
		h, err := ring.Sign(hookOrg, id+":ACTIVITY_STATUS_COMPLETED", time.Now(), body)
		if err != nil {
			t.Fatal(err)
		}
		return h, body
	}
	full := false // nothing drains the feed: fill it
	for i := 0; !full && i < 10000; i++ {
		h, body := sign("act-" + strconv.Itoa(i))
		full = post(t, url, h, body) == http.StatusServiceUnavailable
	}
	if !full {
		t.Fatal("the console's queue never filled")
	}
	logs.take()

	h, body := sign("act-0") // the service sends an accepted event again
	st := post(t, url, h, body)
	logged := logs.take()
	if st != http.StatusOK {
		t.Fatalf("a redelivery with the queue full was answered %d, want 200", st)
	}
	if strings.Contains(logged, "503") || !strings.Contains(logged, "answered "+strconv.Itoa(st)) {
		t.Errorf("a redelivery answered %d was logged as:\n%s", st, logged)
	}
}
