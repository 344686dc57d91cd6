package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A delivery is addressed to no member: its body is get_activity's reply for
// the same unchanged activity, byte for byte, except that canApprove and
// canReject are false, also while the member asking get_activity may still
// vote (docs/webhooks.md, "What arrives").
func TestWebhookBodyIsGetActivityWithoutTheCallersVote(t *testing.T) {
	e := newEnv(t)
	rc := newBoundedReceiver(t, e)
	ctx := ctxT(t)
	act, err := e.clients["alice"].SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	pending, err := e.clients["carol"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "w", UserIDs: []string{e.user("bob")}})
	if err != nil || pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_user_tag: %v %+v", err, pending)
	}
	body := rc.body(t, pending.ID+":"+api.StatusConsensusNeeded)

	q, _ := json.Marshal(map[string]any{"organizationId": e.org.ID, "activityId": pending.ID})
	g := e.post("/public/v1/query/get_activity", q, e.keys["alice"])
	var reply struct {
		Activity json.RawMessage `json:"activity"`
	}
	if err := json.Unmarshal(g.body, &reply); g.status != 200 || err != nil {
		t.Fatalf("get_activity: HTTP %d, %v", g.status, err)
	}
	got := []byte(reply.Activity)
	for _, flag := range []string{"canApprove", "canReject"} {
		yes, no := []byte(`"`+flag+`":true`), []byte(`"`+flag+`":false`)
		if bytes.Count(got, yes) != 1 {
			t.Fatalf("get_activity for alice, who may still vote, does not say %s once: %s", yes, got)
		}
		got = bytes.Replace(got, yes, no, 1)
	}
	if !bytes.Equal(body, got) {
		t.Errorf("the webhook body\n%s\nis not get_activity's reply with canApprove and canReject false\n%s", body, got)
	}
}
