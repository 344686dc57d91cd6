package server

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// One sign-in while the service clock runs two days ahead prunes the
// used-token records that clock sees as expired. Once the clock is
// corrected, the tokens it made the service forget stay refused, with the
// real cause, but a token minted afterwards signs in: the mark went only as
// far as the forgotten tokens' expiry, not to the clock's reading.
func TestFreshOIDCTokenSignsInAfterForwardClockIsCorrected(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)

	// Alice's token is minted a little earlier, so that a token minted
	// after the correction expires later than hers, whole seconds apart.
	e.skew.Store(int64(-2 * time.Minute))
	_, ta := newTarget(t)
	tokA := e.mintToken("alice-sub", ta)
	first, err := e.skewed("alice").OAuth(ctx, api.OauthParams{OidcToken: tokA, TargetPublicKey: ta})
	if err != nil {
		t.Fatal(err)
	}

	skew := 48 * time.Hour
	e.skew.Store(int64(skew))
	_, tb := newTarget(t)
	tokB := e.mintToken("bob-sub", tb)
	bodyB := e.body(api.TypeOauth, api.OauthParams{OidcToken: tokB, TargetPublicKey: tb},
		map[string]any{"timestampMs": strconv.FormatInt(time.Now().Add(skew).UnixMilli(), 10)})
	if r := e.post(e.submitPath("oauth"), bodyB, e.keys["bob"]); r.status != 200 {
		t.Fatalf("bob's sign-in at the forward clock: %d %s", r.status, r.body)
	}
	e.skew.Store(0) // the clock is corrected

	_, tc := newTarget(t)
	fresh := e.mintToken("carol-sub", tc)
	r := e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: fresh, TargetPublicKey: tc}, nil), e.keys["carol"])
	if r.status != 200 {
		t.Fatalf("a token minted after the clock was corrected is refused (%d): %s; one sign-in at a clock two days ahead locked sign-in out", r.status, r.body)
	}

	// Alice's token, whose record the forward clock pruned, is still used.
	replay := e.body(api.TypeOauth, api.OauthParams{OidcToken: tokA, TargetPublicKey: ta, APIKeyName: "operator's"}, nil)
	r = e.post(e.submitPath("oauth"), replay, e.keys["operator"])
	if r.status == 200 {
		t.Fatalf("alice's token, already used by %s, was accepted again: %s", first.ID, r.act.Status)
	}
	wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
	if !strings.Contains(r.err.Message, "already forgotten") || !strings.Contains(r.err.Message, "clock was ahead") {
		t.Errorf("refusal %q does not name the cause: the service forgot used tokens while its clock was ahead", r.err.Message)
	}
}
