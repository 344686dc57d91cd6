package cli

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// Anyone who knows the organization id (sent in the clear with every
// delivery) passes the header checks with a made-up signature. The bodies of
// such requests, held unfinished on many connections, must stay within a
// budget (else 4,096 connections x 4 MiB), and a request past it is answered
// 503 with Retry-After, so the service would send a genuine one again.
func TestListenerBoundsUnverifiedBodiesAcrossConnections(t *testing.T) {
	const org = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"
	ln, serve, err := startWebhookListener("127.0.0.1:0", "http://127.0.0.1:1", org, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, "",
		func(deliveryReport) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	const conns = 24
	const bodyLen = maxDeliveryBody // 4 MiB: within the per-request limit
	chunk := make([]byte, 64<<10)
	var open []net.Conn
	for i := range conns {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
		w := bufio.NewWriter(c)
		fmt.Fprintf(w, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n", bodyLen)
		forgedHeaders(org, fmt.Sprintf("ev-%d", i)).Write(w)
		w.WriteString("\r\n")
		for sent := 0; sent < bodyLen-1; sent += len(chunk) { // all but the last byte: the read never ends
			n := min(len(chunk), bodyLen-1-sent)
			w.Write(chunk[:n])
		}
		w.Flush() // fails once the listener has answered 503 and closed: refused, as it should be
	}
	t.Cleanup(func() {
		for _, c := range open {
			c.Close()
		}
	})
	// The handlers read what was sent in their own time (the writes above
	// may end in the kernel's buffers first): a delivery sent before they
	// spent the budget is read, and refused 503 without Retry-After for its
	// made-up key. Ask again, a new event each time, until the budget is
	// spent; without a budget it never is.
	var status int
	var retryAfter string
	for i, deadline := 0, time.Now().Add(30*time.Second); ; i++ {
		req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/", strings.NewReader(`{"organizationId":"`+org+`"}`))
		req.Header = forgedHeaders(org, fmt.Sprintf("ev-late-%d", i))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		status, retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
		if status == http.StatusServiceUnavailable && retryAfter != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if status != http.StatusServiceUnavailable || retryAfter == "" {
		t.Errorf("with the body budget spent, a delivery got HTTP %d (Retry-After %q) for 30s; want 503 with Retry-After, so the service retries", status, retryAfter)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("heap in use grew by %d MiB for %d forged, unfinished deliveries", grown>>20, conns)
	if grown > 32<<20 {
		t.Errorf("the listener holds %d MiB of forged (unverifiable) bodies from %d connections; no budget bounds it (x4096 connections allowed)", grown>>20, conns)
	}
}

// forgedHeaders are delivery headers that pass the checks made before the
// body is read (the organization id is public), with a made-up key id and
// signature.
func forgedHeaders(org, event string) http.Header {
	h := http.Header{}
	for k, v := range map[string]string{webhook.HeaderAlgorithm: webhook.Algorithm, webhook.HeaderVersion: webhook.Version,
		webhook.HeaderKeyID: "made-up", webhook.HeaderTimestamp: strconv.FormatInt(time.Now().UnixMilli(), 10),
		webhook.HeaderEventID: event, webhook.HeaderSignature: strings.Repeat("ab", 64),
		webhook.HeaderOrganizationID: org, webhook.HeaderEventType: webhook.EventTypeActivityUpdates} {
		h.Set(k, v)
	}
	return h
}
