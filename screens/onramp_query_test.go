package screens

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// openOnrampQuery opens "get onramp transaction status" from the palette.
func openOnrampQuery(h *harness) {
	h.key(":")
	h.typeText("get onramp transaction status")
	h.key("enter")
}

// A transaction id pasted with spaces around it finds the transaction, as
// every other id field of the forms does, rather than "not found".
func TestOnrampStatusTrimsTheTransactionID(t *testing.T) {
	d := servertest.StartDemo(t)
	want, err := d.Client("alice").GetOnrampTransactionStatus(context.Background(), "onramp-demo-1", false)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOnrampQuery(h)
	h.typeText(" onramp-demo-1 ")
	h.key("ctrl+s")
	if out := h.frame(); !strings.Contains(out, "on-ramp transaction onramp-demo-1: "+want) {
		t.Errorf("want the status %s of onramp-demo-1 shown:\n%s", want, out)
	}
}

// An id the service does not know is named quoted in the error, and a long
// hex id (the CLI sends one too: a provider may choose it) is sent, not
// refused as a key.
func TestOnrampStatusErrorQuotesTheID(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	hex := strings.Repeat("0123456789abcdef", 4)
	openOnrampQuery(h)
	h.typeText(hex)
	h.key("ctrl+s")
	var messages strings.Builder
	for _, e := range h.root.log.entries {
		messages.WriteString(e.text + "\n")
	}
	if got := messages.String(); !strings.Contains(got, `on-ramp transaction "`+hex+`": `) || !strings.Contains(got, "not found") {
		t.Errorf("want the long hex id sent and named quoted before the \"not found\" error:\n%s", got)
	}
}

// The transaction id is bounded as the other id fields are (api.MaxIDLength,
// named rather than left to the input's default): what goes past it is not
// taken in, and the form says so.
func TestOnrampStatusBoundsTheTransactionID(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOnrampQuery(h)
	h.typeText(strings.Repeat("x", api.MaxIDLength+10))
	want := fmt.Sprintf("takes at most %d characters", api.MaxIDLength)
	if out := strings.Join(strings.Fields(h.frame()), " "); !strings.Contains(out, want) {
		t.Errorf("want %q shown for an id of %d characters:\n%s", want, api.MaxIDLength+10, h.frame())
	}
}
