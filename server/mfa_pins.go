package server

import (
	"context"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// foreignPin is a method pinned to an id that is none of its user's
// credentials: step i, method j.
type foreignPin struct {
	i, j             int
	id, user, method string
}

// refusal is what the caller is told, as a format and its arguments for
// invalidf or failf, which quote (and bound) each argument.
func (f *foreignPin) refusal() (string, []any) {
	return "requiredAuthenticationMethods[%d].any[%d].id: %s %q is not one of user %s's credentials, so no vote could ever meet this step; pin one of theirs (get_user lists them), or leave the id out to accept any %s",
		[]any{f.i, f.j, api.CredentialKind(f.method), f.id, f.user, f.method}
}

// foreignMfaPin finds the first method of p pinned to an id that is none
// of p's user's credentials (passkeys and API keys, session and OAuth keys
// among them), or returns nil: the user votes with their own credentials only,
// so such a step could never be met and would lock the user out of every
// activity the policy covers. q is read as it is now: submit checks it first,
// and execution again inside its write transaction, since a credential may be
// deleted while the activity waits for votes.
//
// A pin of the wrong type (an API_KEY pinned to a passkey) is not judged here;
// clients flag it.
func foreignMfaPin(ctx context.Context, q querier, orgID string, p *api.CreateMfaPolicyParams) (*foreignPin, error) {
	for i, step := range p.RequiredAuthenticationMethods {
		for j, m := range step.Any {
			if m.ID == "" {
				continue
			}
			var n int
			err := q.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM authenticators WHERE id = ? AND org_id = ? AND user_id = ?)
				+ (SELECT COUNT(*) FROM api_keys WHERE id = ? AND org_id = ? AND user_id = ?)`,
				m.ID, orgID, p.UserID, m.ID, orgID, p.UserID).Scan(&n)
			if err != nil {
				return nil, fmt.Errorf("MFA policy pin %s: %w", m.ID, err)
			}
			if n == 0 {
				return &foreignPin{i: i, j: j, id: m.ID, user: p.UserID, method: m.Type}, nil
			}
		}
	}
	return nil, nil
}
