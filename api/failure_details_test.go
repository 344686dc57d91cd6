package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// failureDetailsFixture is a failure's details in the shape of the official
// client's types (rpcStatus.details: protobufAny, an "@type" and that type's
// own members), with hostile text: an escape sequence, a bidi override in a
// key, and a number too large for a float64 to keep.
const failureDetailsFixture = `[` +
	`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"invitations[0].senderUserId","description":"no such user\u001b[31m"}]},` +
	`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SENDER_NOT_FOUND","metadata":{"user\u202eId":"bogusQ"},"limit":12345678901234567891}]`

// failedInvitation submits, through demo, an invitation from a sender that
// is no user and has bob approve it, so that it runs and FAILS; it returns
// the activity's id.
func failedInvitation(t *testing.T, demo *servertest.Demo) string {
	t.Helper()
	ctx := context.Background()
	act, err := demo.Client("alice").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
	if err != nil {
		t.Fatal(err)
	}
	done, err := demo.Client("bob").ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != api.StatusFailed {
		t.Fatalf("the invitation from no user is %s, want FAILED", done.Status)
	}
	return act.ID
}

// withFailureDetails is a Rewrite that adds details to the failure of every
// activity a get_activity reply holds.
func withFailureDetails(details string) servertest.Rewrite {
	return func(op string, _, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		failure, ok := m["activity"]["failure"].(map[string]any)
		if !ok {
			return reply
		}
		failure["details"] = json.RawMessage(details)
		out, err := json.Marshal(m)
		if err != nil {
			return reply
		}
		return out
	}
}

// A failure's details, as the official client types them, are read with
// the record: their text escaped for the terminal as every string of a
// reply is, a key with a bidi override quoted, a large number as sent.
func TestFailureDetailsAreReadAndSanitized(t *testing.T) {
	demo := servertest.StartDemo(t)
	id := failedInvitation(t, demo)
	proxy := demo.Rewriting(withFailureDetails(failureDetailsFixture))
	act, err := demo.ClientAt(proxy, "alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if act.Failure == nil || len(act.Failure.Details) != 2 {
		t.Fatalf("failure %+v, want the two details sent", act.Failure)
	}
	badRequest, _ := act.Failure.Details[0].(map[string]any)
	violations, _ := badRequest["fieldViolations"].([]any)
	if len(violations) != 1 {
		t.Fatalf("detail 1 = %#v, want its one field violation", act.Failure.Details[0])
	}
	if got := violations[0].(map[string]any)["description"]; got != `no such user\u001b[31m` {
		t.Errorf("description = %q, want the escape sequence escaped", got)
	}
	errorInfo, _ := act.Failure.Details[1].(map[string]any)
	if got := errorInfo["@type"]; got != "type.googleapis.com/google.rpc.ErrorInfo" {
		t.Errorf("@type = %q", got)
	}
	metadata, _ := errorInfo["metadata"].(map[string]any)
	if got, ok := metadata[`"user\u202eId"`]; !ok || got != "bogusQ" {
		t.Errorf("metadata = %#v, want its key with the bidi override quoted", metadata)
	}
	if got := errorInfo["limit"]; got != json.Number("12345678901234567891") {
		t.Errorf("limit = %#v, want the number as sent", got)
	}

	lines, notShown := api.FailureDetailLines(act.Failure)
	want := []string{
		`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"description":"no such user\\u001b[31m","field":"invitations[0].senderUserId"}]}`,
		`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","limit":12345678901234567891,"metadata":{"\"user\\u202eId\"":"bogusQ"},"reason":"SENDER_NOT_FOUND"}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") || notShown != 0 {
		t.Errorf("lines (%d not shown):\n%s\nwant:\n%s", notShown, strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// As many details as a reply holds, each as long: the lines shown are the
// first ten, each cut short, and the count of the others.
func TestFailureDetailLinesAreBounded(t *testing.T) {
	long := strings.Repeat("x", 1<<14)
	var details []string
	for i := range 25 {
		details = append(details, fmt.Sprintf(`{"@type":"t%d","note":%q}`, i, long))
	}
	var f api.Failure
	if err := json.Unmarshal([]byte(`{"code":9,"message":"m","details":[`+strings.Join(details, ",")+`]}`), &f); err != nil {
		t.Fatal(err)
	}
	lines, notShown := api.FailureDetailLines(&f)
	if len(lines) != 10 || notShown != 15 {
		t.Fatalf("%d lines, %d not shown; want 10 and 15", len(lines), notShown)
	}
	for i, l := range lines {
		if len(l) > 1100 || !strings.HasPrefix(l, fmt.Sprintf(`{"@type":"t%d","note":"xxx`, i)) || !strings.HasSuffix(l, "…") {
			t.Errorf("line %d is %d bytes: %.80s…%s", i, len(l), l, l[max(0, len(l)-20):])
		}
	}
	if got := api.FailureDetailsNotShown(notShown); got != "(and 15 more details not shown: see the activity's JSON)" {
		t.Errorf("not shown: %q", got)
	}
}
