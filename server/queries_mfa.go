package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// queryGetMfaPolicies serves get_mfa_policies: one user's MFA policies, in order.
func (s *Server) queryGetMfaPolicies(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	return s.mfaPolicies(ctx, c, body, false)
}

// queryListMfaPolicies is vigil's list_mfa_policies, an earlier name of
// get_mfa_policies: the same query, except that userId may be left out to
// list every user's policies.
func (s *Server) queryListMfaPolicies(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	return s.mfaPolicies(ctx, c, body, true)
}

// mfaPolicies serves both names of the query, so that with a userId they
// answer alike (an unknown user is a 404 under either).
func (s *Server) mfaPolicies(ctx context.Context, c *caller, body api.StrictBody, allUsers bool) (any, error) {
	// The two request types have the same fields; userId is optional only in the alias's.
	var req api.GetMfaPoliciesRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if req.UserID == "" && allUsers {
		ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ?`, c.OrgID)
		if err != nil {
			return nil, err
		}
		return api.ListMfaPoliciesResponse{MfaPolicies: ps}, nil
	}
	if err := requireField("userId", req.UserID); err != nil {
		return nil, err
	}
	if err := userInOrg(ctx, s.db.read, c.OrgID, req.UserID); err != nil {
		if !isNotInOrg(err) { // the database failed
			return nil, err
		}
		return nil, notFoundf("USER_NOT_FOUND", "user %q not found in organization %q", req.UserID, c.OrgID)
	}
	ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ? AND user_id = ?`, c.OrgID, req.UserID)
	if err != nil {
		return nil, err
	}
	return api.GetMfaPoliciesResponse{MfaPolicies: ps}, nil
}

func (s *Server) queryGetMfaPolicy(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetMfaPolicyRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("userId", req.UserID); err != nil {
		return nil, err
	}
	if err := requireField("mfaPolicyId", req.MfaPolicyID); err != nil {
		return nil, err
	}
	ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ? AND user_id = ? AND id = ?`, c.OrgID, req.UserID, req.MfaPolicyID)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, notFoundf("MFA_POLICY_NOT_FOUND", "MFA policy %q of user %q not found in organization %q", req.MfaPolicyID, req.UserID, c.OrgID)
	}
	return api.GetMfaPolicyResponse{MfaPolicy: ps[0]}, nil
}

// queryGetMfaStatus reports, for each voter of the activity (or the one
// userId names), the first of their MFA policies, in order, whose condition
// holds for the activity, and which of its steps the credential they voted
// with satisfies. A voter none of whose policies applies has no status: MFA
// asks nothing of them for this activity.
func (s *Server) queryGetMfaStatus(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetMfaStatusRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	a, err := s.queriedActivity(ctx, c, req.ActivityID)
	if err != nil {
		return nil, err
	}
	if req.UserID != "" {
		if err := userInOrg(ctx, s.db.read, c.OrgID, req.UserID); err != nil {
			if !isNotInOrg(err) { // the database failed
				return nil, err
			}
			return nil, notFoundf("USER_NOT_FOUND", "user %q not found in organization %q", req.UserID, c.OrgID)
		}
	}
	_, params := a.Intent.Params()
	in := policy.Input{Activity: policy.ActivityFor(a.Type, params)}
	out := api.GetMfaStatusResponse{MfaStatuses: []api.MfaStatus{}}
	for _, v := range a.Votes {
		if req.UserID != "" && v.Vote.UserID != req.UserID {
			continue
		}
		ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ? AND user_id = ?`, c.OrgID, v.Vote.UserID)
		if err != nil {
			return nil, err
		}
		applies := s.applicableMfaPolicy(ps, in)
		if applies == nil {
			continue
		}
		used, err := s.voteMethod(ctx, c.OrgID, v.Vote)
		if err != nil {
			return nil, err
		}
		st := api.MfaStatus{MfaPolicyID: applies.MfaPolicyID, UserID: v.Vote.UserID,
			SatisfiedMethods: []api.AuthenticationMethod{}, RequiredMethods: applies.RequiredAuthenticationMethods}
		st.Satisfied = len(applies.RequiredAuthenticationMethods) > 0
		for _, step := range applies.RequiredAuthenticationMethods {
			if m, ok := satisfies(step, used); ok {
				st.SatisfiedMethods = append(st.SatisfiedMethods, m)
			} else {
				st.Satisfied = false
			}
		}
		out.MfaStatuses = append(out.MfaStatuses, st)
	}
	return out, nil
}

