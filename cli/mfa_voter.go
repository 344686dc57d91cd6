package cli

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// mfaOfOneVoter says why get_mfa_status had nothing for userID on the
// activity: they voted and none of their MFA policies applies, or they have
// not voted yet, and then which of their policies would apply (the rule the
// console's MFA screen uses: the first, in order, whose condition holds).
func mfaOfOneVoter(ctx context.Context, client *api.Client, activityID, userID string) (string, error) {
	who := api.SanitizeID(userID)
	a, err := client.GetActivity(ctx, activityID)
	if err != nil {
		return "", fmt.Errorf("activity %s: %w", api.SanitizeID(activityID), err)
	}
	if slices.ContainsFunc(a.Votes, func(v api.Vote) bool { return v.UserID == userID }) {
		return fmt.Sprintf("%s voted on this activity; none of their MFA policies applies to it", who), nil
	}
	if a.IntentUnread() {
		return fmt.Sprintf("%s has not voted on this activity; which of their MFA policies would apply: %s", who, api.CannotTellParams), nil
	}
	pols, err := client.GetMfaPolicies(ctx, userID)
	if err != nil {
		return "", fmt.Errorf("MFA policies of %s: %w", who, err)
	}
	// MFA conditions read only the activity (the service refuses the
	// rest), so the clock and members given here change nothing.
	expected, _ := policy.ApplicableMfaPolicy(pols, policy.InputOfActivity(*a, nil, time.Now()), policy.CompileMfaCondition)
	if expected == nil {
		return fmt.Sprintf("%s has not voted on this activity; none of their MFA policies would apply to it", who), nil
	}
	return fmt.Sprintf("%s has not voted on this activity; when they do, MFA policy %s (%s) applies, asking for %s",
		who, api.Quote(expected.MfaPolicyName), api.SanitizeID(expected.MfaPolicyID), stepsText(expected.RequiredAuthenticationMethods, pinCreds{})), nil
}
