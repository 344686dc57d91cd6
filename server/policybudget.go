package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/vigil-console/vigil/api"
)

// defaultPolicyBudget bounds what an organization's policies may take
// together, counted by policyCharge. list_policies answers every policy in
// one reply and no verb deletes a policy, so a total past what clients read
// could never be brought back: it is refused when the policy is created.
// JSON escaping at its worst (a control character as \u00XX) writes 6 bytes
// per byte of text, so the reply stays under 6 × 32 MiB = 192 MiB, well
// within the client's 256 MiB bound on unpaged lists.
const defaultPolicyBudget = 32 << 20

// policyRecordCharge is what each policy costs besides its texts: its id,
// effect, times and the reply's field names (about 300 bytes encoded). It
// keeps a flood of tiny policies within the bound too. The trigger of
// migration 16 charges the same amount; keep them equal.
const policyRecordCharge = 512

// policyCharge is what a policy counts against its organization's budget:
// the bytes of its stored texts plus policyRecordCharge. The SQL of
// migration 16 computes the same for each stored policy.
func policyCharge(p *api.CreatePolicyParams) int64 {
	return int64(len(p.PolicyName)+len(p.Condition)+len(p.Consensus)+len(p.Time)+len(p.Notes)) + policyRecordCharge
}

// policyBudgetExceeded says why a policy does not fit its organization's
// budget, or returns "" when it does. It reads the running total kept by
// migration 16's trigger inside tx, the writer's transaction, so two
// creations cannot both take the last room. The message is whole: passed
// on as a format argument it would be cut (messagef).
func (s *Server) policyBudgetExceeded(ctx context.Context, tx *txn, orgID string, p *api.CreatePolicyParams) (string, error) {
	var used int64
	if err := tx.QueryRowContext(ctx, `SELECT policy_bytes FROM organizations WHERE id = ?`, orgID).Scan(&used); err != nil {
		return "", fmt.Errorf("read the size of organization %s's policies: %w", orgID, err)
	}
	charge := policyCharge(p)
	if used+charge <= s.policyBudget {
		return "", nil
	}
	what := messagef("policy %q counts %s (the bytes of its name, expressions and notes, plus %d for its record) and the organization's policies already count %s of the %s they may count together, so that every client can still read list_policies",
		p.PolicyName, sizeText(charge), policyRecordCharge, sizeText(used), sizeText(s.policyBudget))
	if room := s.policyBudget - used; room > policyRecordCharge {
		return what + "; policies cannot be deleted: shorten this policy's expressions or notes so that it counts at most " + sizeText(room), nil
	}
	return what + "; policies cannot be deleted, so this organization has no room for another policy: change what its existing policies allow instead", nil
}

// overPolicyBudget is the submission's refusal for a policy that does not
// fit (policyBudgetExceeded).
func overPolicyBudget(why string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: api.CodeFailedPrecondition, ErrorCode: "POLICY_LIMIT", Message: why}
}

// sizeText writes a byte count for a person: bytes exactly below 1 KiB,
// then KiB or MiB with one decimal.
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}
