package cli

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// someKey answers every kid with a fresh key: the listener reads the body of
// a delivery whose headers pass, and its signature then fails.
type someKey struct{}

func (someKey) Key(context.Context, string) (ed25519.PublicKey, error) {
	pub, _, err := ed25519.GenerateKey(nil)
	return pub, err
}

// Anyone who can reach `vigil webhook listen` can POST a delivery with
// well-formed headers, a bogus signature and a body of megabytes whose "type"
// is one long string. The REFUSED report (the line, --json, and what the
// console's Webhooks screen gets) shows the unsigned body's values marked as
// unverified and cut short, not megabytes of them.
func TestWebhookListenRefusedDeliveryShowsBoundedUnverifiedValues(t *testing.T) {
	var reports []deliveryReport
	l, err := newListener(someKey{}, "org-1", time.Minute, time.Hour, "", func(r deliveryReport) error {
		reports = append(reports, r)
		return nil
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("T", 1<<20) // three of them: under the 4 MiB a delivery may be
	body := `{"id":"a1` + long + `","type":"` + long + `","status":"S` + long + `"}`
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	for k, v := range map[string]string{
		webhook.HeaderAlgorithm: webhook.Algorithm, webhook.HeaderVersion: webhook.Version,
		webhook.HeaderKeyID: "k1", webhook.HeaderTimestamp: strconv.FormatInt(time.Now().UnixMilli(), 10),
		webhook.HeaderEventID: "ev1", webhook.HeaderSignature: strings.Repeat("00", ed25519.SignatureSize),
		webhook.HeaderOrganizationID: "org-1", webhook.HeaderEventType: webhook.EventTypeActivityUpdates,
	} {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	l.ServeHTTP(rec, req)
	if len(reports) != 1 || reports[0].Verified {
		t.Fatalf("answered %d, reports %d; want one refused delivery", rec.Code, len(reports))
	}
	r := reports[0]
	line := r.line()
	if len(line) > 2<<10 || !strings.HasPrefix(line, "REFUSED unverified: event=ev1") || !strings.Contains(line, "activity=\"a1TTT") ||
		!strings.Contains(line, "type=\"TTT") || !strings.Contains(line, "status=\"STTT") || !strings.Contains(line, "signature") {
		t.Errorf("the refused delivery's line is %d bytes; want the claimed values short, marked unverified, and the reason: %.400q", len(line), line)
	}
	var js bytes.Buffer
	if err := r.write(&js, true); err != nil {
		t.Fatal(err)
	}
	if js.Len() > 2<<10 || !strings.Contains(js.String(), `"type":"TTT`) {
		t.Errorf("--json prints %d bytes for it: %.300q", js.Len(), js.String())
	}
	if n := len(r.ActivityID) + len(r.Type) + len(r.Status); n > 1<<10 {
		t.Errorf("the report the console's Webhooks screen keeps holds %d bytes of unsigned claims", n)
	}
}

// Even a value the signature vouched for is shown cut on the line for
// people: a delivery's line stays a line.
func TestWebhookReportLineCapsEveryValue(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	r := deliveryReport{Verified: true, EventID: long, KeyID: long, OrganizationID: long, ActivityID: long, Type: long, Status: long}
	if line := r.line(); len(line) > 4<<10 || !strings.HasPrefix(line, "verified event=") || !strings.Contains(line, "status=") {
		t.Errorf("a verified delivery's line is %d bytes: %.200q", len(line), line)
	}
}

// The headers of a refused delivery are as unsigned as its body: anyone who
// can reach the listener can send an event id, key id and organization of
// their choosing, as long as the server takes the header. The report marks
// them unverified as it does the body's claims, and cuts them as short, on
// the line, with --json and in what the console keeps.
func TestWebhookListenRefusedDeliveryBoundsUnverifiedHeaders(t *testing.T) {
	var reports []deliveryReport
	l, err := newListener(someKey{}, "org-1", time.Minute, time.Hour, "", func(r deliveryReport) error {
		reports = append(reports, r)
		return nil
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("E", 64<<10)
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"id":"a1","type":"T","status":"S"}`))
	for k, v := range map[string]string{
		webhook.HeaderAlgorithm: webhook.Algorithm, webhook.HeaderVersion: webhook.Version,
		webhook.HeaderKeyID: "K" + long, webhook.HeaderTimestamp: strconv.FormatInt(time.Now().UnixMilli(), 10),
		webhook.HeaderEventID: "ev" + long, webhook.HeaderSignature: strings.Repeat("00", ed25519.SignatureSize),
		webhook.HeaderOrganizationID: "org-1", webhook.HeaderEventType: webhook.EventTypeActivityUpdates,
	} {
		req.Header.Set(k, v)
	}
	l.ServeHTTP(httptest.NewRecorder(), req)
	if len(reports) != 1 || reports[0].Verified {
		t.Fatalf("reports %d; want one refused delivery", len(reports))
	}
	r := reports[0]
	if line := r.line(); !strings.HasPrefix(line, "REFUSED unverified: event=") || !strings.Contains(line, "evEEE") || !strings.Contains(line, "KEEE") || !strings.Contains(line, "org=org-1") {
		t.Errorf("the refused delivery's header values are not marked unverified: %.300q", line)
	}
	var js bytes.Buffer
	if err := r.write(&js, true); err != nil {
		t.Fatal(err)
	}
	if js.Len() > 2<<10 || !strings.Contains(js.String(), `"eventId":"evEEE`) || !strings.Contains(js.String(), `"keyId":"KEEE`) {
		t.Errorf("--json prints %d bytes for it: %.300q", js.Len(), js.String())
	}
	if n := len(r.EventID) + len(r.KeyID) + len(r.OrganizationID); n > 1<<10 {
		t.Errorf("the report the console's Webhooks screen keeps holds %d bytes of unsigned header values", n)
	}
}
