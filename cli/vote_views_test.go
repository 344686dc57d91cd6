package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An oauth intent without expirationSeconds gets an API key of 15 minutes,
// and without apiKeyName one named "Oauth - <time>" (server executeOauth,
// SPEC.md). The vote prompt reads "(none)" for both: a voter reads "no
// expiry" and "no name".
func TestVotePromptSaysOauthDefaults(t *testing.T) {
	act := &api.Activity{ID: "act-1", Type: api.TypeOauth, Status: api.StatusConsensusNeeded,
		Intent: api.Intent{OauthIntent: &api.OauthParams{OidcToken: "a.b.c", TargetPublicKey: "04" + strings.Repeat("ab", 64)}}}
	text := voteIntentText(shownActivity{Activity: act, exact: act}, nil)
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "expirationSeconds") && !strings.Contains(l, "15 min") && !strings.Contains(l, "900") {
			t.Errorf("the prompt does not say the key the vote makes lives 15 minutes: %q\n%s", l, text)
		}
		if strings.Contains(l, "apiKeyName") && strings.Contains(l, "(none)") {
			t.Errorf("the prompt says the key has no name; the service names it \"Oauth - <time>\": %q", l)
		}
	}
}

// A consensus of only white space is no consensus to the service
// (policy.checkOne): an ALLOW policy then needs no approval at all. The
// prompt shows it as a quoted string of spaces, never saying so.
func TestVotePromptSaysBlankConsensusIsNone(t *testing.T) {
	act := &api.Activity{ID: "act-2", Type: api.TypeCreatePolicyV3, Status: api.StatusConsensusNeeded,
		Intent: api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: "routine", Effect: api.EffectAllow,
			Condition: " ", Consensus: " "}}}
	text := voteIntentText(shownActivity{Activity: act, exact: act}, nil)
	if !strings.Contains(text, "every activity") || !strings.Contains(text, "without any approval") {
		t.Errorf("a blank condition/consensus is not said to mean none (every activity, no approval):\n%s", text)
	}
}

// Nothing of an oauth intent with short fields is shortened, yet the prompt
// says "long text shortened": the token's "(a secret of N characters; not
// shown)" ends in " shown)", the marker voteIntentText looks for.
func TestVotePromptDoesNotClaimShorteningOfOauth(t *testing.T) {
	act := &api.Activity{ID: "act-3", Type: api.TypeOauth, Status: api.StatusConsensusNeeded,
		Intent: api.Intent{OauthIntent: &api.OauthParams{OidcToken: "a.b.c", TargetPublicKey: "04ab", APIKeyName: "k", ExpirationSeconds: "900"}}}
	if text := voteIntentText(shownActivity{Activity: act, exact: act}, nil); strings.Contains(text, "long text shortened") {
		t.Errorf("the prompt says text was shortened where none was:\n%s", text)
	}
}

// Text really shortened still sends the voter to the whole of it.
func TestVotePromptSaysWhenTextIsShortened(t *testing.T) {
	act := &api.Activity{ID: "act-4", Type: api.TypeCreatePolicyV3, Status: api.StatusConsensusNeeded,
		Intent: api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: strings.Repeat("n", api.FreeTextShown+1),
			Effect: api.EffectDeny, Condition: "true"}}}
	if text := voteIntentText(shownActivity{Activity: act, exact: act}, nil); !strings.Contains(text, "long text shortened") {
		t.Errorf("a name longer than %d characters is shortened without a word of where to read it whole:\n%s", api.FreeTextShown, text)
	}
}
