package api_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// An oauth submission that leaves out apiKeyName, expirationSeconds and
// invalidateExisting: the service may show its intent with its documented
// defaults filled in (intentdefaults.go), and the requester's vote still
// verifies; any other value in those fields is not what was signed.
func TestSubmissionVoteToleratesOnlyTheServicesDefaults(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	body, err := json.Marshal(map[string]any{
		"type": api.TypeOauth, "organizationId": "org-1", "timestampMs": strconv.FormatInt(now.UnixMilli(), 10),
		"parameters": map[string]any{"oidcToken": "tok", "targetPublicKey": "02ab"},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, value, err := k.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	st, err := keys.DecodeStamp(value)
	if err != nil {
		t.Fatal(err)
	}
	no := false
	yes := true
	shown := func(p api.OauthParams) api.Activity {
		return api.Activity{
			ID: "act-1", OrganizationID: "org-1", Type: api.TypeOauth, Fingerprint: api.BodyFingerprint(body),
			Intent: api.Intent{OauthIntent: &p}, CreatedAt: api.NewTime(now),
			Votes: []api.Vote{{ID: "v1", UserID: "u1", Selection: api.VoteApproved, Message: string(body),
				PublicKey: st.PublicKey, Signature: st.Signature, Scheme: st.Scheme, CreatedAt: api.NewTime(now)}},
		}
	}
	base := api.OauthParams{OidcToken: "tok", TargetPublicKey: "02ab"}
	filled := base
	filled.APIKeyName = api.DefaultOauthKeyName + now.UTC().Format(time.RFC3339)
	filled.ExpirationSeconds = strconv.Itoa(api.DefaultOauthKeySeconds)
	filled.InvalidateExisting = &no
	for _, c := range []struct {
		name string
		p    func() api.OauthParams
		want string
	}{
		{"as signed", func() api.OauthParams { return base }, api.VoteVerified},
		{"the service's defaults filled in", func() api.OauthParams { return filled }, api.VoteVerified},
		{"another key name", func() api.OauthParams { p := filled; p.APIKeyName = "ci"; return p }, api.VoteFailed},
		{"a longer key life", func() api.OauthParams { p := filled; p.ExpirationSeconds = "31536000"; return p }, api.VoteFailed},
		{"the user's other keys invalidated", func() api.OauthParams { p := filled; p.InvalidateExisting = &yes; return p }, api.VoteFailed},
		{"another token", func() api.OauthParams { p := base; p.OidcToken = "other"; return p }, api.VoteFailed},
	} {
		a := shown(c.p())
		if got := api.CheckVote(a, a.Votes[0]); got.State != c.want {
			t.Errorf("%s: %+v, want %s", c.name, got, c.want)
		}
	}
}
