package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A FAILED activity whose failure carries details (the official client's
// rpcStatus.details, protobuf Any records) shows them under the failure's
// message in 'activity get', a line each, escaped: an escape sequence and a
// bidi override in them do nothing.
func TestActivityGetShowsFailureDetails(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	// Through the client, which does not look users up: a sender that is no
	// user passes until the activity runs, and then it FAILS.
	act, err := e.client("alice").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := e.client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusFailed {
		t.Fatalf("approve: %+v %v; want the activity FAILED", done, err)
	}
	const details = `[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"invitations[0].senderUserId","description":"no such user\u001b[31m"}]},` +
		`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SENDER_NOT_FOUND","metadata":{"user\u202eId":"bogusQ"}}]`
	proxy := e.demo.Rewriting(func(op string, _, reply []byte) []byte {
		var m map[string]map[string]any
		if op != "query/"+api.QueryGetActivity || json.Unmarshal(reply, &m) != nil {
			return reply
		}
		if f, ok := m["activity"]["failure"].(map[string]any); ok {
			f["details"] = json.RawMessage(details)
		}
		out, _ := json.Marshal(m)
		return out
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))}
	code, out, errOut := runVigil(t, env, "", "activity", "get", act.ID)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	for _, want := range []string{
		`is not a user of this organization (code 5)`,
		`detail: {"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"description":"no such user\u001b[31m","field":"invitations[0].senderUserId"}]}`,
		`detail: {"@type":"type.googleapis.com/google.rpc.ErrorInfo","metadata":{"user\u202eId":"bogusQ"},"reason":"SENDER_NOT_FOUND"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("activity get does not show %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\u202e") {
		t.Errorf("a control character from the details reached the terminal:\n%q", out)
	}
}
