package cli

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// A delivery whose connection ends before its Content-Length has arrived is
// not a delivery: it is neither verified (its signature would fail on the
// cut body, and it would be reported as a forgery) nor saved, and it is
// answered 503, not 413, so the service is not told to raise a bound its
// event is within. The peer half-closes its side over a real TCP connection
// and reads the answer. A chunked body (no Content-Length) cut mid-chunk is
// refused alike, and its report does not speak of a Content-Length.
func TestListenerAnswersABodyCutOffBeforeItsLength503AndDoesNotSaveIt(t *testing.T) {
	const org = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"
	for _, tc := range []struct {
		name    string
		sent    int // of 1,000 bytes announced
		chunked bool
	}{
		{"no body byte arrived", 0, false},
		{"part of the body arrived", 600, false},
		{"a chunked body cut mid-chunk", 600, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "saved")
			addr, reported := startReportingListener(t, org, dir)

			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			w := bufio.NewWriter(c)
			framing, chunk := "Content-Length: 1000", ""
			if tc.chunked {
				framing, chunk = "Transfer-Encoding: chunked", "3e8\r\n" // one chunk of 1,000 bytes
			}
			fmt.Fprintf(w, "POST / HTTP/1.1\r\nHost: x\r\n%s\r\n", framing)
			forgedHeaders(org, "ev-cut").Write(w)
			w.WriteString("\r\n" + chunk)
			w.WriteString(strings.Repeat(" ", tc.sent)) // a JSON body starts with whitespace as well as anything
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if err := c.(*net.TCPConn).CloseWrite(); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("a delivery cut off after %d of its 1000 bytes got HTTP %d, want 503 (413 tells the service to raise a bound)", tc.sent, resp.StatusCode)
			}
			reports := reported()
			if len(reports) != 1 {
				t.Fatalf("%d reports for the cut delivery, want 1", len(reports))
			}
			line := reports[0].line()
			if reports[0].Verified || !strings.Contains(line, "event=ev-cut") || !strings.Contains(line, "not read whole") && !strings.Contains(line, "truncated") {
				t.Errorf("the cut delivery is reported as %q; want it refused as not arrived whole", line)
			}
			if strings.Contains(line, "over 4 MiB") {
				t.Errorf("the cut delivery is reported as too large: %q", line)
			}
			if tc.chunked && strings.Contains(line, "Content-Length") {
				t.Errorf("the cut chunked delivery, which has no Content-Length, is reported as %q", line)
			}
			for _, sub := range []string{"", "refused"} {
				entries, _ := os.ReadDir(filepath.Join(dir, sub))
				for _, e := range entries {
					if !e.IsDir() && (strings.Contains(e.Name(), "ev-cut") || strings.Contains(e.Name(), ".body")) {
						t.Errorf("the cut delivery was saved as %s", filepath.Join(sub, e.Name()))
					}
				}
			}
		})
	}
}

// startReportingListener starts a webhook listener for org on a free local
// port, saving deliveries under saveDir ("" = not saving), and stops it
// when the test ends. It returns the listener's address and a function
// giving the delivery reports made so far.
func startReportingListener(t *testing.T, org, saveDir string) (addr string, reported func() []deliveryReport) {
	t.Helper()
	var mu sync.Mutex
	var reports []deliveryReport
	ln, serve, err := startWebhookListener("127.0.0.1:0", "http://127.0.0.1:1", org, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, saveDir,
		func(r deliveryReport) error {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, r)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String(), func() []deliveryReport {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(reports)
	}
}
