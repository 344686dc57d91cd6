package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A body-keyed cache answers only whoami (every member's whoami is the same
// bytes) with alice's reply; reads and votes reach the service. bob's key
// is known (a key file), so per docs/cli.md "Your vote is ... signed with
// the profile's key ... whatever user whoami names". bob's approval counts
// and the reply shows it signed with his key: 'activity approve' must exit 0.
func TestWhoamiCacheDoesNotHideKeySignedVote(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "whoami-only")
	alice := e.client("alice")
	aliceWho, err := alice.QueryRaw(context.Background(), api.QueryWhoami, api.WhoamiRequest{OrganizationID: alice.OrganizationID()})
	if err != nil {
		t.Fatal(err)
	}
	gw := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/whoami" {
			return aliceWho
		}
		return reply
	})
	cfg := e.configVia(gw, filepath.Join(t.TempDir(), "who.toml"))
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := alice.GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	v := after.VoteOf(e.userID("bob"))
	if v == nil {
		t.Fatalf("bob's vote did not reach the service")
	}
	if code != exitOK {
		t.Errorf("bob's approval counted, signed with his profile's key (%s), yet 'activity approve' exited %d:\nstdout:\n%s\nstderr:\n%s", v.PublicKey, code, out, errOut)
	}
}
