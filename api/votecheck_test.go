package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
)

// votedTag has the operator submit a tag and alice (a root member) approve
// it: the activity waits for a second root approval with two votes.
func votedTag(t *testing.T, demo *servertest.Demo, name string) *api.Activity {
	t.Helper()
	ctx := context.Background()
	act, err := demo.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Client("alice").ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	return act
}

func memberID(t *testing.T, demo *servertest.Demo, name string) string {
	t.Helper()
	for _, m := range demo.Info.Members {
		if m.Name == name {
			return m.UserID
		}
	}
	t.Fatalf("no demo member %s", name)
	return ""
}

// The service's votes carry the body their stamp signed: the submitter's
// vote its submission, alice's approval her approve_activity body, each
// verifying with keys' own verifier (not only CheckVote's word for it).
func TestVoteMessagesFromTheServiceVerify(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "vote-message")
	got, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	submitter, approver := got.VoteOf(memberID(t, demo, "operator")), got.VoteOf(memberID(t, demo, "alice"))
	if submitter == nil || approver == nil {
		t.Fatalf("want the operator's and alice's votes, got %+v", got.Votes)
	}
	for _, v := range []*api.Vote{submitter, approver} {
		if v.Message == "" {
			t.Fatalf("vote %s by %s has no message: nobody can check its signature", v.ID, v.UserID)
		}
		if _, err := keys.VerifyFields(keys.Stamp{PublicKey: v.PublicKey, Scheme: v.Scheme, Signature: v.Signature}, []byte(v.Message)); err != nil {
			t.Errorf("vote %s by %s: signature over its message: %v", v.ID, v.UserID, err)
		}
		if c := api.CheckVote(*got, *v); c.State != api.VoteVerified {
			t.Errorf("vote %s by %s: CheckVote = %+v, want verified", v.ID, v.UserID, c)
		}
	}
	sum := sha256.Sum256([]byte(submitter.Message))
	if fp := "sha256:" + hex.EncodeToString(sum[:]); fp != got.Fingerprint {
		t.Errorf("the submitter's message hashes to %s, not the activity's fingerprint %s", fp, got.Fingerprint)
	}
	var approve struct {
		Type           string `json:"type"`
		OrganizationID string `json:"organizationId"`
		Parameters     struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(approver.Message), &approve); err != nil {
		t.Fatal(err)
	}
	if approve.Type != api.TypeApproveActivity || approve.Parameters.Fingerprint != got.Fingerprint || approve.OrganizationID != got.OrganizationID {
		t.Errorf("alice's message is not her approval of this activity: %s", approver.Message)
	}
}

// A proxy rewriting get_activity's reply: alice's vote on A shows her
// signed approval of B (message and signature, both real), a signature
// tampered with, no message, or a passkey's scheme.
func TestVoteCheckOfRewrittenVotes(t *testing.T) {
	demo := servertest.StartDemo(t)
	a, b := votedTag(t, demo, "vote-a"), votedTag(t, demo, "vote-b")
	aliceID := memberID(t, demo, "alice")
	exact := demo.ClientAt(demo.URL, "alice", api.WithExactStrings())
	onB, err := exact.GetActivity(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	fromB := *onB.VoteOf(aliceID)
	for _, c := range []struct {
		name   string
		change func(v map[string]any)
		want   string
	}{
		{"alice's approval of another activity", func(v map[string]any) {
			v["message"], v["signature"], v["publicKey"], v["scheme"] = fromB.Message, fromB.Signature, fromB.PublicKey, fromB.Scheme
		}, api.VoteFailed},
		{"a message of another activity, the signature left", func(v map[string]any) { v["message"] = fromB.Message }, api.VoteFailed},
		{"a tampered signature", func(v map[string]any) { v["signature"] = tamperHex(v["signature"].(string)) }, api.VoteFailed},
		{"no message", func(v map[string]any) { v["message"] = "" }, api.VoteNotCheckable},
		{"a passkey's scheme", func(v map[string]any) { v["scheme"] = keys.SchemeWebAuthn }, api.VoteNotCheckable},
		{"a message that is not a request body", func(v map[string]any) { v["message"] = "approved by alice" }, api.VoteNotCheckable},
		{"as sent", func(v map[string]any) {}, api.VoteVerified},
	} {
		proxy := activityRewritten(demo, func(a map[string]any) {
			for _, v := range a["votes"].([]any) {
				if v := v.(map[string]any); v["userId"] == aliceID {
					c.change(v)
				}
			}
		})
		got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(context.Background(), a.ID)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if check := api.CheckVote(*got, *got.VoteOf(aliceID)); check.State != c.want {
			t.Errorf("%s: CheckVote = %+v, want %s", c.name, check, c.want)
		}
	}
}

// A vote bound to the activity by everything but its selection or
// organization FAILS; any input at all gives a state, never a panic.
func TestVoteCheckBinding(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	act, err := demo.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "vote-reject", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Client("carol").RejectActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	got, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings()).GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	carol := *got.VoteOf(memberID(t, demo, "carol"))
	if c := api.CheckVote(*got, carol); c.State != api.VoteVerified {
		t.Fatalf("carol's rejection: %+v, want verified", c)
	}
	relabelled := carol
	relabelled.Selection = api.VoteApproved
	if c := api.CheckVote(*got, relabelled); c.State != api.VoteFailed {
		t.Errorf("carol's signed rejection shown as an approval: %+v, want FAILED", c)
	}
	submission := *got.VoteOf(memberID(t, demo, "operator"))
	submission.Selection = api.VoteRejected
	if c := api.CheckVote(*got, submission); c.State != api.VoteFailed {
		t.Errorf("the submission shown as a rejection: %+v, want FAILED", c)
	}
	moved := *got
	moved.OrganizationID = "another-org"
	if c := api.CheckVote(moved, carol); c.State != api.VoteFailed {
		t.Errorf("a vote signed in another organization: %+v, want FAILED", c)
	}
	huge := carol
	huge.Message = `{"type":"` + strings.Repeat("A", api.MaxRequestBodyBytes) + `"}`
	if c := api.CheckVote(*got, huge); c.State != api.VoteNotCheckable {
		t.Errorf("a message over the body limit: %+v, want not checkable", c)
	}
	for _, msg := range []string{"{", "null", "[]", `{"type":1}`, `{"type":"T","organizationId":"o","timestampMs":"1","parameters":null}`,
		`{"a":1,"a":2}`, "\xff", carol.Message[:len(carol.Message)/2]} {
		for _, scheme := range []string{carol.Scheme, keys.SchemeEd25519, keys.SchemeSecp256k1, "", "X"} {
			for _, sig := range []string{carol.Signature, "", "zz", "30"} {
				v := carol
				v.Message, v.Scheme, v.Signature, v.PublicKey = msg, scheme, sig, "02"
				if c := api.CheckVote(*got, v); c.State == "" || c.State == api.VoteVerified {
					t.Errorf("message %q scheme %q signature %q: %+v", msg, scheme, sig, c)
				}
			}
		}
	}
}

// tamperHex flips the last hex digit of s.
func tamperHex(s string) string {
	if s == "" {
		return "00"
	}
	last := s[len(s)-1]
	flip := byte('0')
	if last == '0' {
		flip = '1'
	}
	return s[:len(s)-1] + string(flip)
}

// activityRewritten is the URL of a proxy in front of demo that passes
// get_activity's reply through change (the activity object) first.
func activityRewritten(demo *servertest.Demo, change func(activity map[string]any)) string {
	return demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		change(m["activity"])
		out, _ := json.Marshal(m)
		return out
	})
}
