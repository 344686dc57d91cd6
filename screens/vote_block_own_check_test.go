package screens

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The read of A shows bob's signed approval of B copied onto A
// (canApprove false): the console's vote block must not tell bob "you
// already approved it" (his vote on A is not in: he never cast one), but
// that the vote shown under his key FAILED its check.
func TestVoteBlockDoesNotTrustAFailedOwnVote(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := d.Client("alice"), d.Client("bob")
	member := d.Info.Members[0].UserID
	b, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "b", UserIDs: []string{member}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "a", UserIDs: []string{member}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bob.ApproveActivity(ctx, b.Fingerprint); err != nil {
		t.Fatal(err)
	}
	raw, err := alice.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: d.Info.OrganizationID, ActivityID: b.ID})
	if err != nil {
		t.Fatal(err)
	}
	var rb map[string]map[string]any
	if err := json.Unmarshal(raw, &rb); err != nil {
		t.Fatal(err)
	}
	bobID := memberID(t, d, "bob")
	var bobsVote any
	for _, v := range rb["activity"]["votes"].([]any) {
		if v.(map[string]any)["userId"] == bobID {
			bobsVote = v
		}
	}
	if bobsVote == nil {
		t.Fatalf("the read of %s shows no vote by bob", b.ID)
	}
	proxy := d.Rewriting(func(op string, request, reply []byte) []byte {
		if !strings.HasPrefix(op, "query/") || !strings.Contains(string(reply), a.ID) {
			return reply
		}
		vb, _ := json.Marshal(bobsVote)
		// a's votes: [alice's] → [alice's, bob's on B]; canApprove/canReject false
		var m map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		fix := func(act map[string]any) {
			if act["id"] != a.ID {
				return
			}
			var v any
			json.Unmarshal(vb, &v)
			act["votes"] = append(act["votes"].([]any), v)
			act["canApprove"], act["canReject"] = false, false
		}
		if act, ok := m["activity"].(map[string]any); ok {
			fix(act)
		}
		if acts, ok := m["activities"].([]any); ok {
			for _, x := range acts {
				fix(x.(map[string]any))
			}
		}
		out, _ := json.Marshal(m)
		return out
	})
	pb := d.ClientAt(proxy, "bob", api.WithExactStrings())
	h := newHarnessWith(t, pb, pb, theme.Options{Dark: true, NoColor: true}, 0)
	got, err := pb.GetActivity(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	text := cannotVoteText(h.root.common, got, "approve")
	t.Logf("vote block: %q", text)
	if strings.Contains(text, "you already approved") {
		t.Errorf("bob never voted on %s; the console says %q", a.ID, text)
	}
	for _, want := range []string{"FAILED its check", "a vote on another activity", "whether you voted is not known"} {
		if !strings.Contains(text, want) {
			t.Errorf("the vote block %q lacks %q", text, want)
		}
	}
}
