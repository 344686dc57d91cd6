package server

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A used OIDC token's record is pruned once the clock passes its exp; if the
// clock then goes back (an NTP step correction, a VM resume), the token must
// still not sign in again. Here operator copies alice's token and target key
// from her intent and adds invalidateExisting, which would delete her keys.
func TestUsedOIDCTokenStaysUsedAfterClockStepsBack(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	oauthNeedsTwoApprovers(e)

	_, ta := newTarget(t)
	tokA := e.mintToken("alice-sub", ta)
	first, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: tokA, TargetPublicKey: ta})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(e.clients["bob"].ApproveActivity(ctx, first.Fingerprint))
	seen, err := e.clients["operator"].GetActivity(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	copied := seen.Intent.OauthIntent.OidcToken

	// The clock jumps 12 minutes forward (past the token's exp and the
	// leeway) and bob signs in: his claim prunes alice's record.
	skew := 12 * time.Minute
	e.skew.Store(int64(skew))
	_, tb := newTarget(t)
	tokB := e.mintToken("bob-sub", tb)
	bodyB := e.body(api.TypeOauth, api.OauthParams{OidcToken: tokB, TargetPublicKey: tb},
		map[string]any{"timestampMs": strconv.FormatInt(time.Now().Add(skew).UnixMilli(), 10)})
	if r := e.post(e.submitPath("oauth"), bodyB, e.keys["bob"]); r.status != 200 {
		t.Fatalf("bob's sign-in at the forward clock: %d %s", r.status, r.body)
	}

	// The clock is set back.
	e.skew.Store(0)
	before := e.oauthKeysOf(e.user("alice"))
	yes := true
	replay := e.body(api.TypeOauth, api.OauthParams{OidcToken: copied, TargetPublicKey: ta, APIKeyName: "operator's", InvalidateExisting: &yes}, nil)
	r := e.post(e.submitPath("oauth"), replay, e.keys["operator"])
	if r.status == 200 {
		if r.act.Status == api.StatusConsensusNeeded {
			mustComplete(t)(e.clients["carol"].ApproveActivity(ctx, r.act.Fingerprint))
		}
		t.Fatalf("alice's OIDC token, already exchanged by %s, was accepted again after the clock stepped back: status %s; alice's OAuth keys before %v, after %v",
			first.ID, r.act.Status, before, e.oauthKeysOf(e.user("alice")))
	}
	wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
	if want := "already forgotten"; !strings.Contains(r.err.Message, want) {
		t.Errorf("refusal %q does not say %q", r.err.Message, want)
	}
}
