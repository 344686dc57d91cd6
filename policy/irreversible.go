package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// IrreversibleDeny is the warning for a deny that can stop every later
// create_policy for good: its condition is empty or does not rule out
// create_policy (ACTIVITY_TYPE_CREATE_POLICY_V3, resource POLICY, action
// CREATE), and the root quorum needs more than one approval. The service
// decides an activity at its submission, when only the requester has
// approved: a root quorum of one cannot bypass the deny then, so the
// create_policy fails before anybody else can approve it, and no operation
// deletes a policy. threshold is the root quorum's; 0 when not known (the
// warning then says it depends on it). The consensus is not judged: a deny
// whose consensus the requester alone meets (none, or a count) denies then.
func IrreversibleDeny(effect string, src Source, threshold int) (Diagnostic, bool) {
	if effect != api.EffectDeny || threshold == 1 || !canMatchCreatePolicy(src.Condition) {
		return Diagnostic{}, false
	}
	quorum := fmt.Sprintf("the root quorum needs %d approvals", threshold)
	if threshold <= 0 {
		quorum = "if the root quorum needs more than one approval"
	}
	what := "this deny applies to every activity"
	if strings.TrimSpace(src.Condition) != "" {
		what = "this deny's condition can match create_policy (" + api.TypeCreatePolicyV3 + ")"
	}
	msg := what + ", and " + quorum + ": once created, every create_policy is decided at its submission, " +
		"before a second root member can approve it, so if the deny holds then (its consensus met by the requester alone) " +
		"every new policy FAILS. No operation deletes a policy: this cannot be undone. " +
		"Narrow the condition so that it cannot match create_policy"
	return Diagnostic{Field: FieldCondition, Line: 1, Column: 1, Message: msg}, true
}

// canMatchCreatePolicy reports whether a condition can hold for a
// create_policy: it is empty, or its top-level clauses on the activity's
// type, kind, resource and action do not exclude it (a condition that does
// not parse is taken to match).
func canMatchCreatePolicy(condition string) bool {
	if strings.TrimSpace(condition) == "" {
		return true
	}
	const t = api.TypeCreatePolicyV3
	p := pinsOf(condition)
	return (p.types == nil || slices.Contains(p.types, t)) &&
		(p.kinds == nil || slices.Contains(p.kinds, KindOf(t))) && p.allowsResourceAction(t)
}
