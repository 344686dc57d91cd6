package cli

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/webhook"
)

// A delivery whose body is over the listener's bound is answered 413 (the
// service retries it) and reported on the output, so whoever watches the
// listener sees why the event does not arrive.
func TestListenerReportsADeliveryRefusedAsTooLarge(t *testing.T) {
	const org = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"
	addr, reported := startReportingListener(t, org, "")

	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/", bytes.NewReader(make([]byte, webhook.MaxBodyBytes+1)))
	req.Header = forgedHeaders(org, "ev-big")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an oversized delivery got HTTP %d, want 413", resp.StatusCode)
	}
	reports := reported()
	if len(reports) != 1 {
		t.Fatalf("%d reports for the oversized delivery, want 1", len(reports))
	}
	line := reports[0].line()
	if reports[0].Verified || !strings.Contains(line, "REFUSED unverified: event=ev-big") || !strings.Contains(line, "over 4 MiB") {
		t.Errorf("the oversized delivery is reported as %q; want it REFUSED, naming the event and the bound", line)
	}
}
