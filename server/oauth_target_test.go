package server

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A compressed-length target key that is not a point on P-256 is refused
// with a 400 at submission, as an uncompressed one is, rather than being
// recorded and failing after consensus.
func TestOauthRefusesTargetKeyOffTheCurveAtSubmission(t *testing.T) {
	e := soloEnv(t)
	for _, bad := range []string{
		"05" + strings.Repeat("00", 32), // not a SEC1 prefix
		"02" + strings.Repeat("ff", 32), // x beyond the field: no such point
	} {
		token := e.mintToken("carol-sub", bad)
		r := e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: token, TargetPublicKey: bad}, nil), e.keys["alice"])
		wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_PARAMETER")
		if !strings.Contains(r.err.Message, "targetPublicKey") {
			t.Errorf("targetPublicKey %s…: message %q does not name the field", bad[:6], r.err.Message)
		}
	}
}