// applicableMfaPolicy is the first policy, in order, whose condition is true
// for the activity. A condition that does not compile (stored before
// submissions were checked) or fails to evaluate applies, and is logged: the
// MFA it asks for is required rather than silently skipped.
func (s *Server) applicableMfaPolicy(ps []api.MfaPolicy, in policy.Input) *api.MfaPolicy {
	p, err := policy.ApplicableMfaPolicy(ps, in, func(cond string) (*policy.Compiled, error) { return s.compile(cond, "") })
	if err != nil {
		s.log.Warn("MFA policy condition cannot run; it applies", "mfaPolicyId", p.MfaPolicyID, "err", err)
	}
	return p
}

// satisfies reports the method of step that the credential used meets: the
// same type, and the same id when the step names one.
func satisfies(step api.AuthenticationStep, used api.AuthenticationMethod) (api.AuthenticationMethod, bool) {
	for _, m := range step.Any {
		if m.Type == used.Type && (m.ID == "" || m.ID == used.ID) {
			return used, true
		}
	}
	return api.AuthenticationMethod{}, false
}

// voteMethod is the authentication method a vote was cast with: the API key
// (by its credential type) or passkey behind the vote's public key.
func (s *Server) voteMethod(ctx context.Context, orgID string, v api.Vote) (api.AuthenticationMethod, error) {
	if v.Scheme == api.SchemeWebAuthn {
		var id string
		err := s.db.read.QueryRowContext(ctx, `SELECT id FROM authenticators WHERE org_id = ? AND user_id = ? AND public_key = ?`, orgID, v.UserID, v.PublicKey).Scan(&id)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return api.AuthenticationMethod{}, fmt.Errorf("vote %s: authenticator: %w", v.ID, err)
		}
		return api.AuthenticationMethod{Type: api.AuthPasskey, ID: id}, nil
	}
	var id, typ string
	err := s.db.read.QueryRowContext(ctx, `SELECT id, credential_type FROM api_keys WHERE org_id = ? AND public_key = ?`, orgID, v.PublicKey).Scan(&id, &typ)
	if errors.Is(err, sql.ErrNoRows) { // the key was deleted since the vote
		return api.AuthenticationMethod{Type: api.AuthAPIKey}, nil
	}
	if err != nil {
		return api.AuthenticationMethod{}, fmt.Errorf("vote %s: API key: %w", v.ID, err)
	}
	return api.AuthenticationMethod{Type: authenticationTypeOf(typ), ID: id}, nil
}

// authenticationTypeOf is the MFA method a credential of this type proves.
func authenticationTypeOf(credentialType string) string {
	switch credentialType {
	case api.CredentialWebAuthnAuthenticator:
		return api.AuthPasskey
	case api.CredentialOauthKeyP256:
		return api.AuthOauth
	case api.CredentialReadWriteSessionP256:
		return api.AuthSession
	case api.CredentialEmailAuthKeyP256, api.CredentialOtpAuthKeyP256:
		return api.AuthEmailOTP
	}
	return api.AuthAPIKey
}

// loadMfaPolicies loads MFA policies matching where, in evaluation order.
func loadMfaPolicies(ctx context.Context, q querier, where string, args ...any) ([]api.MfaPolicy, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, user_id, name, condition, methods, ord, notes, created_ns, updated_ns
		FROM mfa_policies WHERE `+where+` ORDER BY ord, seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("load MFA policies: %w", err)
	}
	defer rows.Close()
	out := []api.MfaPolicy{}
	for rows.Next() {
		var p api.MfaPolicy
		var methods string
		var created, updated int64
		if err := rows.Scan(&p.MfaPolicyID, &p.UserID, &p.MfaPolicyName, &p.Condition, &methods, &p.Order, &p.Notes, &created, &updated); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(methods), &p.RequiredAuthenticationMethods); err != nil {
			return nil, fmt.Errorf("MFA policy %s: stored methods: %w", p.MfaPolicyID, err)
		}
		p.CreatedAt, p.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
		out = append(out, p)
	}
	return out, rows.Err()
}
