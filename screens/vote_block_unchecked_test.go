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

// The read shows alice's approval of her own request without its signed
// message (as the service shows votes once a large request filled the
// room for their messages): vigil cannot check it, but it is no copy
// proven wrong. The vote block says she already approved it, noting it was
// not checked, not "whether you voted is not known".
func TestVoteBlockTellsAnUncheckedOwnVoteAsCast(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice := d.Client("alice")
	a, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "a", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil {
		t.Fatal(err)
	}
	aliceID := memberID(t, d, "alice")
	proxy := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity || !strings.Contains(string(reply), a.ID) {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		for _, v := range m["activity"]["votes"].([]any) {
			if v.(map[string]any)["userId"] == aliceID {
				delete(v.(map[string]any), "message")
			}
		}
		out, _ := json.Marshal(m)
		return out
	})
	pa := d.ClientAt(proxy, "alice", api.WithExactStrings())
	h := newHarnessWith(t, pa, pa, theme.Options{Dark: true, NoColor: true}, 0)
	got, err := pa.GetActivity(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v := got.VoteOf(aliceID); v == nil || v.Message != "" || got.CanApprove || got.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: want a pending activity, not offered to alice, showing her vote without its message: %+v", got)
	}
	text := cannotVoteText(h.root.common, got, "approve")
	t.Logf("vote block: %q", text)
	if strings.Contains(text, "not known") {
		t.Errorf("alice's vote is under her key, unchecked; the console says %q", text)
	}
	for _, want := range []string{"you already approved it", "without a signed message", "could not check it"} {
		if !strings.Contains(text, want) {
			t.Errorf("the vote block %q lacks %q", text, want)
		}
	}
}
